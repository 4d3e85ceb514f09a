import './styles.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders, createQueryClient } from './app/providers';
import { createRoutes } from './app/router';

/** How long the app waits for its first page's code before showing its loading screen instead. */
const loadingScreenDelayMs = 400;

const queryClient = createQueryClient();
const router = createBrowserRouter(createRoutes(queryClient));

function renderApp() {
  const root = createRoot(document.getElementById('root')!);
  // As a transition, the first render yields to the browser every few milliseconds instead of holding a
  // phone's main thread for the whole page at once.
  startTransition(() =>
    root.render(
      <StrictMode>
        <AppProviders queryClient={queryClient}>
          <RouterProvider router={router} />
        </AppProviders>
      </StrictMode>,
    ),
  );
}

/**
 * The first page's code is usually a moment away: the app first renders once it is in, sparing a phone a
 * render and a paint of the loading screen (and the screen's flash) just before the page's own. A slow
 * network gets the loading screen after a moment.
 */
function renderWhenFirstPageIsIn() {
  if (router.state.initialized) return renderApp();
  let rendered = false;
  const renderOnce = () => {
    if (rendered) return;
    rendered = true;
    stopWaiting();
    clearTimeout(loadingScreenTimer);
    renderApp();
  };
  const stopWaiting = router.subscribe((state) => {
    if (state.initialized) renderOnce();
  });
  const loadingScreenTimer = setTimeout(renderOnce, loadingScreenDelayMs);
}

renderWhenFirstPageIsIn();
