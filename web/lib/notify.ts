/** Toasts (the Toaster in app/providers.tsx sits bottom right): 3 seconds, green or red (spec §9). */
const toastDurationMs = 3000;

// The toasts' library comes with the first toast (or with the Toaster, once the first page is shown), not
// with every screen that may raise one.
const loadToast = () => import('sonner').then((module) => module.toast);

export function notifySuccess(message: string) {
  void loadToast().then((toast) => toast.success(message, { duration: toastDurationMs }));
}

/** A red toast; `detail` (e.g. the server's reason) goes on a second line. */
export function notifyError(message: string, detail?: string) {
  void loadToast().then((toast) =>
    toast.error(message, {
      duration: toastDurationMs,
      description: detail && detail !== message ? detail : undefined,
    }),
  );
}
