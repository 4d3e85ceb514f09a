import type { DbOrTx } from '../../db/client';
import { requesterSettings } from '../../db/requester';
import { depositInto, depositTogether, type TransferResult, transfer } from './ledger';

type Deposit = { amountCents: number; description: string };
type Waiting = Deposit & { resolve: (moved: TransferResult) => void; reject: (error: unknown) => void };

/** At most this many deposits in one statement. */
const maxTogether = 100;

/**
 * Deposits without an Idempotency-Key, gathered per wallet (a group commit). A deposit that finds its
 * wallet idle is written at once, alone, by one statement committed on its own. Deposits that arrive
 * while it is being written wait for it and are then written together by the next statement, in their
 * order, each with its own ledger and history rows: many concurrent deposits into one wallet take its
 * row lock once per statement instead of queueing for it one by one in the database. Each is answered
 * once its statement has committed, and a failed statement fails only the deposits it carried.
 *
 * Per process: each instance gathers its own, and the wallet's row lock orders their statements.
 * Deposits with an Idempotency-Key are not gathered: each stores its answer in its own transaction.
 */
export class Deposits {
  /** Per wallet and requester, the deposits waiting for the statement in flight. */
  private readonly waiting = new Map<string, Waiting[]>();

  constructor(private readonly db: DbOrTx) {}

  add(userId: number, deposit: Deposit): Promise<TransferResult> {
    // One statement names one requester for the audit log: only the same requester's deposits go together.
    const requester = requesterSettings();
    const key = `${userId}\u0000${requester.actorId}\u0000${requester.address}`;
    return new Promise((resolve, reject) => {
      const waiting = { ...deposit, resolve, reject };
      const queue = this.waiting.get(key);
      if (queue) {
        queue.push(waiting);
        return;
      }
      this.waiting.set(key, []);
      void this.write(key, userId, requester, [waiting]);
    });
  }

  /** Writes `batch`, then whatever gathered meanwhile, until the wallet's queue is empty. */
  private async write(
    key: string,
    userId: number,
    requester: ReturnType<typeof requesterSettings>,
    first: Waiting[],
  ) {
    for (let batch = first; batch.length > 0; batch = this.waiting.get(key)!.splice(0, maxTogether)) {
      await this.writeTogether(userId, requester, batch);
    }
    this.waiting.delete(key);
  }

  private async writeTogether(
    userId: number,
    requester: ReturnType<typeof requesterSettings>,
    batch: Waiting[],
  ) {
    try {
      if (batch.length === 1) {
        batch[0]!.resolve(await transfer(this.db, depositInto(userId, batch[0]!)));
        return;
      }
      const moved = await depositTogether(this.db, { userId, deposits: batch, requester });
      if (moved) {
        for (const [i, waiting] of batch.entries()) waiting.resolve(moved[i]!);
        return;
      }
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    // Together they would take the wallet past its maximum: one by one, each with its own answer.
    for (const waiting of batch) {
      try {
        waiting.resolve(await transfer(this.db, depositInto(userId, waiting)));
      } catch (error) {
        waiting.reject(error);
      }
    }
  }
}
