import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { dealIdOfParam, dealQueryOptions } from '../features/deals';
import { savedSearchesQueryOptions } from '../features/discovery';
import { getStoredToken } from '../lib/auth-token';
import { validClaims } from '../lib/jwt';
import { prepareDateFormats } from '../lib/time';
import { AppLayout } from './layout';
import { PageLoading } from './page-loading';
import { LandingPage } from './pages/landing-page';
import { RouteErrorPage } from './pages/route-error-page';
import { RequireAuth } from './require-auth';

/*
 * The route table (spec §2 Routes). A new screen is one entry in one of the two lists below:
 * `publicRoutes` for pages anyone may open, `signedInRoutes` for pages that need a signed-in user
 * (a signed-out visitor is sent to / and asked to sign in). Every other path shows the 404 page.
 */

/*
 * Every page but the landing page is its own chunk, loaded when first visited: the landing page
 * downloads only what it shows (scripts/bundle-size.mjs holds the budgets).
 */
const verifyEmail = () => import('./pages/verify-email-page').then((m) => ({ Component: m.VerifyEmailPage }));

/** Pages anyone may open. */
export const publicRoutes: RouteObject[] = [
  { index: true, element: <LandingPage /> },
  { path: 'about', lazy: () => import('./pages/about-page').then((m) => ({ Component: m.AboutPage })) },
  { path: 'login', lazy: () => import('./pages/login-page').then((m) => ({ Component: m.LoginPage })) },
  {
    path: 'register',
    lazy: () => import('./pages/register-page').then((m) => ({ Component: m.RegisterPage })),
  },
  // The mailed links point at these /api paths; the server answers a browser with this app.
  { path: 'api/auth/register', lazy: verifyEmail },
  { path: 'api/auth/register/:key', lazy: verifyEmail },
  {
    path: 'api/auth/reset_password/:username/:token',
    lazy: () => import('./pages/reset-password-page').then((m) => ({ Component: m.ResetPasswordPage })),
  },
  // The link mailed to a new email address (signed in or not: it may be opened on another device).
  {
    path: 'confirm-email/:token',
    lazy: () => import('./pages/confirm-email-page').then((m) => ({ Component: m.ConfirmEmailPage })),
  },
];

/**
 * Prepares a deal page, signed in, from the app's first download: a route's loader runs beside its
 * `lazy`, so the deal comes while the page's code downloads, rather than once that code has loaded and
 * rendered, and the dates its header shows are ready to format. The page's query finds the deal loading or
 * loaded; the page shows its loading state meanwhile, as before (the loader does not wait).
 */
function prepareDealPage(queryClient: QueryClient, param: string | undefined) {
  const dealId = dealIdOfParam(param);
  if (Number.isInteger(dealId) && validClaims(getStoredToken())) {
    void queryClient.prefetchQuery(dealQueryOptions(dealId));
    prepareDateFormats();
  }
  return null;
}

/**
 * Prepares the Deals page, signed in: its saved searches come from the app's first download, and its list
 * as soon as the page's code is in, rather than both once the page has rendered (a route's loader runs
 * beside its `lazy`). The page's queries find them loading or loaded; the loader does not wait.
 */
function prepareDealsPage(queryClient: QueryClient, address: string) {
  if (!validClaims(getStoredToken())) return null;
  void queryClient.prefetchQuery(savedSearchesQueryOptions);
  import('./pages/deals-page')
    .then((page) => page.prefetchDealsList(queryClient, new URL(address).searchParams))
    .catch(() => {
      // The page's own query asks again, and shows what went wrong.
    });
  return null;
}

/** Pages for signed-in users only; `queryClient` for the loaders that start a page's data early. */
export const signedInRoutes = (queryClient: QueryClient): RouteObject[] => [
  { path: 'profile', lazy: () => import('./pages/profile-page').then((m) => ({ Component: m.ProfilePage })) },
  { path: 'users', lazy: () => import('./pages/users-page').then((m) => ({ Component: m.UsersPage })) },
  {
    path: 'users/:username',
    lazy: () => import('./pages/user-profile-page').then((m) => ({ Component: m.UserProfilePage })),
  },
  {
    path: 'deals',
    loader: ({ request }) => prepareDealsPage(queryClient, request.url),
    lazy: () => import('./pages/deals-page').then((m) => ({ Component: m.DealsPage })),
  },
  {
    path: 'deals/:dealId',
    loader: ({ params }) => prepareDealPage(queryClient, params.dealId),
    lazy: () => import('./pages/deal-detail-page').then((m) => ({ Component: m.DealDetailPage })),
  },
  { path: 'bids', lazy: () => import('./pages/my-bids-page').then((m) => ({ Component: m.MyBidsPage })) },
  {
    path: 'dealmaker-panel',
    lazy: () => import('./pages/dealmaker-panel-page').then((m) => ({ Component: m.DealmakerPanelPage })),
  },
  { path: 'deposit', lazy: () => import('./pages/wallet-page').then((m) => ({ Component: m.WalletPage })) },
  // Operators only: anyone else sees the 404 page there.
  {
    path: 'operator',
    lazy: () => import('./pages/operator-page').then((m) => ({ Component: m.OperatorPage })),
  },
];

export const createRoutes = (queryClient: QueryClient): RouteObject[] => [
  {
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    // Shown while the first page's chunk loads.
    hydrateFallbackElement: <PageLoading />,
    children: [
      ...publicRoutes,
      { element: <RequireAuth />, children: signedInRoutes(queryClient) },
      {
        path: '*',
        lazy: () => import('./pages/not-found-page').then((m) => ({ Component: m.NotFoundPage })),
      },
    ],
  },
];
