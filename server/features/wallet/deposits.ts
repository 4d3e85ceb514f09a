import type { DbOrTx } from '../../db/client';
import { requesterSettings } from '../../db/requester';
import { GroupCommit, type Pending } from '../../lib/group-commit';
import { depositInto, depositTogether, type TransferResult, transfer } from './ledger';

type Deposit = { amountCents: number; description: string };
/** A deposit into `userId`'s wallet, made by `requester` (named by the audit log). */
type Gathered = { userId: number; requester: ReturnType<typeof requesterSettings>; deposit: Deposit };

/**
 * Deposits without an Idempotency-Key, gathered per wallet (a group commit, lib/group-commit.ts). A
 * deposit that finds its wallet idle is written at once, alone, by one statement committed on its own.
 * Deposits that arrive while it is being written are then written together by the next statement, in
 * their order, each with its own ledger and history rows: many concurrent deposits into one wallet take
 * its row lock once per statement instead of queueing for it one by one in the database. Each is
 * answered once its statement has committed, and a failed statement fails only the deposits it carried.
 *
 * Per process: each instance gathers its own, and the wallet's row lock orders their statements.
 * Deposits with an Idempotency-Key are not gathered: each stores its answer in its own transaction.
 */
export class Deposits {
  private readonly gathered: GroupCommit<Gathered, TransferResult>;

  constructor(private readonly db: DbOrTx) {
    this.gathered = new GroupCommit({ maxTogether: 100, write: (batch) => this.writeTogether(batch) });
  }

  add(userId: number, deposit: Deposit): Promise<TransferResult> {
    // One statement names one requester for the audit log: only the same requester's deposits go together.
    const requester = requesterSettings();
    const key = `${userId}\u0000${requester.actorId}\u0000${requester.address}`;
    return this.gathered.add(key, { userId, requester, deposit });
  }

  private async writeTogether(batch: Array<Pending<Gathered, TransferResult>>) {
    const { userId, requester } = batch[0]!.item;
    if (batch.length === 1) {
      batch[0]!.resolve(await transfer(this.db, depositInto(userId, batch[0]!.item.deposit)));
      return;
    }
    const moved = await depositTogether(this.db, {
      userId,
      deposits: batch.map((pending) => pending.item.deposit),
      requester,
    });
    if (moved) {
      for (const [i, pending] of batch.entries()) pending.resolve(moved[i]!);
      return;
    }
    // Together they would take the wallet past its maximum: one by one, each with its own answer.
    for (const pending of batch) {
      try {
        pending.resolve(await transfer(this.db, depositInto(userId, pending.item.deposit)));
      } catch (error) {
        pending.reject(error);
      }
    }
  }
}
