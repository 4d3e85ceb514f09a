import { centsToDollars, dollarsToCents, formatCents } from '../../../contract/money';
import {
  balanceBefore,
  signedAmount,
  transactionReference,
  type Wallet,
  type WalletTransaction,
} from '../../../contract/wallet';
import type { WalletRow, WalletTransactionRow } from '../../db/schema';

/** A wallet on the wire; a user who never had a wallet row has zeros. */
export function presentWallet(row: WalletRow | undefined): Wallet {
  return {
    balance: centsToDollars(row?.balanceCents ?? 0),
    totalDeposited: centsToDollars(row?.totalDepositedCents ?? 0),
    totalWithdrawn: centsToDollars(row?.totalWithdrawnCents ?? 0),
  };
}

/** A Transaction History row: the amount is unsigned on the wire, the type tells the direction. */
export function presentTransaction(row: WalletTransactionRow): WalletTransaction {
  return {
    id: row.id,
    type: row.type as WalletTransaction['type'],
    amount: centsToDollars(Math.abs(row.amountCents)),
    balanceAfter: centsToDollars(row.balanceAfterCents),
    description: row.description,
    createdAt: row.createdAt.toISOString(),
    ...(row.dealId !== null ? { dealId: row.dealId } : {}),
  };
}

const csvColumns = [
  'reference',
  'date',
  'type',
  'description',
  'amount',
  'balance_before',
  'balance_after',
  'deal_id',
] as const;

/** Signed plain decimals ('-5250.00'), which every spreadsheet reads as numbers. */
const csvAmount = (dollars: number) => {
  const cents = dollarsToCents(Math.abs(dollars)) ?? 0;
  return formatCents(dollars < 0 ? -cents : cents);
};

/**
 * One CSV field: quoted when it holds a comma, quote or line break; text a spreadsheet would run as a
 * formula (a deal title starting with '=', '+', '-', '@') is prefixed with an apostrophe.
 */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The Transaction History as CSV (RFC 4180, CRLF line ends), with a header line. */
export function transactionsToCsv(transactions: WalletTransaction[]): string {
  const lines = transactions.map((t) =>
    [
      transactionReference(t.id),
      t.createdAt,
      t.type,
      csvField(t.description),
      csvAmount(signedAmount(t)),
      csvAmount(balanceBefore(t)),
      csvAmount(t.balanceAfter),
      t.dealId === undefined ? '' : String(t.dealId),
    ].join(','),
  );
  return `${[csvColumns.join(','), ...lines].join('\r\n')}\r\n`;
}
