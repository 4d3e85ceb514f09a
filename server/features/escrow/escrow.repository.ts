import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { escrows } from '../../db/schema';

export const escrowRepository = {
  async findByDealId(db: DbOrTx, dealId: number) {
    const [row] = await db.select().from(escrows).where(eq(escrows.dealId, dealId));
    return row;
  },

  async lockByDealId(db: DbOrTx, dealId: number) {
    const [row] = await db.select().from(escrows).where(eq(escrows.dealId, dealId)).for('update');
    return row;
  },

  async insert(
    db: DbOrTx,
    values: { dealId: number; amountCents: number; creatorShareCents: number; counterpartShareCents: number },
  ) {
    const [row] = await db.insert(escrows).values(values).returning();
    return row!;
  },

  async update(db: DbOrTx, dealId: number, values: Partial<typeof escrows.$inferInsert>) {
    const [row] = await db
      .update(escrows)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(escrows.dealId, dealId))
      .returning();
    return row!;
  },
};
