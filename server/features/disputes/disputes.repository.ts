import { and, desc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { disputes, users } from '../../db/schema';

const raiser = alias(users, 'raiser');
const resolver = alias(users, 'resolver');

function selectDisputeViews(db: DbOrTx) {
  return db
    .select({
      dispute: disputes,
      raiserUsername: raiser.username,
      raiserFullName: raiser.fullName,
      resolverUsername: resolver.username,
      resolverFullName: resolver.fullName,
    })
    .from(disputes)
    .innerJoin(raiser, eq(raiser.id, disputes.raisedById))
    .leftJoin(resolver, eq(resolver.id, disputes.resolvedById));
}

export type DisputeView = Awaited<ReturnType<ReturnType<typeof selectDisputeViews>['execute']>>[number];

export const disputesRepository = {
  async insert(db: DbOrTx, values: typeof disputes.$inferInsert) {
    const [row] = await db.insert(disputes).values(values).returning();
    return row!;
  },

  async findById(db: DbOrTx, id: number) {
    const [row] = await db.select().from(disputes).where(eq(disputes.id, id));
    return row;
  },

  async lock(db: DbOrTx, id: number) {
    const [row] = await db.select().from(disputes).where(eq(disputes.id, id)).for('update');
    return row;
  },

  async resolve(db: DbOrTx, id: number, values: { resolution: string; resolvedById: number }) {
    await db
      .update(disputes)
      .set({ ...values, status: 'resolved', resolvedAt: new Date() })
      .where(eq(disputes.id, id));
  },

  async hasOpen(db: DbOrTx, dealId: number) {
    const [row] = await db
      .select({ id: disputes.id })
      .from(disputes)
      .where(and(eq(disputes.dealId, dealId), eq(disputes.status, 'open')))
      .limit(1);
    return !!row;
  },

  async view(db: DbOrTx, id: number) {
    const [row] = await selectDisputeViews(db).where(eq(disputes.id, id));
    return row;
  },

  listOfDeal(db: DbOrTx, dealId: number) {
    return selectDisputeViews(db).where(eq(disputes.dealId, dealId)).orderBy(desc(disputes.id));
  },
};
