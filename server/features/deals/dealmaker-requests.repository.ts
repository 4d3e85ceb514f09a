import { and, desc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { dealmakerRequests, deals, users } from '../../db/schema';

const sender = alias(users, 'sender');
const receiver = alias(users, 'receiver');
const creator = alias(users, 'deal_creator');
const counterpart = alias(users, 'deal_counterpart');

function selectRequestViews(db: DbOrTx) {
  return db
    .select({
      request: dealmakerRequests,
      senderUsername: sender.username,
      receiverUsername: receiver.username,
      deal: {
        title: deals.title,
        description: deals.description,
        budgetCents: deals.budgetCents,
        createdAt: deals.createdAt,
      },
      creatorUsername: creator.username,
      counterpartUsername: counterpart.username,
    })
    .from(dealmakerRequests)
    .innerJoin(sender, eq(sender.id, dealmakerRequests.senderId))
    .innerJoin(receiver, eq(receiver.id, dealmakerRequests.receiverId))
    .innerJoin(deals, eq(deals.id, dealmakerRequests.dealId))
    .innerJoin(creator, eq(creator.id, deals.creatorId))
    .leftJoin(counterpart, eq(counterpart.id, deals.counterpartId));
}

export type DealmakerRequestView = Awaited<
  ReturnType<ReturnType<typeof selectRequestViews>['execute']>
>[number];

export const dealmakerRequestsRepository = {
  async insert(db: DbOrTx, values: typeof dealmakerRequests.$inferInsert) {
    const [row] = await db.insert(dealmakerRequests).values(values).returning();
    return row!;
  },

  async findById(db: DbOrTx, id: number) {
    const [row] = await db.select().from(dealmakerRequests).where(eq(dealmakerRequests.id, id));
    return row;
  },

  async lock(db: DbOrTx, id: number) {
    const [row] = await db.select().from(dealmakerRequests).where(eq(dealmakerRequests.id, id)).for('update');
    return row;
  },

  async findByDealAndReceiver(db: DbOrTx, dealId: number, receiverId: number) {
    const [row] = await db
      .select()
      .from(dealmakerRequests)
      .where(and(eq(dealmakerRequests.dealId, dealId), eq(dealmakerRequests.receiverId, receiverId)));
    return row;
  },

  async markRejected(db: DbOrTx, id: number) {
    await db.update(dealmakerRequests).set({ rejected: true }).where(eq(dealmakerRequests.id, id));
  },

  async delete(db: DbOrTx, id: number) {
    await db.delete(dealmakerRequests).where(eq(dealmakerRequests.id, id));
  },

  /** Removes the deal's pending requests (rejected ones stay as history); returns them. */
  deletePendingOfDeal(db: DbOrTx, dealId: number) {
    return db
      .delete(dealmakerRequests)
      .where(and(eq(dealmakerRequests.dealId, dealId), eq(dealmakerRequests.rejected, false)))
      .returning();
  },

  async view(db: DbOrTx, id: number) {
    const [row] = await selectRequestViews(db).where(eq(dealmakerRequests.id, id));
    return row;
  },

  listOfDeal(db: DbOrTx, dealId: number) {
    return selectRequestViews(db)
      .where(eq(dealmakerRequests.dealId, dealId))
      .orderBy(desc(dealmakerRequests.id));
  },

  /** Requests waiting for the receiver's answer, newest first. */
  listPendingForReceiver(db: DbOrTx, receiverId: number) {
    return selectRequestViews(db)
      .where(and(eq(dealmakerRequests.receiverId, receiverId), eq(dealmakerRequests.rejected, false)))
      .orderBy(desc(dealmakerRequests.id));
  },
};
