import { and, desc, eq, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { bids, users } from '../../db/schema';

const bidView = { bid: bids, bidderUsername: users.username };

export const bidsRepository = {
  async insert(db: DbOrTx, values: typeof bids.$inferInsert) {
    const [row] = await db.insert(bids).values(values).returning();
    return row!;
  },

  async findById(db: DbOrTx, id: number) {
    const [row] = await db.select().from(bids).where(eq(bids.id, id));
    return row;
  },

  async lock(db: DbOrTx, id: number) {
    const [row] = await db.select().from(bids).where(eq(bids.id, id)).for('update');
    return row;
  },

  async findByDealAndBidder(db: DbOrTx, dealId: number, bidderId: number) {
    const [row] = await db
      .select()
      .from(bids)
      .where(and(eq(bids.dealId, dealId), eq(bids.bidderId, bidderId)));
    return row;
  },

  async update(db: DbOrTx, id: number, values: Partial<typeof bids.$inferInsert>) {
    const [row] = await db
      .update(bids)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(bids.id, id))
      .returning();
    return row!;
  },

  async delete(db: DbOrTx, id: number) {
    await db.delete(bids).where(eq(bids.id, id));
  },

  /** Removes every bid of the deal except one (the winner); returns the removed bidders. */
  async deleteOthers(db: DbOrTx, dealId: number, keepBidId: number | null) {
    const removed = await db
      .delete(bids)
      .where(
        keepBidId === null ? eq(bids.dealId, dealId) : and(eq(bids.dealId, dealId), ne(bids.id, keepBidId)),
      )
      .returning({ bidderId: bids.bidderId });
    return removed.map((r) => r.bidderId);
  },

  async bidderIds(db: DbOrTx, dealId: number) {
    const rows = await db.select({ bidderId: bids.bidderId }).from(bids).where(eq(bids.dealId, dealId));
    return rows.map((r) => r.bidderId);
  },

  /** Bids of a deal, newest first like every list (DESIGN.md §4); only one bidder's when `onlyBidderId` is given. */
  listOfDeal(db: DbOrTx, dealId: number, onlyBidderId?: number) {
    return db
      .select(bidView)
      .from(bids)
      .innerJoin(users, eq(users.id, bids.bidderId))
      .where(
        onlyBidderId === undefined
          ? eq(bids.dealId, dealId)
          : and(eq(bids.dealId, dealId), eq(bids.bidderId, onlyBidderId)),
      )
      .orderBy(desc(bids.id));
  },

  async view(db: DbOrTx, id: number) {
    const [row] = await db
      .select(bidView)
      .from(bids)
      .innerJoin(users, eq(users.id, bids.bidderId))
      .where(eq(bids.id, id));
    return row;
  },
};

export type BidView = NonNullable<Awaited<ReturnType<typeof bidsRepository.view>>>;
