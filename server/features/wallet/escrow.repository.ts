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
};
