import { lazy, Suspense, useState } from 'react';
import { BellIcon } from '../../components/ui/icons';
import { bellCountText, bellLabel } from './notification-list';
import { useUnreadNotificationCount } from './notifications-api';

// The panel's code loads with the first click on the bell, not with every page.
const NotificationPanel = lazy(() =>
  import('./notification-panel').then((module) => ({ default: module.NotificationPanel })),
);

/**
 * The navigation bar's bell (signed-in users): the unread count, kept live by the realtime layer,
 * and the panel of notifications it opens. Closing the panel brings focus back here.
 */
export function NotificationBell() {
  const count = useUnreadNotificationCount(true).data ?? 0;
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  const text = bellCountText(count);

  return (
    <>
      <button
        type="button"
        aria-label={bellLabel(count)}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
        className="relative inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500"
      >
        <BellIcon size={22} />
        {text && (
          <span
            aria-hidden="true"
            data-bell-count
            className="absolute top-0.5 right-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-rose-600 px-1 text-[11px] leading-none font-semibold text-white"
          >
            {text}
          </span>
        )}
      </button>
      {opened && (
        <Suspense fallback={null}>
          <NotificationPanel open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  );
}
