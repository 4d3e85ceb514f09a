import { errorCodes } from '../../../contract/errors';
import { limits } from '../../../contract/limits';
import { formatCents } from '../../../contract/money';
import type { WalletMovementResponse } from '../../../contract/wallet';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { conflict } from '../../lib/errors';
import { type IdempotencyRequest, idempotent, type Outcome } from './idempotency';
import { accounts, transfer } from './ledger';
import { runTransaction } from './run-transaction';
import { presentTransaction, presentWallet } from './wallet.presenter';
import { type WalletRow, walletRepository } from './wallet.repository';

/** A user's wallet: balance, history, deposits and withdrawals (DESIGN.md §5 Wallet). */
export class WalletService {
  constructor(private readonly db: Db) {}

  async get(userId: number) {
    await walletRepository.ensure(this.db, userId);
    return presentWallet(await walletRepository.find(this.db, userId));
  }

  async transactions(userId: number, options: { limit?: number; before?: number }) {
    const rows = await walletRepository.listTransactions(this.db, userId, {
      beforeId: options.before,
      limit: Math.min(options.limit ?? limits.page.defaultLimit, limits.page.maxLimit),
    });
    return rows.map(presentTransaction);
  }

  /** Simulated deposit (no payment provider): money comes in from the outside world. */
  async deposit(
    userId: number,
    amountCents: number,
    idempotency?: IdempotencyRequest,
  ): Promise<Outcome<WalletMovementResponse>> {
    return runTransaction(this.db, (tx) =>
      idempotent(tx, userId, idempotency, async () => {
        await this.lockWallet(tx, userId);
        const moved = await transfer(tx, {
          kind: 'deposit',
          from: accounts.world,
          to: accounts.wallet(userId),
          amountCents,
          description: `Deposit of $${formatCents(amountCents)}`,
        });
        return {
          statusCode: 200,
          body: {
            message: `Successfully deposited $${formatCents(amountCents)}`,
            wallet: presentWallet(moved.wallets[0]),
            transaction: presentTransaction(moved.walletTransactions[0]!),
          },
        };
      }),
    );
  }

  /** Money goes back out, never more than the balance. */
  async withdraw(
    userId: number,
    amountCents: number,
    idempotency?: IdempotencyRequest,
  ): Promise<Outcome<WalletMovementResponse>> {
    return runTransaction(this.db, (tx) =>
      idempotent(tx, userId, idempotency, async () => {
        const wallet = await this.lockWallet(tx, userId);
        if (wallet.balanceCents < amountCents) {
          throw conflict(
            `Insufficient balance: you asked to withdraw $${formatCents(amountCents)}, your balance is $${formatCents(wallet.balanceCents)}.`,
            errorCodes.insufficientFunds,
          );
        }
        const moved = await transfer(tx, {
          kind: 'withdraw',
          from: accounts.wallet(userId),
          to: accounts.world,
          amountCents,
          description: `Withdrawal of $${formatCents(amountCents)}`,
        });
        return {
          statusCode: 200,
          body: {
            message: `Successfully withdrew $${formatCents(amountCents)}`,
            wallet: presentWallet(moved.wallets[0]),
            transaction: presentTransaction(moved.walletTransactions[0]!),
          },
        };
      }),
    );
  }

  /**
   * Creates the wallet if needed and locks it for the rest of the transaction.
   * Other features' movements (escrow, completion) call this after locking
   * their deal and escrow rows, keeping the one lock order.
   */
  async lockWallet(tx: Tx, userId: number): Promise<WalletRow> {
    const [existing] = await walletRepository.lockMany(tx, [userId]);
    if (existing) return existing;
    await walletRepository.ensure(tx, userId);
    const [row] = await walletRepository.lockMany(tx, [userId]);
    if (!row) throw new Error(`wallet of user ${userId} vanished while locking it`);
    return row;
  }

  async find(db: DbOrTx, userId: number) {
    return presentWallet(await walletRepository.find(db, userId));
  }
}
