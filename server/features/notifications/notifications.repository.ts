import { and, count, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  type Alongside,
  alongside,
  defineStatement,
  defineStatementPart,
  executeNamed,
  type PartRow,
} from '../../db/prepared';
import { type NotificationRow, notificationEmailSettings, notifications, users } from '../../db/schema';

export type NewNotification = {
  userId: number;
  kind: string;
  dealId: number | null;
  actorId: number | null;
  message: string;
};

/**
 * `insert`'s statement: the rows, then each recipient's unread count. A row of the same kind on the same
 * deal as one of the recipient's notifications that is unread and less than an hour old is added to that
 * one instead (its `repeats` counts up and its message becomes the latest): a run of progress moves is
 * one entry, not thirty (chat has its own bursts, and a new sign-in always stands alone). The
 * statement's snapshot sees what this transaction wrote before it but not the rows it inserts itself,
 * hence the second count. It carries the change the notifications tell of when that comes as a part
 * (the timeline's entry: timeline.repository `entryAlongside`).
 */
const insertNotifications = defineStatement({
  name: 'notifications_insert',
  params: { userIds: 'int4[]', kinds: 'text[]', dealIds: 'int4?[]', actorIds: 'int4?[]', messages: 'text[]' },
  alone: true,
  text: (part) => `
  with ${part ? `${part.ctes}, ` : ''}incoming as (
    select * from unnest($userIds::int[], $kinds::text[], $dealIds::int[], $actorIds::int[], $messages::text[])
      as incoming(user_id, kind, deal_id, actor_id, message)
  ), grouped as (
    update notifications repeated
       set repeats = repeated.repeats + 1, message = incoming.message, actor_id = incoming.actor_id
      from incoming
     where incoming.kind not in ('message', 'new-sign-in')
       and repeated.id = (select max(latest.id) from notifications latest
                           where latest.user_id = incoming.user_id and latest.kind = incoming.kind
                             and latest.deal_id = incoming.deal_id and latest.read_at is null
                             and latest.created_at > now() - interval '1 hour')
    returning repeated.id, repeated.user_id, repeated.kind, repeated.deal_id, repeated.actor_id,
              repeated.message, repeated.repeats, repeated.created_at
  ), inserted as (
    insert into notifications (user_id, kind, deal_id, actor_id, message)
    select incoming.user_id, incoming.kind, incoming.deal_id, incoming.actor_id, incoming.message
      from incoming
     where not exists (select 1 from grouped
                        where grouped.user_id = incoming.user_id and grouped.kind = incoming.kind
                          and grouped.deal_id = incoming.deal_id)
    returning id, user_id, kind, deal_id, actor_id, message, repeats, created_at
  ), stored as (
    select * from inserted union all select * from grouped
  )
  select stored.id, stored.user_id as "userId", stored.kind, stored.deal_id as "dealId",
         stored.actor_id as "actorId", stored.message, stored.repeats, stored.created_at as "createdAt",
         (select count(*) from notifications earlier
           where earlier.user_id = stored.user_id and earlier.read_at is null)::int
         + (select count(*) from inserted mine where mine.user_id = stored.user_id)::int as "unreadCount"
    from stored
   order by stored.id`,
  columns: {
    id: 'int8',
    userId: 'int4',
    kind: 'text',
    dealId: 'int4?',
    actorId: 'int4?',
    message: 'text',
    repeats: 'int4',
    createdAt: 'timestamptz',
    unreadCount: 'int4',
  },
});

/**
 * The chat notifications of a sender's messages, carried by the statement that stores them
 * (messages.repository `send`), written only when it stored at least one (its `inserted` CTE has rows),
 * one per recipient however many. A chat notification is kept per (recipient, deal, sender) burst:
 * while the recipient has not read it, later messages add nothing (it tells of the first unread
 * message). An unread one is looked up first (cheaper than a conflicting insert), and the conflict, two
 * first messages at once, does nothing rather than refresh the row: an update would lock it until the
 * commit, and a sender's messages would wait on each other. A new notification's unread count is the
 * count in the statement's snapshot, which cannot see the row just inserted, plus that row.
 *
 * That count is in RETURNING, which the planner does not charge: as a subquery per row it was costed
 * for unnest's default guess of 10 recipients in the generic plan (the real 2 in a custom one), and
 * with PostgreSQL's default page cost the whole send statement was planned again for every message
 * (messages.test.ts checks that it keeps its generic plan).
 */
const chatBurst = defineStatementPart({
  name: 'chat_burst',
  host: 'message_send',
  params: { recipients: 'int4[]', dealId: 'int4', actorId: 'int4', message: 'text' },
  text: `
  chat_burst as (
    insert into notifications as burst (user_id, kind, deal_id, actor_id, message)
    select recipient.user_id, 'message', $dealId::int, $actorId::int, $message::text
      from unnest($recipients::int[]) as recipient(user_id)
     where exists (select from inserted)
       and not exists (select 1 from notifications unread_chat
                        where unread_chat.user_id = recipient.user_id and unread_chat.deal_id = $dealId::int
                          and unread_chat.actor_id = $actorId::int and unread_chat.kind = 'message'
                          and unread_chat.read_at is null)
    on conflict (user_id, deal_id, actor_id) where kind = 'message' and read_at is null do nothing
    returning burst.id, burst.user_id as "userId", burst.message, burst.created_at as "createdAt",
              1 + (select count(*) from notifications unread
                    where unread.user_id = burst.user_id and unread.read_at is null)::int as "unreadCount"
  )`,
  columns: { id: 'int8', userId: 'int4', message: 'text', createdAt: 'timestamptz', unreadCount: 'int4' },
});

