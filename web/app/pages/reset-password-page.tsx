import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router';
import { resetPasswordSchema } from '../../../contract/auth';
import { limits } from '../../../contract/limits';
import { Alert } from '../../components/ui/alert';
import { Button, buttonClasses } from '../../components/ui/button';
import { TextField } from '../../components/ui/input';
import { useAuth, useAuthDialog, useResetPassword } from '../../features/auth';
import { errorMessage } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { sameUser } from '../../lib/same-user';
import { AuthPageFrame } from './auth-page-frame';

const successMessage = 'Password has been changed successfully! Please log in.';

/** Opened from the link in the reset mail: /api/auth/reset_password/{username}/{token}. */
export function ResetPasswordPage() {
  const { username = '', token = '' } = useParams();
  const reset = useResetPassword();
  const { isAuthenticated, user, signOut } = useAuth();
  const { openAuthDialog } = useAuthDialog();
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [mismatch, setMismatch] = useState(false);
  // What the contract's schema refused at the last submit.
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const differs = newPassword !== confirmPassword;
    const checked = checkWith(resetPasswordSchema, { newPassword });
    setMismatch(differs);
    setProblem(differs || checked.ok ? null : checked.problem);
    if (differs || !checked.ok) return;
    reset.mutate(
      { username, token, newPassword },
      {
        onSuccess: () => {
          // A reset revokes the account's tokens: if it is ours, we are signed out already.
          if (user && sameUser(user.username, username)) signOut('ended');
        },
      },
    );
  };

  if (reset.isSuccess) {
    return (
      <AuthPageFrame title="Reset your password">
        <div className="space-y-6">
          <Alert variant="success">{successMessage}</Alert>
          {isAuthenticated ? (
            <Link to="/" className={buttonClasses({ className: 'w-full' })}>
              Go to the home page
            </Link>
          ) : (
            <Button className="w-full" onClick={() => openAuthDialog('login')}>
              Sign In
            </Button>
          )}
        </div>
      </AuthPageFrame>
    );
  }

  return (
    <AuthPageFrame
      title="Reset your password"
      subtitle={
        <>
          Choose a new password for <span className="font-semibold text-slate-700">{username}</span>.
        </>
      }
    >
      <form onSubmit={submit} className="space-y-4">
        {mismatch && <Alert variant="error">Passwords do not match.</Alert>}
        {reset.isError && (
          <Alert variant="error">
            {errorMessage(reset.error, 'Failed to reset password. Please try again.')}
          </Alert>
        )}
        <TextField
          label="New Password"
          hint={`At least ${limits.password.min} characters.`}
          error={problem ?? undefined}
          type="password"
          name="newPassword"
          autoComplete="new-password"
          required
          value={newPassword}
          onChange={(event) => setNewPassword(event.target.value)}
        />
        <TextField
          label="Confirm Password"
          type="password"
          name="confirmPassword"
          autoComplete="new-password"
          required
          value={confirmPassword}
          onChange={(event) => setConfirmPassword(event.target.value)}
        />
        <Button type="submit" size="lg" className="w-full" loading={reset.isPending}>
          {reset.isPending ? 'Resetting...' : 'Reset Password'}
        </Button>
      </form>
    </AuthPageFrame>
  );
}
