import { errorCodes } from '../../../contract/errors';
import { limits } from '../../../contract/limits';
import { formatUsdCents } from '../../../contract/money';
import type { WalletMovementResponse, WalletTransactionType } from '../../../contract/wallet';
import type { Db, DbOrTx, Tx } from '../../db/client';
import type { WalletRow } from '../../db/schema';
import type { Transact } from '../../db/transaction';
import { conflict } from '../../lib/errors';
import { type Answer, type IdempotencyRequest, idempotent, type Outcome } from '../../lib/idempotency';
import { Deposits } from './deposits';
import { accounts, depositInto, type TransferResult, transfer } from './ledger';
import { checkLedger } from './ledger-check';
import { presentTransaction, presentWallet, transactionsToCsv } from './wallet.presenter';
import { walletRepository } from './wallet.repository';

/** One movement between a wallet and a deal's escrow, as the escrow feature asks for it. */
export type EscrowMovement = {
  userId: number;
  dealId: number;
  /** The milestone the money is for; none for a settlement's split of the deal's held money. */
  milestoneId: number | null;
  amountCents: number;
  description: string;
};

/**
 * A user's wallet (DESIGN.md §5 Wallet) and the ledger behind it (§6): the
 * only place that moves money. Deposits and withdrawals are its own calls;
 * the escrow feature moves money between wallets and escrows through
 * `moveToEscrow` / `moveFromEscrow`, inside its own transaction.
 */
export class WalletService {
  private readonly deposits: Deposits;

  constructor(
    private readonly deps: {
      db: Db;
      transact: Transact;
    },
  ) {
    this.deposits = new Deposits(deps.db);
  }

  /** The user's wallet; the first look creates its (empty) row. */
  async get(userId: number) {
    const existing = await walletRepository.find(this.deps.db, userId);
    if (existing) return presentWallet(existing);
    await walletRepository.ensure(this.deps.db, userId);
    return presentWallet(await walletRepository.find(this.deps.db, userId));
  }

  async transactions(
    userId: number,
    options: { limit?: number; before?: number; type?: WalletTransactionType },
  ) {
    const rows = await walletRepository.listTransactions(this.deps.db, userId, {
      beforeId: options.before,
      limit: Math.min(options.limit ?? limits.page.defaultLimit, limits.page.maxLimit),
      type: options.type,
    });
    return rows.map(presentTransaction);
  }

  /** Every money invariant, checked from the database (the operators' ledger check). */
  checkLedger() {
    return checkLedger(this.deps.db);
  }

  /** The whole Transaction History (or one type of it), newest first, as CSV. */
  async transactionsCsv(userId: number, options: { type?: WalletTransactionType }) {
    const rows = await walletRepository.listTransactions(this.deps.db, userId, { type: options.type });
    return transactionsToCsv(rows.map(presentTransaction));
  }

  /**
   * Simulated deposit (no payment provider): money comes in from the outside world. Without an
   * Idempotency-Key it joins the wallet's other concurrent deposits (deposits.ts).
   */
  async deposit(userId: number, amountCents: number, idempotency?: IdempotencyRequest) {
    const deposit = { amountCents, description: `Deposit of ${formatUsdCents(amountCents)}` };
    const answer = (moved: TransferResult) =>
      movementAnswer(`Successfully deposited ${formatUsdCents(amountCents)}`, moved);
    if (!idempotency) return { ...answer(await this.deposits.add(userId, deposit)), replayed: false };
    return this.movement(userId, idempotency, async (tx) =>
      answer(await transfer(tx, depositInto(userId, deposit))),
    );
  }

  /** Money goes back out, never more than the balance. */
  withdraw(userId: number, amountCents: number, idempotency?: IdempotencyRequest) {
    return this.movement(userId, idempotency, async (db) =>
      movementAnswer(
        `Successfully withdrew ${formatUsdCents(amountCents)}`,
        await transfer(db, {
          kind: 'withdraw',
          from: accounts.wallet(userId),
          to: accounts.world,
          amountCents,
          description: `Withdrawal of ${formatUsdCents(amountCents)}`,
          insufficient: (wallet) =>
            conflict(
              `Insufficient balance: you asked to withdraw ${formatUsdCents(amountCents)}, your balance is ${formatUsdCents(wallet.balanceCents)}.`,
              errorCodes.insufficientFunds,
            ),
        }),
      ),
    );
  }

  /**
   * A withdrawal, or a deposit with an Idempotency-Key. With a key it runs in a transaction with the
   * stored answer; without one, its transfer is a single statement committed on its own, so the
   * wallet's row is locked only while PostgreSQL runs and commits it, not across round trips to this
   * process: one wallet under many concurrent movements serialises on that lock.
   */
  private async movement(
    userId: number,
    idempotency: IdempotencyRequest | undefined,
    move: (db: DbOrTx) => Promise<Answer<WalletMovementResponse>>,
  ): Promise<Outcome<WalletMovementResponse>> {
    if (!idempotency) return { ...(await move(this.deps.db)), replayed: false };
    return this.deps.transact((tx) => idempotent(tx, userId, idempotency, () => move(tx)));
  }

  /**
   * A dealer's half goes from their wallet into the deal's escrow, refused
   * with 409 INSUFFICIENT_FUNDS when the balance is short. Answers the wallet
   * after it (unchanged for a zero share: a one-cent budget's counterpart).
   */
  async moveToEscrow(tx: Tx, movement: EscrowMovement): Promise<WalletRow> {
    const { userId, dealId, amountCents } = movement;
    if (amountCents === 0) return this.walletOf(tx, userId);
    const moved = await transfer(tx, {
      kind: 'escrow_lock',
      from: accounts.wallet(userId),
      to: accounts.escrow(dealId),
      amountCents,
      dealId,
      milestoneId: movement.milestoneId,
      description: movement.description,
      insufficient: (wallet) =>
        conflict(
          `Insufficient balance: you need ${formatUsdCents(amountCents)}, your balance is ${formatUsdCents(wallet.balanceCents)}. Please deposit first.`,
          errorCodes.insufficientFunds,
        ),
    });
    return moved.wallet;
  }

  /**
   * Money leaves the deal's escrow for a wallet: a half taken back
   * (`escrow_refund`) or the payment to the dealmaker (`escrow_release`,
   * shown to them as payment_received). Answers the wallet after it.
   */
  async moveFromEscrow(
    tx: Tx,
    kind: 'escrow_refund' | 'escrow_release',
    movement: EscrowMovement,
  ): Promise<WalletRow> {
    const { userId, dealId, amountCents } = movement;
    if (amountCents === 0) return this.walletOf(tx, userId);
    const moved = await transfer(tx, {
      kind,
      from: accounts.escrow(dealId),
      to: accounts.wallet(userId),
      amountCents,
      dealId,
      milestoneId: movement.milestoneId,
      description: movement.description,
    });
    return moved.wallet;
  }

  /** The user's wallet row, created empty if they never had one. */
  private async walletOf(tx: Tx, userId: number): Promise<WalletRow> {
    const existing = await walletRepository.find(tx, userId);
    if (existing) return existing;
    await walletRepository.ensure(tx, userId);
    return (await walletRepository.find(tx, userId))!;
  }
}

function movementAnswer(
  message: string,
  moved: TransferResult,
): { statusCode: number; body: WalletMovementResponse } {
  return {
    statusCode: 200,
    body: {
      message,
      wallet: presentWallet(moved.wallet),
      transaction: presentTransaction(moved.transaction),
    },
  };
}
