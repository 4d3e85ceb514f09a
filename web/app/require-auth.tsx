import { Navigate, Outlet, useLocation } from 'react-router';
import { useAuth } from '../features/auth';

/** Where RequireAuth sends a signed-out visitor; the layout then opens the login dialog. */
export type AuthRequiredState = { authRequired: true; from: string };

/** Layout route around the signed-in pages: a signed-out visitor goes to / and is asked to sign in. */
export function RequireAuth() {
  const { isAuthenticated, signOutReason } = useAuth();
  const location = useLocation();
  // Someone who just logged out is simply taken home.
  if (!isAuthenticated && signOutReason === 'logout') return <Navigate to="/" replace />;
  if (!isAuthenticated) {
    const state: AuthRequiredState = { authRequired: true, from: `${location.pathname}${location.search}` };
    return <Navigate to="/" replace state={state} />;
  }
  return <Outlet />;
}
