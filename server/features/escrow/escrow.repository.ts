import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { prepared } from '../../db/prepared';
import { type EscrowRow, escrows } from '../../db/schema';

const byDealId = eq(escrows.dealId, sql.placeholder('dealId'));
const lockEscrow = prepared((db) =>
  db.select().from(escrows).where(byDealId).for('update').prepare('escrow_lock'),
);
const setSum = prepared((db) =>
  db
    .update(escrows)
    .set({
      creatorPaid: sql`${sql.placeholder('creatorPaid')}`,
      counterpartPaid: sql`${sql.placeholder('counterpartPaid')}`,
      status: sql`${sql.placeholder('status')}`,
      loneHalfExpiresAt: sql`${sql.placeholder('loneHalfExpiresAt')}`,
      heldCents: sql`${sql.placeholder('heldCents')}`,
      heldCreatorShareCents: sql`${sql.placeholder('heldCreatorShareCents')}`,
      releasedCents: sql`${sql.placeholder('releasedCents')}`,
      updatedAt: sql`now()`,
    })
    .where(byDealId)
    .returning()
    .prepare('escrow_set_sum'),
);

export const escrowRepository = {
  async findByDealId(db: DbOrTx, dealId: number) {
    const [row] = await db.select().from(escrows).where(eq(escrows.dealId, dealId));
    return row;
  },

  async lockByDealId(db: DbOrTx, dealId: number) {
    const [row] = await lockEscrow(db).execute({ dealId });
    return row;
  },

  /** The escrow as the sum of its milestones (escrow-sum.ts). */
  async setSum(
    db: DbOrTx,
    dealId: number,
    sum: Pick<
      EscrowRow,
      | 'creatorPaid'
      | 'counterpartPaid'
      | 'status'
      | 'loneHalfExpiresAt'
      | 'heldCents'
      | 'heldCreatorShareCents'
      | 'releasedCents'
    >,
  ) {
    const [row] = await setSum(db).execute({ dealId, ...sum });
    return row!;
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
