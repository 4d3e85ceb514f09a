import { and, count, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { type Alongside, executeNamed } from '../../db/prepared';
import { type NotificationRow, notificationEmailSettings, notifications, users } from '../../db/schema';

export type NewNotification = {
  userId: number;
  kind: string;
  dealId: number | null;
  actorId: number | null;
  message: string;
};

/**
 * `insert`: the rows, then each recipient's unread count. The statement's snapshot sees what this
 * transaction wrote before it but not the rows it inserts itself, hence the second count. `alongside`
 * is another change's data-modifying CTE, whose parameters come first.
 */
const insertSql = (alongside?: Alongside) => {
  const p = (alongside?.values.length ?? 0) + 1;
  return `
  with ${alongside ? `${alongside.cte}, ` : ''}inserted as (
    insert into notifications (user_id, kind, deal_id, actor_id, message)
    select * from unnest($${p}::int[], $${p + 1}::text[], $${p + 2}::int[], $${p + 3}::int[], $${p + 4}::text[])
    returning id, user_id, kind, deal_id, actor_id, message, created_at
  )
  select inserted.*,
         (select count(*) from notifications earlier
           where earlier.user_id = inserted.user_id and earlier.read_at is null)::int
         + (select count(*) from inserted mine where mine.user_id = inserted.user_id)::int as unread_count
    from inserted
   order by inserted.id`;
};
const plainInsertSql = insertSql();
/** The combined statements' text, built once per statement name (the text is the same on every call). */
const combinedInsertSql = new Map<string, string>();
const insertSqlWith = (alongside: Alongside) => {
  let text = combinedInsertSql.get(alongside.statement);
  if (text === undefined) {
    text = insertSql(alongside);
    combinedInsertSql.set(alongside.statement, text);
  }
  return text;
};

type StoredRow = {
  id: string | number;
  user_id: number;
  kind: string;
  deal_id: number | null;
  actor_id: number | null;
  message: string;
  created_at: Date | string;
  unread_count: number;
};

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
    alongside?: Alongside,
  ): Promise<Array<NotificationRow & { unreadCount: number }>> {
    if (rows.length === 0 && !alongside) return [];
    const values = [
      rows.map((row) => row.userId),
      rows.map((row) => row.kind),
      rows.map((row) => row.dealId),
      rows.map((row) => row.actorId),
      rows.map((row) => row.message),
    ];
    const stored = alongside
      ? await executeNamed<StoredRow>(db, alongside.statement, insertSqlWith(alongside), [
          ...alongside.values,
          ...values,
        ])
      : await executeNamed<StoredRow>(db, 'notifications_insert', plainInsertSql, values);
    return stored.map((row) => ({
      id: Number(row.id),
      userId: row.user_id,
      kind: row.kind,
      dealId: row.deal_id,
      actorId: row.actor_id,
      message: row.message,
      createdAt: new Date(row.created_at),
      readAt: null,
      unreadCount: row.unread_count,
    }));
  },

  /** The unread count of each of these users. */
  async unreadCounts(db: DbOrTx, userIds: number[]): Promise<Map<number, number>> {
    if (userIds.length === 0) return new Map();
    const rows = await executeNamed<{ userId: number; count: number }>(
      db,
      'notifications_unread_counts',
      'select user_id as "userId", count(*)::int as count from notifications where user_id = any($1::int[]) and read_at is null group by user_id',
      [userIds],
    );
    return new Map(rows.map((row) => [row.userId, Number(row.count)]));
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
    const [recipient] = await executeNamed<{ email: string; fullName: string }>(
      db,
      'notification_mail_claim',
      `with claimed as (
         insert into notification_emails_sent (user_id, kind, deal_key, sent_at)
         select $1::int, $2::text, $3::int, now()
          where not exists (select from notification_email_settings off
                             where off.user_id = $1::int and off.kind = $2::text and not off.enabled)
         on conflict (user_id, kind, deal_key) do update set sent_at = now()
          where notification_emails_sent.sent_at <= now() - interval '1 hour'
         returning user_id
       )
       select users.email, users.full_name as "fullName" from claimed join users on users.id = claimed.user_id`,
      [userId, kind, dealId ?? 0],
    );
    return recipient;
  },
};

export type NotificationView = Awaited<ReturnType<typeof notificationsRepository.list>>[number];
