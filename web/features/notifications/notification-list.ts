import type { Notification, NotificationList } from '../../../contract/notifications';

/** The notification list's logic, free of React: pages marked read, the bell's count. */

type Pages = { pages: NotificationList[]; pageParams: Array<number | undefined> };

/** The pages with some notifications (or all) read from `readAt` on; those read already keep their time. */
export function markReadInPages<P extends Pages>(
  pages: P | undefined,
  which: number[] | 'all',
  readAt: string,
): P | undefined {
  if (!pages) return pages;
  const ids = which === 'all' ? null : new Set(which);
  const read = (notification: Notification) =>
    notification.readAt === null && (ids === null || ids.has(notification.id))
      ? { ...notification, readAt }
      : notification;
  return {
    ...pages,
    pages: pages.pages.map((page) => ({ ...page, notifications: page.notifications.map(read) })),
  };
}

/** The count on the bell: nothing at 0, at most "99+". */
export const bellCountText = (count: number) => (count <= 0 ? '' : count > 99 ? '99+' : String(count));

/** The bell's accessible name, with the count. */
export const bellLabel = (count: number) => (count > 0 ? `Notifications, ${count} unread` : 'Notifications');

/** Where opening a notification leads: its deal, or for a sign-in from a new device, the sessions list. */
export function notificationTarget(notification: Pick<Notification, 'kind' | 'dealId'>): string | null {
  if (notification.kind === 'new-sign-in') return '/profile#security';
  return notification.dealId !== null ? `/deals/${notification.dealId}` : null;
}

/** An entry that stands for several notifications of one kind on one deal: "3 times". */
export const repeatsText = (count: number) => `${count} times`;
