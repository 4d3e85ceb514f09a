import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, optionalTimestamp } from './columns';
import { deals } from './deals';
import { users } from './users';

/** What a user is told about (contract/notifications.ts), stored so it waits for them. */
export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** Null once the deal is deleted: the notification that it was deleted stays. */
    dealId: integer('deal_id').references(() => deals.id, { onDelete: 'set null' }),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    message: text('message').notNull(),
    /**
     * How many times it happened: a notification of the same kind on the same deal while this one is
     * unread and less than an hour old adds to it (and tells its latest message) rather than a new row.
     */
    repeats: integer('repeats').notNull().default(1),
    createdAt: createdAt(),
    readAt: optionalTimestamp('read_at'),
  },
  (t) => [
    index('notifications_user_id_id').on(t.userId, t.id.desc()),
    index('notifications_unread').on(t.userId).where(sql`${t.readAt} is null`),
    // One unread chat notification per (user, deal, sender): a burst of messages updates it.
    uniqueIndex('notifications_unread_chat_burst')
      .on(t.userId, t.dealId, t.actorId)
      .where(sql`${t.kind} = 'message' and ${t.readAt} is null`),
  ],
);

/** A mailed kind a user turned off (every mailed kind is on unless a row says otherwise). */
export const notificationEmailSettings = pgTable(
  'notification_email_settings',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    enabled: boolean('enabled').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);

/** When a user was last mailed about a kind on a deal: at most one such mail an hour. */
export const notificationEmailsSent = pgTable(
  'notification_emails_sent',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** 0 for a mail about no deal. */
    dealKey: integer('deal_key').notNull(),
    sentAt: optionalTimestamp('sent_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind, t.dealKey] })],
);

export type NotificationRow = typeof notifications.$inferSelect;
