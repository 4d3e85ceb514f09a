import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigate } from 'react-router';
import { LogoIcon } from '../components/ui/icons';
import { AuthDialog, useAuth, useAuthDialog } from '../features/auth';
import { markFirstPageShown } from '../lib/first-page-shown';
import { NavBar } from './nav-bar';
import type { AuthRequiredState } from './require-auth';

/** The frame of every page: navigation bar, the page, footer, and the auth dialog. */
export function AppLayout() {
  useSignInWhenRequired();
  useFirstPageShown();
  return (
    <div className="flex min-h-dvh flex-col">
      <NavBar />
      {/* At least the window's height below the bar: the footer starts below the fold, so a page that
          grows once its data arrives does not push a visible footer down (a layout shift). */}
      <main id="main" className="flex min-h-[calc(100dvh-4rem)] flex-1 flex-col">
        <Outlet />
      </main>
      <Footer />
      <AuthDialog />
      <ScrollRestoration />
    </div>
  );
}

/** How long what waits for the first page waits at most for its data. */
const firstPageDataWaitMs = 3000;

/**
 * Tells what waits for the first page (lib/first-page-shown.ts) that it is shown: the layout renders once
 * the page's code is in, and the page is shown once its data has come (no query loading any more), or
 * after a few seconds of loading. Runs after the page's own effects, which have started its queries.
 */
function useFirstPageShown() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const queries = queryClient.getQueryCache();
    let stopWatching = () => {};
    const markWhenLoaded = () => {
      if (queryClient.isFetching() > 0) return;
      stopWatching();
      markFirstPageShown();
    };
    stopWatching = queries.subscribe(markWhenLoaded);
    markWhenLoaded();
    const timer = setTimeout(markFirstPageShown, firstPageDataWaitMs);
    return () => {
      stopWatching();
      clearTimeout(timer);
    };
  }, [queryClient]);
}

/** After RequireAuth sent a signed-out visitor home, ask them to sign in and then take them back. */
function useSignInWhenRequired() {
  const location = useLocation();
  const navigate = useNavigate();
  const { isAuthenticated } = useAuth();
  const { openAuthDialog } = useAuthDialog();
  const state = location.state as Partial<AuthRequiredState> | null;

  useEffect(() => {
    if (!state?.authRequired) return;
    if (!isAuthenticated) openAuthDialog('login', { redirectTo: state.from });
    // Forget the request, so a reload or Back does not ask again.
    navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  }, [state, isAuthenticated, openAuthDialog, navigate, location.pathname, location.search]);
}

function Footer() {
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-4 px-4 py-8 text-sm text-slate-500 sm:flex-row sm:px-6 lg:px-8">
        <div className="flex items-center gap-2">
          <span className="flex h-7 w-7 items-center justify-center rounded-lg bg-indigo-600 text-white">
            <LogoIcon size={16} />
          </span>
          <span className="font-semibold text-slate-700">Dealmaker</span>
          <span aria-hidden="true">·</span>
          <span>Deals, dealmakers and escrow in one place.</span>
        </div>
        <p>© {new Date().getFullYear()} Dealmaker</p>
      </div>
    </footer>
  );
}
