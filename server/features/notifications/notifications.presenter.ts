import type { Notification, NotificationKind } from '../../../contract/notifications';
import type { NotificationView } from './notifications.repository';

export function presentNotification(view: NotificationView): Notification {
  const { notification } = view;
  return {
    id: notification.id,
    kind: notification.kind as NotificationKind,
    dealId: notification.dealId,
    actor: view.actorUsername ? { username: view.actorUsername, full_name: view.actorFullName ?? '' } : null,
    message: notification.message,
    count: notification.repeats,
    createdAt: notification.createdAt.toISOString(),
    readAt: notification.readAt?.toISOString() ?? null,
  };
}
