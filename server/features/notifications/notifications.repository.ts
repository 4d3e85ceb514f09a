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

const notificationView = {
  notification: notifications,
  actorUsername: users.username,
  actorFullName: users.fullName,
};

export const notificationsRepository = {
  /** Stores notifications (a chat message stores its own with itself: messages.repository `send`). */
  async insert(db: DbOrTx, rows: NewNotification[]) {
    if (rows.length === 0) return [];
    return db.insert(notifications).values(rows).returning();
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
