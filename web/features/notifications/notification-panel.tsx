import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { Notification } from '../../../contract/notifications';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { EmptyState } from '../../components/ui/empty-state';
import { BellIcon } from '../../components/ui/icons';
import { LoadMore } from '../../components/ui/load-more';
import { LoadingState } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import { formatDateTime, formatRelativeTime } from '../../lib/time';
import { useNow } from '../../lib/use-now';
import { notificationTarget, repeatsText } from './notification-list';
import { markNotificationsRead, useNotificationList, useUnreadNotificationCount } from './notifications-api';

/**
 * The bell's panel: the viewer's notifications, newest first, the unread ones set apart (and said so
 * to screen readers); one opens its deal's page and is read; Mark all as read; Load more.
 */
export function NotificationPanel({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const list = useNotificationList();
  const unread = useUnreadNotificationCount(true).data ?? 0;
  const notifications = list.data?.pages.flatMap((page) => page.notifications) ?? [];
  const now = useNow(30_000);

  const markRead = (which: number[] | 'all') =>
    markNotificationsRead(queryClient, which).catch((error) => {
      console.error('Marking notifications read failed', error);
      void list.refetch();
    });

  const openNotification = (notification: Notification) => {
    if (notification.readAt === null) void markRead([notification.id]);
    onOpenChange(false);
    const target = notificationTarget(notification);
    if (target) navigate(target);
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Notifications" size="md">
      <div className="mb-3 flex items-center justify-between gap-3">
        <p className="text-sm text-slate-600" aria-live="polite">
          {unread > 0 ? `${unread} unread` : 'All read'}
        </p>
        <Button variant="outline" size="sm" disabled={unread === 0} onClick={() => void markRead('all')}>
          Mark all as read
        </Button>
      </div>
      {list.isPending ? (
        <LoadingState label="Loading notifications..." />
      ) : list.isError && notifications.length === 0 ? (
        <div className="space-y-3">
          <Alert variant="error">Failed to load notifications</Alert>
          <Button variant="outline" size="sm" onClick={() => void list.refetch()}>
            Try again
          </Button>
        </div>
      ) : notifications.length === 0 ? (
        <EmptyState
          icon={<BellIcon size={28} />}
          title="No notifications yet"
          description="What happens on your deals will show here."
          className="py-10"
        />
      ) : (
        <>
          <ul aria-label="Notifications list" className="-mx-2 space-y-1">
            {notifications.map((notification) => (
              <li key={notification.id}>
                <NotificationRow
                  notification={notification}
                  now={now}
                  onOpen={() => openNotification(notification)}
                />
              </li>
            ))}
          </ul>
          <LoadMore
            query={list}
            className="mt-4"
            errorText="Failed to load more notifications."
            errorClassName="mt-3"
          />
        </>
      )}
    </Dialog>
  );
}

function NotificationRow({
  notification,
  now,
  onOpen,
}: {
  notification: Notification;
  now: Date;
  onOpen: () => void;
}) {
  const unread = notification.readAt === null;
  return (
    <button
      type="button"
      onClick={onOpen}
      data-notification-id={notification.id}
      data-unread={unread || undefined}
      className={cn(
        'flex min-h-12 w-full items-start gap-3 rounded-lg px-3 py-2.5 text-left transition-colors hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500',
        unread ? 'bg-indigo-50/70' : 'bg-white',
      )}
    >
      <span
        aria-hidden="true"
        className={cn('mt-1.5 h-2 w-2 shrink-0 rounded-full', unread ? 'bg-indigo-600' : 'bg-transparent')}
      />
      <span className="min-w-0 flex-1">
        {unread && <span className="sr-only">Unread: </span>}
        <span
          className={cn(
            'block text-sm break-words',
            unread ? 'font-semibold text-slate-900' : 'text-slate-700',
          )}
        >
          {notification.message}
          {notification.count > 1 && (
            <span className="ml-1.5 inline-block rounded-full bg-slate-200 px-1.5 text-xs font-medium text-slate-700">
              {repeatsText(notification.count)}
            </span>
          )}
        </span>
        <time
          dateTime={notification.createdAt}
          title={formatDateTime(notification.createdAt)}
          className="mt-0.5 block text-xs text-slate-600"
        >
          {formatRelativeTime(notification.createdAt, now)}
        </time>
      </span>
    </button>
  );
}
