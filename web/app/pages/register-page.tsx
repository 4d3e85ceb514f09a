import { Link, Navigate, useNavigate } from 'react-router';
import { RegisterForm, useAuth } from '../../features/auth';
import { AuthPageFrame } from './auth-page-frame';
import type { LoginPageState } from './login-page';

export function RegisterPage() {
  const { isAuthenticated } = useAuth();
  const navigate = useNavigate();

  if (isAuthenticated) return <Navigate to="/" replace />;

  return (
    <AuthPageFrame
      title="Create your account"
      subtitle="Join Dealmaker to create deals, bid as a dealmaker and more."
      footer={
        <>
          Already have an account?{' '}
          <Link to="/login" className="font-medium text-indigo-600 hover:text-indigo-700">
            Sign in
          </Link>
        </>
      }
    >
      <RegisterForm
        onSuccess={(message, username) => {
          const state: LoginPageState = { notice: message, username };
          navigate('/login', { state });
        }}
      />
    </AuthPageFrame>
  );
}
