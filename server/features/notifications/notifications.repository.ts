import { and, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { executeNamed } from '../../db/prepared';
import { notificationEmailSettings, notificationEmailsSent, notifications, users } from '../../db/schema';

export type NewNotification = {
  userId: number;
  kind: string;
  dealId: number | null;
  actorId: number | null;
  message: string;
};

/**
 * Chat notifications, one per (recipient, deal, sender) burst: a message refreshes the recipient's
 * unread one instead of adding another. `fresh` (xmax = 0) only for a row this statement inserted:
 * an update of the burst's notification is not news.
 */
const chatBurstSql = `
  insert into notifications (user_id, kind, deal_id, actor_id, message)
  select user_id, 'message', deal_id, actor_id, message
    from unnest($1::int[], $2::int[], $3::int[], $4::text[]) as chat(user_id, deal_id, actor_id, message)
  on conflict (user_id, deal_id, actor_id) where kind = 'message' and read_at is null
  do update set message = excluded.message, created_at = now()
  returning id, user_id, kind, deal_id, actor_id, message, created_at, read_at, xmax = 0 as fresh`;

type ChatBurstRow = {
  id: string;
  user_id: number;
  kind: string;
  deal_id: number | null;
  actor_id: number | null;
  message: string;
  created_at: Date | string;
  read_at: Date | string | null;
  fresh: boolean;
};

const notificationView = {
  notification: notifications,
  actorUsername: users.username,
  actorFullName: users.fullName,
};

export const notificationsRepository = {
  /** Stores notifications; a chat message refreshes the recipient's unread one for that deal and sender. */
  async insert(db: DbOrTx, rows: NewNotification[]) {
    if (rows.length === 0) return [];
    const chat = rows.filter((row) => row.kind === 'message');
    const other = rows.filter((row) => row.kind !== 'message');
    const stored = other.length ? await db.insert(notifications).values(other).returning() : [];
    if (chat.length) {
      const bursts = await executeNamed<ChatBurstRow>(db, 'notifications_chat_burst', chatBurstSql, [
        chat.map((row) => row.userId),
        chat.map((row) => row.dealId),
        chat.map((row) => row.actorId),
        chat.map((row) => row.message),
      ]);
      for (const row of bursts) {
        if (!row.fresh) continue;
        stored.push({
          id: Number(row.id),
          userId: row.user_id,
          kind: row.kind,
          dealId: row.deal_id,
          actorId: row.actor_id,
          message: row.message,
          createdAt: new Date(row.created_at),
          readAt: row.read_at === null ? null : new Date(row.read_at),
        });
      }
    }
    return stored;
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

  /** The owners of these notifications (to refuse marking someone else's). */
  async ownersOf(db: DbOrTx, ids: number[]) {
    const rows = await db
      .selectDistinct({ userId: notifications.userId })
      .from(notifications)
      .where(inArray(notifications.id, ids));
    return rows.map((row) => row.userId);
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
   * Records a mail about (user, kind, deal) unless one went out within the
   * hour; true when this call may send it (one statement: two instances
   * cannot both get true).
   */
  async claimHourlyMail(db: DbOrTx, userId: number, kind: string, dealId: number | null): Promise<boolean> {
    const rows = await db
      .insert(notificationEmailsSent)
      .values({ userId, kind, dealKey: dealId ?? 0, sentAt: sql`now()` })
      .onConflictDoUpdate({
        target: [notificationEmailsSent.userId, notificationEmailsSent.kind, notificationEmailsSent.dealKey],
        set: { sentAt: sql`now()` },
        setWhere: sql`${notificationEmailsSent.sentAt} <= now() - interval '1 hour'`,
      })
      .returning({ sentAt: notificationEmailsSent.sentAt });
    return rows.length > 0;
  },
};

export type NotificationView = Awaited<ReturnType<typeof notificationsRepository.list>>[number];
