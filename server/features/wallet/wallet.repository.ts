import { and, desc, eq, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { idempotencyKeys, ledgerTransfers, wallets, walletTransactions } from '../../db/schema';

export type WalletRow = typeof wallets.$inferSelect;
export type WalletTransactionRow = typeof walletTransactions.$inferSelect;
export type LedgerTransferRow = typeof ledgerTransfers.$inferSelect;
export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;

export const walletRepository = {
  /** Creates the user's empty wallet unless it exists; safe when two requests race to create it. */
  async ensure(db: DbOrTx, userId: number) {
    await db.insert(wallets).values({ userId }).onConflictDoNothing({ target: wallets.userId });
  },

  async find(db: DbOrTx, userId: number) {
    const [row] = await db.select().from(wallets).where(eq(wallets.userId, userId));
    return row;
  },

  /** Locks the wallets in ascending user id order, the one order every movement uses. */
  async lockMany(db: DbOrTx, userIds: number[]) {
    const ordered = [...new Set(userIds)].sort((a, b) => a - b);
    const rows: WalletRow[] = [];
    for (const userId of ordered) {
      const [row] = await db.select().from(wallets).where(eq(wallets.userId, userId)).for('update');
      if (row) rows.push(row);
    }
    return rows;
  },

  /** Applies a change to a locked wallet; undefined when it would take the balance below zero. */
  async applyDelta(
    db: DbOrTx,
    userId: number,
    change: { balanceCents: number; depositedCents: number; withdrawnCents: number },
  ) {
    const [row] = await db
      .update(wallets)
      .set({
        balanceCents: sql`${wallets.balanceCents} + ${change.balanceCents}`,
        totalDepositedCents: sql`${wallets.totalDepositedCents} + ${change.depositedCents}`,
        totalWithdrawnCents: sql`${wallets.totalWithdrawnCents} + ${change.withdrawnCents}`,
        updatedAt: new Date(),
      })
      .where(and(eq(wallets.userId, userId), sql`${wallets.balanceCents} + ${change.balanceCents} >= 0`))
      .returning();
    return row;
  },

  async insertTransaction(db: DbOrTx, values: typeof walletTransactions.$inferInsert) {
    const [row] = await db.insert(walletTransactions).values(values).returning();
    return row!;
  },

  /** Newest first; `beforeId` pages back. */
  listTransactions(db: DbOrTx, userId: number, options: { beforeId?: number; limit: number }) {
    return db
      .select()
      .from(walletTransactions)
      .where(
        and(
          eq(walletTransactions.userId, userId),
          options.beforeId ? lt(walletTransactions.id, options.beforeId) : undefined,
        ),
      )
      .orderBy(desc(walletTransactions.id))
      .limit(options.limit);
  },
};

export const ledgerRepository = {
  async insertTransfer(db: DbOrTx, values: typeof ledgerTransfers.$inferInsert) {
    const [row] = await db.insert(ledgerTransfers).values(values).returning();
    return row!;
  },

  /** An account's balance as the ledger tells it: everything in minus everything out. */
  async balanceOf(db: DbOrTx, account: string): Promise<number> {
    const [row] = await db
      .select({
        balance: sql<string>`coalesce(sum(case when ${ledgerTransfers.toAccount} = ${account} then ${ledgerTransfers.amountCents} else -${ledgerTransfers.amountCents} end), 0)::text`,
      })
      .from(ledgerTransfers)
      .where(or(eq(ledgerTransfers.toAccount, account), eq(ledgerTransfers.fromAccount, account)));
    return Number(row?.balance ?? 0);
  },
};

export const idempotencyRepository = {
  async find(db: DbOrTx, userId: number, key: string) {
    const [row] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
    return row;
  },

  async insert(db: DbOrTx, values: typeof idempotencyKeys.$inferInsert) {
    await db.insert(idempotencyKeys).values(values);
  },

  /**
   * Holds a transaction-scoped advisory lock on (user, key): concurrent
   * retries with the same key run one after another, so the second finds the
   * first one's stored answer instead of moving money again.
   */
  async lock(db: DbOrTx, userId: number, key: string) {
    await db.execute(sql`select pg_advisory_xact_lock(${userId}::int, hashtext(${key}))`);
  },
};
