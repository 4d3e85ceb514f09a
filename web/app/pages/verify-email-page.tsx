import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { AlertCircleIcon, CheckCircleIcon, MailIcon } from '../../components/ui/icons';
import { DocumentTitle } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { useAuth, useAuthDialog, useVerifyEmail } from '../../features/auth';
import { ApiError } from '../../lib/api';
import { cn } from '../../lib/cn';

const defaultSuccess = 'Your email has been verified successfully!';
const defaultFailure = 'Verification failed. The link may be invalid or expired.';

/** Spec §8: the server's message, else the error's own, else the default text. */
function failureMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? defaultFailure;
  return (error instanceof Error && error.message) || defaultFailure;
}

/** Opened from the link in the verification mail: /api/auth/register/{key}. */
export function VerifyEmailPage() {
  const { key } = useParams();
  const verification = useVerifyEmail(key);
  const { isAuthenticated } = useAuth();
  const { openAuthDialog } = useAuthDialog();

  if (!key) {
    return <VerificationCard status="error" message="Invalid verification link - missing token." />;
  }
  if (verification.isPending) {
    return <VerificationCard status="loading" message="This only takes a moment." />;
  }
  if (verification.isError) {
    return <VerificationCard status="error" message={failureMessage(verification.error)} />;
  }
  return (
    <VerificationCard
      status="success"
      message={verification.data?.message || defaultSuccess}
      action={
        isAuthenticated ? (
          <Link to="/" className={buttonClasses({ className: 'w-full' })}>
            Continue to Dealmaker
          </Link>
        ) : (
          <Button className="w-full" onClick={() => openAuthDialog('login')}>
            Sign In
          </Button>
        )
      }
    />
  );
}

const looks = {
  loading: { title: 'Verifying your email...', tone: 'bg-indigo-50 text-indigo-600' },
  success: { title: 'Success!', tone: 'bg-emerald-50 text-emerald-600' },
  error: { title: 'Error', tone: 'bg-rose-50 text-rose-600' },
};

function VerificationCard({
  status,
  message,
  action,
}: {
  status: keyof typeof looks;
  message: string;
  action?: ReactNode;
}) {
  const look = looks[status];
  return (
    <div className="flex flex-1 items-center justify-center bg-gradient-to-b from-indigo-50/70 to-slate-50 px-4 py-16">
      <DocumentTitle title="Email verification" />
      <Card className="w-full max-w-md p-8 text-center sm:p-10">
        <div className={cn('mx-auto mb-6 flex h-16 w-16 items-center justify-center rounded-2xl', look.tone)}>
          {status === 'loading' && <Spinner size="lg" decorative />}
          {status === 'success' && <CheckCircleIcon size={32} />}
          {status === 'error' && <AlertCircleIcon size={32} />}
        </div>
        <p className="mb-2 inline-flex items-center gap-1.5 text-xs font-semibold tracking-wide text-slate-600 uppercase">
          <MailIcon size={14} />
          Email verification
        </p>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{look.title}</h1>
        <p role={status === 'error' ? 'alert' : 'status'} className="mt-3 text-slate-600">
          {message}
        </p>
        <div className="mt-8 space-y-3">
          {action}
          {status !== 'loading' && (
            <Link
              to="/"
              className={buttonClasses({
                variant: status === 'success' ? 'ghost' : 'primary',
                className: 'w-full',
              })}
            >
              Go to the home page
            </Link>
          )}
        </div>
      </Card>
    </div>
  );
}
