import { centsToDollars } from '../../../contract/money';
import type { Escrow, EscrowStatusValue, Wallet, WalletTransaction } from '../../../contract/wallet';
import type { EscrowRow } from './escrow.repository';
import type { WalletRow, WalletTransactionRow } from './wallet.repository';

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

export function presentEscrow(row: EscrowRow): Escrow {
  return {
    amount: centsToDollars(row.amountCents),
    status: row.status as EscrowStatusValue,
    creatorPaid: row.creatorPaid,
    counterpartPaid: row.counterpartPaid,
    creatorAmount: centsToDollars(row.creatorShareCents),
    counterpartAmount: centsToDollars(row.counterpartShareCents),
  };
}
