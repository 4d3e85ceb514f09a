import { errorCodes } from '../../../contract/errors';
import { formatCents } from '../../../contract/money';
import { maxWalletBalanceCents, type WalletTransactionType } from '../../../contract/wallet';
import type { Tx } from '../../db/client';
import { conflict } from '../../lib/errors';
import {
  type LedgerTransferRow,
  ledgerRepository,
  type WalletRow,
  type WalletTransactionRow,
  walletRepository,
} from './wallet.repository';

/** Where money can be: a user's wallet, a deal's escrow, or outside the product (deposits, withdrawals). */
export type Account =
  | { kind: 'wallet'; userId: number }
  | { kind: 'escrow'; dealId: number }
  | { kind: 'world' };

export const accounts = {
  wallet: (userId: number): Account => ({ kind: 'wallet', userId }),
  escrow: (dealId: number): Account => ({ kind: 'escrow', dealId }),
  world: { kind: 'world' } as Account,
};

/** The account's name in ledger_transfers: 'wallet:{userId}', 'escrow:{dealId}' or 'world'. */
export function accountName(account: Account): string {
  switch (account.kind) {
    case 'wallet':
      return `wallet:${account.userId}`;
    case 'escrow':
      return `escrow:${account.dealId}`;
    case 'world':
      return 'world';
  }
}

export type TransferKind = 'deposit' | 'withdraw' | 'escrow_lock' | 'escrow_refund' | 'escrow_release';

/** The Transaction History type of a transfer's wallet side (the dealmaker's side of a release is a payment). */
const walletTransactionType: Record<TransferKind, WalletTransactionType> = {
  deposit: 'deposit',
  withdraw: 'withdraw',
  escrow_lock: 'escrow_lock',
  escrow_refund: 'escrow_refund',
  escrow_release: 'payment_received',
};

export type TransferResult = {
  transfer: LedgerTransferRow;
  /** The Transaction History rows written, one per wallet side. */
  walletTransactions: WalletTransactionRow[];
  /** The wallets touched, as they are after the transfer. */
  wallets: WalletRow[];
};

/**
 * The one place that moves money (DESIGN.md §6). One transfer moves a
 * positive amount from one account to another: it writes the ledger_transfers
 * row, updates each wallet side and writes that wallet's history row with the
 * balance right after it, all inside the caller's transaction.
 *
 * The caller must already hold the locks (deal → escrow → wallets by
 * ascending user id) and have checked its rules, including that the paying
 * wallet has enough: the checks here are a last line of defence that refuses
 * to take any wallet or escrow below zero.
 */
export async function transfer(
  tx: Tx,
  input: {
    kind: TransferKind;
    from: Account;
    to: Account;
    amountCents: number;
    dealId?: number | null;
    /** Shown in the Transaction History. */
    description: string;
  },
): Promise<TransferResult> {
  const { kind, from, to, amountCents } = input;
  const fromName = accountName(from);
  const toName = accountName(to);
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
    throw new Error(`ledger: refusing to transfer ${amountCents} cents`);
  }
  if (fromName === toName) throw new Error(`ledger: ${fromName} cannot pay itself`);
  if (from.kind === 'escrow') {
    const held = await ledgerRepository.balanceOf(tx, fromName);
    if (held < amountCents) {
      throw new Error(`ledger: ${fromName} holds ${held} cents and cannot pay out ${amountCents}`);
    }
  }

  const transferRow = await ledgerRepository.insertTransfer(tx, {
    kind,
    fromAccount: fromName,
    toAccount: toName,
    amountCents,
    dealId: input.dealId ?? null,
  });

  const sides: Array<{ userId: number; sign: 1 | -1 }> = [];
  if (from.kind === 'wallet') sides.push({ userId: from.userId, sign: -1 });
  if (to.kind === 'wallet') sides.push({ userId: to.userId, sign: 1 });
  sides.sort((a, b) => a.userId - b.userId);

  const walletTransactions: WalletTransactionRow[] = [];
  const wallets: WalletRow[] = [];
  for (const { userId, sign } of sides) {
    const wallet = await walletRepository.applyDelta(tx, userId, {
      balanceCents: sign * amountCents,
      depositedCents: kind === 'deposit' ? amountCents : 0,
      withdrawnCents: kind === 'withdraw' ? amountCents : 0,
    });
    if (!wallet) {
      throw conflict(
        `Insufficient balance for a payment of $${formatCents(amountCents)}.`,
        errorCodes.insufficientFunds,
      );
    }
    if (wallet.balanceCents > maxWalletBalanceCents) {
      throw conflict('This would take the wallet above its maximum balance.');
    }
    wallets.push(wallet);
    walletTransactions.push(
      await walletRepository.insertTransaction(tx, {
        userId,
        transferId: transferRow.id,
        type: walletTransactionType[kind],
        amountCents: sign * amountCents,
        balanceAfterCents: wallet.balanceCents,
        description: input.description,
        dealId: input.dealId ?? null,
      }),
    );
  }
  return { transfer: transferRow, walletTransactions, wallets };
}
