import type { RouteObject } from 'react-router';
import { AppLayout } from './layout';
import { AboutPage } from './pages/about-page';
import { DealDetailPage } from './pages/deal-detail-page';
import { DealmakerPanelPage } from './pages/dealmaker-panel-page';
import { DealsPage } from './pages/deals-page';
import { LandingPage } from './pages/landing-page';
import { LoginPage } from './pages/login-page';
import { NotFoundPage } from './pages/not-found-page';
import { ProfilePage } from './pages/profile-page';
import { RegisterPage } from './pages/register-page';
import { ResetPasswordPage } from './pages/reset-password-page';
import { RouteErrorPage } from './pages/route-error-page';
import { UserProfilePage } from './pages/user-profile-page';
import { UsersPage } from './pages/users-page';
import { VerifyEmailPage } from './pages/verify-email-page';
import { WalletPage } from './pages/wallet-page';
import { RequireAuth } from './require-auth';

/*
 * The route table (spec §2 Routes). A new screen is one entry in one of the two lists below:
 * `publicRoutes` for pages anyone may open, `signedInRoutes` for pages that need a signed-in user
 * (a signed-out visitor is sent to / and asked to sign in). Every other path shows the 404 page.
 */

/** Pages anyone may open. */
export const publicRoutes: RouteObject[] = [
  { index: true, element: <LandingPage /> },
  { path: 'about', element: <AboutPage /> },
  { path: 'login', element: <LoginPage /> },
  { path: 'register', element: <RegisterPage /> },
  // The mailed links point at these /api paths; the server answers a browser with this app.
  { path: 'api/auth/register', element: <VerifyEmailPage /> },
  { path: 'api/auth/register/:key', element: <VerifyEmailPage /> },
  { path: 'api/auth/reset_password/:username/:token', element: <ResetPasswordPage /> },
];

/** Pages for signed-in users only. */
export const signedInRoutes: RouteObject[] = [
  { path: 'profile', element: <ProfilePage /> },
  { path: 'users', element: <UsersPage /> },
  { path: 'users/:username', element: <UserProfilePage /> },
  { path: 'deals', element: <DealsPage /> },
  { path: 'deals/:dealId', element: <DealDetailPage /> },
  { path: 'dealmaker-panel', element: <DealmakerPanelPage /> },
  { path: 'deposit', element: <WalletPage /> },
];

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      ...publicRoutes,
      { element: <RequireAuth />, children: signedInRoutes },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
