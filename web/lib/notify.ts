import { toast } from 'sonner';

/** Toasts (the Toaster in app/providers.tsx sits bottom right): 3 seconds, green or red (spec §9). */
const toastDurationMs = 3000;

export function notifySuccess(message: string) {
  toast.success(message, { duration: toastDurationMs });
}

/** A red toast; `detail` (e.g. the server's reason) goes on a second line. */
export function notifyError(message: string, detail?: string) {
  toast.error(message, {
    duration: toastDurationMs,
    description: detail && detail !== message ? detail : undefined,
  });
}
