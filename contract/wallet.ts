import { z } from 'zod';
import { decimalId, moneySchema } from './fields';
import { limits } from './limits';

/**
 * Wallet calls (spec §7 "Wallet and escrow", DESIGN.md §5 Wallet, §6 Money).
 * Every amount on the wire is a JSON number of dollars with at most two
 * decimals; the server keeps integer cents. The escrow is in escrow.ts.
 */

/** spec §3 Wallet. */
export const walletSchema = z.object({
  balance: z.number(),
  totalDeposited: z.number(),
  totalWithdrawn: z.number(),
});
export type Wallet = z.infer<typeof walletSchema>;

/**
 * The types of Transaction History rows.
 *
 * The spec also names `escrow_release`: that is the ledger's name for the
 * transfer that moves a completed deal's escrow to its dealmaker. It never
 * shows up as a wallet row — the dealers' money already left their wallets as
 * `escrow_lock`, and the dealmaker's side of the release is `payment_received`.
 * `escrow_refund` is added: a dealer taking their unlocked half back.
 */
export const walletTransactionTypes = [
  'deposit',
  'withdraw',
  'escrow_lock',
  'escrow_refund',
  'payment_received',
] as const;
export type WalletTransactionType = (typeof walletTransactionTypes)[number];

/** Types that bring money into the wallet; the others take money out. */
export const incomingTransactionTypes: ReadonlySet<WalletTransactionType> = new Set([
  'deposit',
  'escrow_refund',
  'payment_received',
]);

/**
 * A Transaction History row. `amount` is always positive: the sign to show
 * comes from the type (+ for deposit, escrow_refund and payment_received,
 * − for withdraw and escrow_lock); `signedAmount` gives it.
 */
export const walletTransactionSchema = z.object({
  id: z.number().int(),
  type: z.enum(walletTransactionTypes),
  amount: z.number(),
  balanceAfter: z.number(),
  description: z.string(),
  createdAt: z.string(),
  /** The deal an escrow movement belongs to (absent for deposits and withdrawals). */
  dealId: z.number().int().optional(),
});
export type WalletTransaction = z.infer<typeof walletTransactionSchema>;
export const walletTransactionListSchema = z.array(walletTransactionSchema);

/** The amount with the sign the Transaction History shows. */
export function signedAmount(transaction: Pick<WalletTransaction, 'type' | 'amount'>): number {
  return incomingTransactionTypes.has(transaction.type) ? transaction.amount : -transaction.amount;
}

/** The balance right before a movement: what it was after, less what the movement changed. */
export function balanceBefore(
  transaction: Pick<WalletTransaction, 'type' | 'amount' | 'balanceAfter'>,
): number {
  return (Math.round(transaction.balanceAfter * 100) - Math.round(signedAmount(transaction) * 100)) / 100;
}

/** The reference a person quotes for one movement (receipt, CSV export): 'TX-000042'. */
export const transactionReference = (id: number) => `TX-${String(id).padStart(6, '0')}`;

/** GET /wallet/transactions: newest first; `before` is the id of the last row of the previous page; `type` keeps one type. */
export const walletTransactionsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(limits.page.maxLimit).default(limits.page.defaultLimit),
  before: decimalId(Number.MAX_SAFE_INTEGER).optional(),
  type: z.enum(walletTransactionTypes).optional(),
});

/** GET /wallet/transactions.csv: the whole history (or one type of it) as a spreadsheet. */
export const walletExportQuerySchema = walletTransactionsQuerySchema.pick({ type: true });

export const depositRequestSchema = z.object({
  amount: moneySchema(limits.depositCents.min, limits.depositCents.max),
});
export const withdrawRequestSchema = z.object({
  amount: moneySchema(limits.withdrawCents.min, limits.withdrawCents.max),
});
export type DepositRequest = z.input<typeof depositRequestSchema>;
export type WithdrawRequest = z.input<typeof withdrawRequestSchema>;

/** POST /wallet/deposit and /wallet/withdraw. */
export const walletMovementResponseSchema = z.object({
  message: z.string(),
  wallet: walletSchema,
  transaction: walletTransactionSchema,
});
export type WalletMovementResponse = z.infer<typeof walletMovementResponseSchema>;

/** No wallet may hold more cents than a JSON number carries exactly. */
export const maxWalletBalanceCents = Number.MAX_SAFE_INTEGER;