/** A chat notification the message's statement stored (the first of a burst), with its recipient's unread count. */
export type StoredChatNotice = PartRow<typeof chatBurst>;

const unreadCounts = defineStatement({
  name: 'notifications_unread_counts',
  params: { userIds: 'int4[]' },
  text: 'select user_id as "userId", count(*)::int as count from notifications where user_id = any($userIds::int[]) and read_at is null group by user_id',
  columns: { userId: 'int4', count: 'int4' },
});

const claimHourlyMail = defineStatement({
  name: 'notification_mail_claim',
  params: { userId: 'int4', kind: 'text', dealKey: 'int4' },
  text: `
  with claimed as (
    insert into notification_emails_sent (user_id, kind, deal_key, sent_at)
    select $userId::int, $kind::text, $dealKey::int, now()
     where not exists (select from notification_email_settings off
                        where off.user_id = $userId::int and off.kind = $kind::text and not off.enabled)
    on conflict (user_id, kind, deal_key) do update set sent_at = now()
     where notification_emails_sent.sent_at <= now() - interval '1 hour'
    returning user_id
  )
  select users.email, users.full_name as "fullName" from claimed join users on users.id = claimed.user_id`,
  columns: { email: 'text', fullName: 'text' },
});

const notificationView = {
  notification: notifications,
  actorUsername: users.username,
  actorFullName: users.fullName,
};

export const notificationsRepository = {
  /**
   * Stores notifications and answers each with its recipient's unread count, in one statement, with
   * the change they tell of when it comes `alongside` (a chat message stores its own with itself:
   * messages.repository `send`).
   */
  async insert(
    db: DbOrTx,
    rows: NewNotification[],
    entry?: Alongside,
  ): Promise<Array<NotificationRow & { unreadCount: number }>> {
    if (rows.length === 0 && !entry) return [];
    const stored = await executeNamed(
      db,
      insertNotifications,
      {
        userIds: rows.map((row) => row.userId),
        kinds: rows.map((row) => row.kind),
        dealIds: rows.map((row) => row.dealId),
        actorIds: rows.map((row) => row.actorId),
        messages: rows.map((row) => row.message),
      },
      entry,
    );
    return stored.map((row) => ({ ...row, readAt: null }));
  },

  /** A chat message's notifications, for the statement that stores the message to carry. */
  chatBurst(burst: { dealId: number; actorId: number; recipients: number[]; message: string }) {
    return alongside(chatBurst, burst);
  },

  /** The unread count of each of these users. */
  async unreadCounts(db: DbOrTx, userIds: number[]): Promise<Map<number, number>> {
    if (userIds.length === 0) return new Map();
    const rows = await executeNamed(db, unreadCounts, { userIds });
    return new Map(rows.map((row) => [row.userId, row.count]));
  },

  /** A user's notifications, newest first. */
  list(db: DbOrTx, userId: number, options: { beforeId?: number; limit: number }) {
    return db
      .select(notificationView)
      .from(notifications)
      .leftJoin(users, eq(users.id, notifications.actorId))
      .where(
        and(
          eq(notifications.userId, userId),
          options.beforeId ? lt(notifications.id, options.beforeId) : undefined,
        ),
      )
      .orderBy(desc(notifications.id))
      .limit(options.limit);
  },

  /** How many of these notifications are the user's (to refuse the others). */
  async countOwned(db: DbOrTx, userId: number, ids: number[]): Promise<number> {
    const [row] = await db
      .select({ owned: count() })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), inArray(notifications.id, ids)));
    return row?.owned ?? 0;
  },

  async markRead(db: DbOrTx, userId: number, ids: number[] | 'all') {
    await db
      .update(notifications)
      .set({ readAt: sql`now()` })
      .where(
        and(
          eq(notifications.userId, userId),
          isNull(notifications.readAt),
          ids === 'all' ? undefined : inArray(notifications.id, ids),
        ),
      );
  },

  /** Reading a deal's chat reads its chat notifications too. */
  async markChatRead(db: DbOrTx, userId: number, dealId: number) {
    await db
      .update(notifications)
      .set({ readAt: sql`now()` })
      .where(
        and(
          eq(notifications.userId, userId),
          eq(notifications.dealId, dealId),
          eq(notifications.kind, 'message'),
          isNull(notifications.readAt),
        ),
      );
  },

  async emailSettings(db: DbOrTx, userId: number) {
    return db
      .select({ kind: notificationEmailSettings.kind, enabled: notificationEmailSettings.enabled })
      .from(notificationEmailSettings)
      .where(eq(notificationEmailSettings.userId, userId));
  },

  async setEmailSettings(db: DbOrTx, userId: number, settings: Array<{ kind: string; enabled: boolean }>) {
    if (settings.length === 0) return;
    await db
      .insert(notificationEmailSettings)
      .values(settings.map((setting) => ({ userId, ...setting })))
      .onConflictDoUpdate({
        target: [notificationEmailSettings.userId, notificationEmailSettings.kind],
        set: { enabled: sql`excluded.enabled` },
      });
  },

  /**
   * Records a mail about (user, kind, deal) unless one went out within the hour or the user turned
   * that kind's mails off, and answers where to send it when this call may: one statement (two
   * instances cannot both be answered).
   */
  async claimHourlyMail(
    db: DbOrTx,
    userId: number,
    kind: string,
    dealId: number | null,
  ): Promise<{ email: string; fullName: string } | undefined> {
    const [recipient] = await executeNamed(db, claimHourlyMail, { userId, kind, dealKey: dealId ?? 0 });
    return recipient;
  },
};

export type NotificationView = Awaited<ReturnType<typeof notificationsRepository.list>>[number];
