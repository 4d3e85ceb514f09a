import { Link, useParams } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { buttonClasses } from '../../components/ui/button';
import { LoadingState } from '../../components/ui/spinner';
import { useAuth } from '../../features/auth';
import { useConfirmEmailChange } from '../../features/security';
import { errorMessage } from '../../lib/api';
import { AuthPageFrame } from './auth-page-frame';

/** Opened from the link mailed to a new email address: /confirm-email/{token}. */
export function ConfirmEmailPage() {
  const { token } = useParams();
  const confirmation = useConfirmEmailChange(token);
  const { isAuthenticated } = useAuth();

  return (
    <AuthPageFrame title="Confirm your new email">
      {confirmation.isPending ? (
        <LoadingState label="Confirming your new email..." className="py-6" />
      ) : (
        <div className="space-y-6">
          {confirmation.isError ? (
            <Alert variant="error">
              {errorMessage(confirmation.error, 'This link is invalid or has expired.')}
            </Alert>
          ) : (
            <Alert variant="success">{confirmation.data?.message || 'Your email address is changed.'}</Alert>
          )}
          <Link to={isAuthenticated ? '/profile' : '/'} className={buttonClasses({ className: 'w-full' })}>
            {isAuthenticated ? 'Go to My Profile' : 'Go to the home page'}
          </Link>
        </div>
      )}
    </AuthPageFrame>
  );
}
