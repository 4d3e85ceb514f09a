import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
} from 'drizzle-orm/pg-core';
import { cents, createdAt, updatedAt } from './columns';
import { deals } from './deals';
import { milestones } from './escrow';
import { users } from './users';

/** A user's spendable money; the row is locked (FOR UPDATE) by every movement. */
export const wallets = pgTable(
  'wallets',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    balanceCents: cents('balance_cents').notNull().default(0),
    totalDepositedCents: cents('total_deposited_cents').notNull().default(0),
    totalWithdrawnCents: cents('total_withdrawn_cents').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [check('wallets_balance_non_negative', sql`${t.balanceCents} >= 0`)],
);

/** Double entry: one transfer moves one amount from one account to another (wallet:N, escrow:N, world). */
export const ledgerTransfers = pgTable(
  'ledger_transfers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    fromAccount: text('from_account').notNull(),
    toAccount: text('to_account').notNull(),
    amountCents: cents('amount_cents').notNull(),
    dealId: integer('deal_id').references(() => deals.id, { onDelete: 'set null' }),
    /** The milestone an escrow payment, refund or release was for (none for a settlement's split). */
    milestoneId: integer('milestone_id').references(() => milestones.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('ledger_transfers_positive', sql`${t.amountCents} > 0`),
    check('ledger_transfers_distinct_accounts', sql`${t.fromAccount} <> ${t.toAccount}`),
    index('ledger_transfers_from').on(t.fromAccount),
    index('ledger_transfers_to').on(t.toAccount),
  ],
);

/** The rows a user sees in Transaction History, each with the balance right after it. */
export const walletTransactions = pgTable(
  'wallet_transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    transferId: bigint('transfer_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerTransfers.id),
    type: text('type').notNull(),
    /** Signed: + money in, − money out. */
    amountCents: cents('amount_cents').notNull(),
    balanceAfterCents: cents('balance_after_cents').notNull(),
    description: text('description').notNull(),
    dealId: integer('deal_id').references(() => deals.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('wallet_transactions_balance_non_negative', sql`${t.balanceAfterCents} >= 0`),
    index('wallet_transactions_user_id_id').on(t.userId, t.id.desc()),
  ],
);

/** A money call's first answer, replayed for a retry with the same Idempotency-Key. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code').notNull(),
    responseBody: jsonb('response_body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

export type WalletRow = typeof wallets.$inferSelect;
export type WalletTransactionRow = typeof walletTransactions.$inferSelect;
export type LedgerTransferRow = typeof ledgerTransfers.$inferSelect;
