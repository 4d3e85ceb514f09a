import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { prepared } from '../../db/prepared';
import { type EscrowRow, escrows } from '../../db/schema';

const byDealId = eq(escrows.dealId, sql.placeholder('dealId'));
const lockEscrow = prepared((db) =>
  db.select().from(escrows).where(byDealId).for('update').prepare('escrow_lock'),
);
const setHalves = prepared((db) =>
  db
    .update(escrows)
    .set({
      creatorPaid: sql`${sql.placeholder('creatorPaid')}`,
      counterpartPaid: sql`${sql.placeholder('counterpartPaid')}`,
      status: sql`${sql.placeholder('status')}`,
      loneHalfExpiresAt: sql`${sql.placeholder('loneHalfExpiresAt')}`,
      updatedAt: sql`now()`,
    })
    .where(byDealId)
    .returning()
    .prepare('escrow_set_halves'),
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

  /** A half paid or taken back (prepared: the hot write of escrow payments). */
  async setHalves(
    db: DbOrTx,
    dealId: number,
    halves: Pick<EscrowRow, 'creatorPaid' | 'counterpartPaid' | 'status' | 'loneHalfExpiresAt'>,
  ) {
    const [row] = await setHalves(db).execute({ dealId, ...halves });
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
