import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { LoginForm, useAuth } from '../../features/auth';
import { AuthPageFrame } from './auth-page-frame';

/** What the register page passes on after a successful registration. */
export type LoginPageState = { notice?: string; username?: string };

export function LoginPage() {
  const { isAuthenticated } = useAuth();
  const navigate = useNavigate();
  const state = (useLocation().state ?? {}) as LoginPageState;

  if (isAuthenticated) return <Navigate to="/" replace />;

  return (
    <AuthPageFrame
      title="Sign in to Dealmaker"
      subtitle="Welcome back! Enter your details to continue."
      footer={
        <>
          New to Dealmaker?{' '}
          <Link to="/register" className="font-medium text-indigo-600 hover:text-indigo-700">
            Create an account
          </Link>
        </>
      }
    >
      <LoginForm notice={state.notice} defaultUsername={state.username} onSuccess={() => navigate('/')} />
    </AuthPageFrame>
  );
}
