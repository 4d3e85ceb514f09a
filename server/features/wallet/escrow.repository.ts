import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { escrows } from '../../db/schema';

export type EscrowRow = typeof escrows.$inferSelect;

export const escrowRepository = {
  async findByDealId(db: DbOrTx, dealId: number) {
    const [row] = await db.select().from(escrows).where(eq(escrows.dealId, dealId));
    return row;
  },

  async lockByDealId(db: DbOrTx, dealId: number) {
    const [row] = await db.select().from(escrows).where(eq(escrows.dealId, dealId)).for('update');
    return row;
  },

  /** Creates the deal's escrow unless it exists (two first readers may race). */
  async ensure(
    db: DbOrTx,
    values: { dealId: number; amountCents: number; creatorShareCents: number; counterpartShareCents: number },
  ) {
    await db.insert(escrows).values(values).onConflictDoNothing({ target: escrows.dealId });
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
