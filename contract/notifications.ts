import { z } from 'zod';
import { decimalId } from './fields';
import { limits } from './limits';

/**
 * What a stored notification is about: a closed set (DESIGN.md §5 and the
 * issue that added notifications). A notification goes to the users an event
 * concerns, never to the one who caused it, never to an outsider.
 */
export const notificationKinds = [
  'deal-joined',
  'deal-left',
  'deal-edited',
  'join-requested',
  'join-accepted',
  'join-declined',
  'counterpart-removed',
  'deal-deleted',
  'bid-created',
  'bid-selected',
  'selection-changed',
  'deal-finalized',
  'deal-closed',
  'request-received',
  'request-accepted',
  'request-rejected',
  'request-canceled',
  'escrow-paid',
  'escrow-locked',
  'milestone-funded',
  'plan-proposed',
  'plan-agreed',
  'plan-withdrawn',
  'milestone-submitted',
  'milestone-approved',
  'milestone-released',
  'escrow-refunded',
  'escrow-expired',
  'deal-marked-finished',
  'escrow-released',
  'payment-received',
  'progress-added',
  'progress-moved',
  'progress-completed',
  'dispute-raised',
  'dispute-resolved',
  'dispute-escalated',
  'settlement-proposed',
  'settlement-accepted',
  'settlement-withdrawn',
  'deal-settled',
  'review-received',
  'message',
  /** A new deal (or one changed to fit) matches a saved search with alerts on. */
  'saved-search-match',
  /** A sign-in from a device the account had not used (also mailed, whatever the settings: it is about security). */
  'new-sign-in',
] as const;
export type NotificationKind = (typeof notificationKinds)[number];

/** The kinds that need action or carry money: they are also mailed to a user who is not connected. */
export const emailedNotificationKinds = [
  'request-received',
  'join-requested',
  'escrow-paid',
  'escrow-locked',
  'escrow-expired',
  'dispute-raised',
  'payment-received',
  'escrow-released',
  'deal-settled',
] as const satisfies readonly NotificationKind[];
export type EmailedNotificationKind = (typeof emailedNotificationKinds)[number];

/** What each mailed kind is called in the notification settings. */
export const emailedKindLabels: Record<EmailedNotificationKind, string> = {
  'request-received': 'A dealer asks you to be their dealmaker',
  'join-requested': 'Someone asks to join your deal',
  'escrow-paid': 'The other dealer paid their half: yours is awaited',
  'escrow-locked': 'Both halves are paid and the escrow is locked',
  'escrow-expired': 'A lone half-payment expired and was refunded',
  'dispute-raised': 'A dispute is raised on your deal',
  'payment-received': 'You were paid for a deal',
  'escrow-released': 'Your deal is completed',
  'deal-settled': 'A dispute was settled with money',
};

export const notificationSchema = z.object({
  id: z.number().int(),
  kind: z.enum(notificationKinds),
  dealId: z.number().int().nullable(),
  actor: z.object({ username: z.string(), full_name: z.string() }).nullable(),
  message: z.string(),
  /**
   * How many times it happened: repeats of one kind on one deal within an hour, while unread, are one
   * entry (its message the latest); a 'notification' event with the id of an entry already shown
   * replaces it.
   */
  count: z.number().int(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** GET /api/notifications */
export const notificationListSchema = z.object({
  notifications: z.array(notificationSchema),
  unreadCount: z.number().int(),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

export const notificationListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(limits.page.maxLimit).default(limits.page.defaultLimit),
  before: decimalId(Number.MAX_SAFE_INTEGER).optional(),
});

/** POST /api/notifications/read: some notifications, or all of them. */
export const markNotificationsReadSchema = z.union(
  [
    z
      .object({ ids: z.array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).min(1).max(500) })
      .strict(),
    z.object({ all: z.literal(true) }).strict(),
  ],
  { error: 'Send { ids: [...] } or { all: true }' },
);
export const unreadCountSchema = z.object({ unreadCount: z.number().int() });

/** GET/PUT /api/notifications/preferences: which kinds are mailed (all of them unless turned off). */
export const notificationPreferencesSchema = z.object({
  email: z.object(
    Object.fromEntries(emailedNotificationKinds.map((kind) => [kind, z.boolean()])) as Record<
      EmailedNotificationKind,
      z.ZodBoolean
    >,
  ),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;
export const notificationPreferencesChangeSchema = z.object({
  email: notificationPreferencesSchema.shape.email.partial().strict(),
});

/** The `notification` realtime event: the stored notification and the user's new unread count. */
export type NotificationEvent = {
  id: number;
  kind: NotificationKind;
  dealId: number | null;
  message: string;
  /** Its count of repeats: an event with the id of an entry already shown replaces that entry. */
  count: number;
  createdAt: string;
  unreadCount: number;
};
