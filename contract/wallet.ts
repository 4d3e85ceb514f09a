import { z } from 'zod';
import { dealSchema } from './deals';
import { limits } from './limits';
import { moneySchema } from './money';

/**
 * Wallet, escrow and completion calls (spec §7 "Wallet and escrow", DESIGN.md §5
 * Escrow / Completion / Wallet, §6 Money). Every amount on the wire is a JSON
 * number of dollars with at most two decimals; the server keeps integer cents.
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

/** GET /wallet/transactions: newest first; `before` is the id of the last row of the previous page. */
export const walletTransactionsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(limits.page.maxLimit).default(limits.page.defaultLimit),
  before: z.coerce.number().int().positive().optional(),
});

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

/** pending (0 or 1 half paid) → locked (both paid) → completed (released to the dealmaker). */
export const escrowStatuses = ['pending', 'locked', 'completed'] as const;
export type EscrowStatusValue = (typeof escrowStatuses)[number];

/** spec §3 Escrow, with each dealer's share: the creator pays ceil(amount/2) cents, the counterpart the rest. */
export const escrowSchema = z.object({
  amount: z.number(),
  status: z.enum(escrowStatuses),
  creatorPaid: z.boolean(),
  counterpartPaid: z.boolean(),
  creatorAmount: z.number(),
  counterpartAmount: z.number(),
});
export type Escrow = z.infer<typeof escrowSchema>;

/** GET /wallet/escrow/{dealId}: the escrow exists once the deal has a dealmaker. */
export const escrowStatusResponseSchema = z.object({
  escrowExists: z.boolean(),
  escrow: escrowSchema.nullable(),
  deal: dealSchema,
});
export type EscrowStatusResponse = z.infer<typeof escrowStatusResponseSchema>;

/** POST /wallet/escrow/{dealId}/lock and /refund. */
export const escrowActionResponseSchema = z.object({
  message: z.string(),
  escrow: escrowSchema,
  wallet: walletSchema,
});
export type EscrowActionResponse = z.infer<typeof escrowActionResponseSchema>;

/** PUT /progress/deal/{dealId}/complete. */
export const completionResponseSchema = z.object({
  message: z.string(),
  deal: dealSchema,
  isCompleted: z.boolean(),
});
export type CompletionResponse = z.infer<typeof completionResponseSchema>;

/** The spec's exact texts (spec §4 Escrow). */
export const escrowMessages = {
  locked: 'Both parties have paid! Money is now locked in escrow until deal completion.',
  released: 'Escrow payment has been released to the dealmaker!',
} as const;

/**
 * Money calls (deposit, withdraw, escrow pay and refund) accept this header: a
 * retry with the same key returns the first answer and moves no money again.
 * Keys are per user; the answer is replayed with `Idempotent-Replayed: true`.
 */
export const idempotencyKeyHeader = 'idempotency-key';
export const idempotencyReplayedHeader = 'idempotent-replayed';
export const idempotencyKeyMaxLength = 200;

/** Headers of a money call; other headers pass through untouched. */
export const idempotentHeadersSchema = z.looseObject({
  [idempotencyKeyHeader]: z
    .string()
    .min(1, 'Idempotency-Key must not be empty')
    .max(idempotencyKeyMaxLength, `Idempotency-Key must be at most ${idempotencyKeyMaxLength} characters`)
    .optional(),
});

/** No wallet may hold more cents than a JSON number carries exactly. */
export const maxWalletBalanceCents = Number.MAX_SAFE_INTEGER;
