import { centsToDollars, typedAmountToCents } from '../../../contract/money';
import { signedAmount, type WalletTransaction } from '../../../contract/wallet';
import { formatSignedMoney } from '../../lib/money';

/** A Transaction History row's text: its description, or its type in words ('escrow_lock' → 'escrow lock'). */
export function transactionLabel(transaction: Pick<WalletTransaction, 'description' | 'type'>): string {
  return transaction.description.trim() || transaction.type.replace(/_/g, ' ');
}

/** Whether the row brought money in (deposit, escrow_refund, payment_received) or took it out. */
export function transactionDirection(transaction: Pick<WalletTransaction, 'type' | 'amount'>): 'in' | 'out' {
  return signedAmount(transaction) < 0 ? 'out' : 'in';
}

/** '+$10.00' or '−$10.00'. */
export function formatTransactionAmount(transaction: Pick<WalletTransaction, 'type' | 'amount'>): string {
  return formatSignedMoney(transaction.amount, transactionDirection(transaction));
}

export const invalidAmountMessage = 'Please enter a valid amount';

export type AmountCheck = { ok: true; cents: number; amount: number } | { ok: false; error: string };

/**
 * What the user typed in an Amount ($) field, checked the way the server will: a positive number
 * of dollars with at most 2 decimals (spec §5: minimum 0.01, step 0.01), at most `maxCents`.
 */
export function checkAmount(
  input: string,
  bounds: { maxCents: number; tooMuch: (maxCents: number) => string },
): AmountCheck {
  const cents = typedAmountToCents(input);
  if (cents === null || cents < 1) return { ok: false, error: invalidAmountMessage };
  if (cents > bounds.maxCents) return { ok: false, error: bounds.tooMuch(bounds.maxCents) };
  return { ok: true, cents, amount: centsToDollars(cents) };
}
