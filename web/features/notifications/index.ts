/** Notifications: the bell and its panel, the unread count, and which kinds are mailed. */

// The navigation bar's bell with the unread count; it opens the panel of notifications.
export { NotificationBell } from './notification-bell';
// My Profile's notification settings (anchor #notifications, where the mails link).
export { NotificationSettings } from './notification-settings';
// Where notifications live in the query cache, and what the realtime layer does with a new one.
export { notificationKeys, putNotificationInCache } from './notifications-api';
