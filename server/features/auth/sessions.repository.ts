import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { prepared } from '../../db/prepared';
import { passkeys, sessions, totpAuthenticators, users } from '../../db/schema';

/**
 * What a token check needs of its session and of its account, in one statement (one round trip for the
 * request that finds neither cached), cached for a second (sessions.service.ts).
 */
const sessionStateById = prepared((db) =>
  db
    .select({
      userId: sessions.userId,
      username: users.username,
      email: users.email,
      fullName: users.fullName,
      verified: sql<boolean>`${users.verifiedAt} is not null`,
      tokenVersion: users.tokenVersion,
      isOperator: users.isOperator,
      expiresAt: sessions.expiresAt,
      endedAt: sessions.endedAt,
      endReason: sessions.endReason,
      factorAt: sessions.factorAt,
      lastSeenAt: sessions.lastSeenAt,
      hasSecondFactor: sql<boolean>`(exists (select 1 from ${totpAuthenticators} t
          where t.user_id = ${sessions.userId} and t.confirmed_at is not null)
        or exists (select 1 from ${passkeys} p where p.user_id = ${sessions.userId}))`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, sql.placeholder('id')))
    .prepare('session_and_account_state_by_id'),
);

export type SessionState = NonNullable<Awaited<ReturnType<typeof sessionsRepository.state>>>;

const open = (userId: number) =>
  and(eq(sessions.userId, userId), isNull(sessions.endedAt), gt(sessions.expiresAt, sql`now()`));

export const sessionsRepository = {
  async state(db: DbOrTx, id: string) {
    const [row] = await sessionStateById(db).execute({ id });
    return row;
  },

  async insert(db: DbOrTx, values: typeof sessions.$inferInsert) {
    const [row] = await db.insert(sessions).values(values).returning();
    return row!;
  },

  /** The user's open sessions, newest first. */
  listOpen(db: DbOrTx, userId: number) {
    return db.select().from(sessions).where(open(userId)).orderBy(desc(sessions.createdAt)).limit(200);
  },

  /** Whether the user signed in before from this device (its cookie), or — without one — from this device and address. */
  async knowsDevice(
    db: DbOrTx,
    userId: number,
    device: { keyHash: string | null; label: string; address: string | null },
  ) {
    const sameDevice = device.keyHash
      ? eq(sessions.deviceKeyHash, device.keyHash)
      : and(
          eq(sessions.device, device.label),
          sql`${sessions.address} is not distinct from ${device.address}`,
        );
    const [row] = await db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), sameDevice))
      .limit(1);
    return row !== undefined;
  },

  async hasAny(db: DbOrTx, userId: number) {
    const [row] = await db
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.userId, userId))
      .limit(1);
    return row !== undefined;
  },

  /** Ends the given open session of the user; its id, or nothing when there was none. */
  async end(db: DbOrTx, userId: number, id: string, reason: string) {
    return db
      .update(sessions)
      .set({ endedAt: new Date(), endReason: reason })
      .where(and(eq(sessions.id, id), open(userId)))
      .returning({ id: sessions.id });
  },

  /** Ends every open session of the user but `keep` (or all of them); the ids ended. */
  async endAll(db: DbOrTx, userId: number, reason: string, keep?: string) {
    return db
      .update(sessions)
      .set({ endedAt: new Date(), endReason: reason })
      .where(and(open(userId), keep ? ne(sessions.id, keep) : undefined))
      .returning({ id: sessions.id });
  },

  async markFactorGiven(db: DbOrTx, id: string, at: Date) {
    await db.update(sessions).set({ factorAt: at }).where(eq(sessions.id, id));
  },

  async touch(db: DbOrTx, id: string) {
    await db.update(sessions).set({ lastSeenAt: new Date() }).where(eq(sessions.id, id));
  },
};
