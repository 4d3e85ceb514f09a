import { and, desc, eq, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { bids, deals, escrows, users } from '../../db/schema';
import { containsPattern } from '../users/users.repository';

export type DealRow = typeof deals.$inferSelect;

const creator = alias(users, 'creator');
const counterpart = alias(users, 'counterpart');
const dealmaker = alias(users, 'dealmaker');

/** Everything a deal's wire shape needs, in one query: the three usernames, escrow state and the viewer's bid. */
function selectDealViews(db: DbOrTx, viewerId: number) {
  return db
    .select({
      deal: deals,
      creatorUsername: creator.username,
      counterpartUsername: counterpart.username,
      dealmakerUsername: dealmaker.username,
      escrowPaid: sql<boolean>`coalesce(${escrows.creatorPaid} or ${escrows.counterpartPaid}, false)`,
      myBidId: bids.id,
      myBidPriceCents: bids.priceCents,
    })
    .from(deals)
    .innerJoin(creator, eq(creator.id, deals.creatorId))
    .leftJoin(counterpart, eq(counterpart.id, deals.counterpartId))
    .leftJoin(dealmaker, eq(dealmaker.id, deals.dealmakerId))
    .leftJoin(escrows, eq(escrows.dealId, deals.id))
    .leftJoin(bids, and(eq(bids.dealId, deals.id), eq(bids.bidderId, viewerId)));
}

export type DealView = Awaited<ReturnType<ReturnType<typeof selectDealViews>['execute']>>[number];

export const dealsRepository = {
  async insert(db: DbOrTx, values: typeof deals.$inferInsert) {
    const [row] = await db.insert(deals).values(values).returning();
    return row!;
  },

  /** Locks the deal row: every change to a deal's people, selection or state goes through this lock. */
  async lock(db: DbOrTx, id: number) {
    const [row] = await db.select().from(deals).where(eq(deals.id, id)).for('update');
    return row;
  },

  /** A shared lock: many readers at once, but the deal cannot be changed or deleted meanwhile. */
  async lockShared(db: DbOrTx, id: number) {
    const [row] = await db.select().from(deals).where(eq(deals.id, id)).for('share');
    return row;
  },

  async findById(db: DbOrTx, id: number) {
    const [row] = await db.select().from(deals).where(eq(deals.id, id));
    return row;
  },

  async update(db: DbOrTx, id: number, values: Partial<typeof deals.$inferInsert>) {
    const [row] = await db
      .update(deals)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(deals.id, id))
      .returning();
    return row!;
  },

  async delete(db: DbOrTx, id: number) {
    await db.delete(deals).where(eq(deals.id, id));
  },

  async view(db: DbOrTx, id: number, viewerId: number) {
    const [row] = await selectDealViews(db, viewerId).where(eq(deals.id, id));
    return row;
  },

  /** Newest first, optionally matching a keyword in title or description (served by trigram indexes). */
  list(db: DbOrTx, viewerId: number, options: { keyword?: string; beforeId?: number; limit: number }) {
    const conditions: SQL[] = [];
    if (options.keyword) {
      const pattern = containsPattern(options.keyword);
      conditions.push(or(ilike(deals.title, pattern), ilike(deals.description, pattern))!);
    }
    if (options.beforeId) conditions.push(lt(deals.id, options.beforeId));
    return selectDealViews(db, viewerId)
      .where(and(...conditions))
      .orderBy(desc(deals.id))
      .limit(options.limit);
  },

  /** Deals the user is a dealer of (creator or counterpart), newest first. */
  listOfDealer(db: DbOrTx, userId: number) {
    return selectDealViews(db, userId)
      .where(or(eq(deals.creatorId, userId), eq(deals.counterpartId, userId)))
      .orderBy(desc(deals.id));
  },

  listOfDealmaker(db: DbOrTx, userId: number) {
    return selectDealViews(db, userId).where(eq(deals.dealmakerId, userId)).orderBy(desc(deals.id));
  },

  /** Deals where the user is creator, counterpart or dealmaker (a user's activity), newest first. */
  listOfParticipant(db: DbOrTx, userId: number, viewerId: number) {
    return selectDealViews(db, viewerId)
      .where(or(eq(deals.creatorId, userId), eq(deals.counterpartId, userId), eq(deals.dealmakerId, userId)))
      .orderBy(desc(deals.id));
  },
};
