/**
 * "Reconnecting…" while the live connection has been down for a few seconds: a small pill just under the
 * navigation bar that covers neither the navigation nor the chat's input, and lets clicks through. The
 * polite live region around it is always there (empty, taking no room), so screen readers announce the
 * notice when it appears.
 */
export function ReconnectingNotice({ offline }: { offline: boolean }) {
  return (
    <div aria-live="polite">
      {offline && (
        <p
          role="status"
          aria-live="polite"
          className="pointer-events-none fixed top-[4.5rem] left-1/2 z-[60] max-w-[calc(100vw-2rem)] -translate-x-1/2 truncate rounded-full bg-slate-800 px-3 py-1.5 text-sm font-medium text-white shadow-md"
        >
          Reconnecting…
        </p>
      )}
    </div>
  );
}
