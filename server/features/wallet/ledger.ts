import { errorCodes } from '../../../contract/errors';
import { formatUsdCents } from '../../../contract/money';
import { maxWalletBalanceCents, type WalletTransactionType } from '../../../contract/wallet';
import type { DbOrTx } from '../../db/client';
import type { requesterSettings } from '../../db/requester';
import type { WalletRow, WalletTransactionRow } from '../../db/schema';
import { afterCommitOn } from '../../db/transaction';
import { type AppError, conflict } from '../../lib/errors';
import { ledgerRepository, walletRepository } from './wallet.repository';

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
  /** The wallet side's Transaction History row. */
  transaction: WalletTransactionRow;
  /** The wallet as it is after the transfer. */
  wallet: WalletRow;
};

/**
 * The one place that moves money (DESIGN.md §6). One transfer moves a
 * positive amount between a wallet and another account (an escrow, or the
 * outside world), in one statement inside the caller's transaction: the
 * ledger_transfers row, the wallet's new balance (its row locked from here to
 * the commit) and its history row with the balance right after it.
 *
 * A deposit or withdrawal may run on the database itself: its one statement
 * is then its own transaction. Any other transfer runs in the caller's
 * transaction, which must already hold its other locks (deal → escrow) and have
 * checked its rules, including that the paying wallet has enough: the checks
 * here are a last line of defence that refuses to take any wallet or escrow
 * below zero.
 */
/** Told of every money movement once it has committed (the metrics count them by kind). */
type MovementListener = (kind: TransferKind, amountCents: number) => void;
const movementListeners = new Set<MovementListener>();

/** Listens to committed money movements; returns how to stop listening. */
export function onMoneyMovement(listener: MovementListener): () => void {
  movementListeners.add(listener);
  return () => movementListeners.delete(listener);
}

function announceMovement(db: DbOrTx, kind: TransferKind, amountCents: number) {
  if (movementListeners.size === 0) return;
  afterCommitOn(db)(() => {
    for (const listener of movementListeners) listener(kind, amountCents);
  });
}

export async function transfer(
  tx: DbOrTx,
  input: {
    kind: TransferKind;
    from: Account;
    to: Account;
    amountCents: number;
    dealId?: number | null;
    /** The milestone an escrow movement is for (none for a settlement's split, which is the deal's). */
    milestoneId?: number | null;
    /** Shown in the Transaction History. */
    description: string;
    /** Says why a wallet cannot pay (its balance would go below zero), in the caller's words. */
    insufficient?: (wallet: WalletRow) => AppError;
  },
): Promise<TransferResult> {
  const { kind, from, to, amountCents } = input;
  const fromName = accountName(from);
  const toName = accountName(to);
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
    throw new Error(`ledger: refusing to transfer ${amountCents} cents`);
  }
  const side =
    from.kind === 'wallet' && to.kind !== 'wallet'
      ? { userId: from.userId, sign: -1 }
      : to.kind === 'wallet' && from.kind !== 'wallet'
        ? { userId: to.userId, sign: 1 }
        : null;
  if (!side) throw new Error(`ledger: a transfer has exactly one wallet side (${fromName} → ${toName})`);
  if (from.kind === 'escrow') {
    const held = await ledgerRepository.balanceOf(tx, fromName);
    if (held < amountCents) {
      throw new Error(`ledger: ${fromName} holds ${held} cents and cannot pay out ${amountCents}`);
    }
  }
  const move = () =>
    walletRepository.moveWallet(tx, {
      userId: side.userId,
      delta: side.sign * amountCents,
      depositedCents: kind === 'deposit' ? amountCents : 0,
      withdrawnCents: kind === 'withdraw' ? amountCents : 0,
      maxBalanceCents: maxWalletBalanceCents,
      transfer: {
        kind,
        fromAccount: fromName,
        toAccount: toName,
        amountCents,
        dealId: input.dealId ?? null,
        milestoneId: input.milestoneId ?? null,
      },
      history: { type: walletTransactionType[kind], description: input.description },
    });
  const moved = await move();
  if (moved) {
    announceMovement(tx, kind, amountCents);
    return moved;
  }
  // Nothing moved: the user may have no wallet yet (their first movement creates it, and the wallet
  // may just have been created by a movement racing this one), or the balance refused the amount.
  await walletRepository.ensure(tx, side.userId);
  const retried = await move();
  if (retried) {
    announceMovement(tx, kind, amountCents);
    return retried;
  }
  if (side.sign > 0) throw conflict('This would take the wallet above its maximum balance.');
  const wallet = (await walletRepository.find(tx, side.userId))!;
  throw (
    input.insufficient?.(wallet) ??
    conflict(
      `Insufficient balance for a payment of ${formatUsdCents(amountCents)}.`,
      errorCodes.insufficientFunds,
    )
  );
}

/** A deposit as `transfer` takes it: money comes in from the outside world. */
export const depositInto = (userId: number, deposit: { amountCents: number; description: string }) => ({
  kind: 'deposit' as const,
  from: accounts.world,
  to: accounts.wallet(userId),
  ...deposit,
});

/**
 * Several deposits into one wallet, as `transfer` would make them one after another, in one
 * statement: each has its own ledger_transfers row and history row with the balance right after it
 * (deposits.ts gathers them). Nothing moves, and nothing comes back, when their total would take the
 * wallet past its maximum: the caller then makes them one by one, so that each has its own answer.
 */
export async function depositTogether(
  db: DbOrTx,
  input: {
    userId: number;
    deposits: Array<{ amountCents: number; description: string }>;
    requester: ReturnType<typeof requesterSettings>;
  },
): Promise<TransferResult[] | undefined> {
  for (const { amountCents } of input.deposits) {
    if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
      throw new Error(`ledger: refusing to transfer ${amountCents} cents`);
    }
  }
  const move = () =>
    walletRepository.depositMany(db, {
      userId: input.userId,
      deposits: input.deposits,
      maxBalanceCents: maxWalletBalanceCents,
      transfer: {
        kind: 'deposit',
        fromAccount: accountName(accounts.world),
        toAccount: accountName(accounts.wallet(input.userId)),
      },
      historyType: walletTransactionType.deposit,
      requester: input.requester,
    });
  const announce = (moved: TransferResult[] | undefined) => {
    for (const deposit of moved ? input.deposits : []) announceMovement(db, 'deposit', deposit.amountCents);
    return moved;
  };
  const moved = await move();
  if (moved) return announce(moved);
  // As in `transfer`: the user's first movement creates their wallet.
  await walletRepository.ensure(db, input.userId);
  return announce(await move());
}
