import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, Suspense } from 'react';
import { AuthDialogProvider, AuthProvider, StepUpDialog } from '../features/auth';
import { RealtimeProvider, type RealtimeProviderProps } from '../features/realtime';
import { ApiError } from '../lib/api';
import { lazyAfterFirstPage } from '../lib/first-page-shown';

// Toasts follow an action or a live event, never the first paint: their library downloads once the first
// page is shown (a toast raised before that appears once it is in).
const Toaster = lazyAfterFirstPage(() => import('sonner').then((module) => ({ default: module.Toaster })));

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A refusal (4xx) will not change on retry; a network blip or a 5xx might.
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status < 500) && failureCount < 2,
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
}

/**
 * Everything the screens rely on: server-state cache, who is signed in, the auth dialog, toasts, and the
 * "confirm it is you" question any money or account change may need.
 */
export function AppProviders({
  queryClient,
  children,
  connectRealtime,
}: {
  queryClient: QueryClient;
  children: ReactNode;
  /** How the realtime socket is opened; null for none (unit tests). */
  connectRealtime?: RealtimeProviderProps['connect'];
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <RealtimeProvider connect={connectRealtime}>
          <AuthDialogProvider>
            {children}
            <StepUpDialog />
            <Suspense fallback={null}>
              <Toaster position="bottom-right" richColors closeButton />
            </Suspense>
          </AuthDialogProvider>
        </RealtimeProvider>
      </AuthProvider>
    </QueryClientProvider>
  );
}
