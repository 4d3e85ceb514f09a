import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { isSerializationFailure } from '../lib/errors';
import { currentRequester } from '../lib/request-context';
import type { Db, Tx } from './client';

/** Schedules something to do once the transaction has committed (publishing its events). */
export type AfterCommit = (effect: () => void) => void;

/** Runs `work` in one transaction and, once it has committed, the effects it scheduled. */
export type Transact = <T>(work: (tx: Tx, afterCommit: AfterCommit) => Promise<T>) => Promise<T>;

const maxAttempts = 5;

/**
 * The one way services open a transaction (docs/decisions/0005-events-after-commit.md).
 *
 * - Effects scheduled with `afterCommit` run only after the commit, so nobody
 *   hears of a change that was rolled back; a rolled-back attempt's effects
 *   are dropped.
 * - The change has happened by then, so a failing effect is logged and never
 *   turns the answer into an error (a client would retry a payment that
 *   succeeded).
 * - Every transaction takes its row locks in one order (idempotency key →
 *   deal → escrow → wallets by ascending user id), so PostgreSQL should never
 *   pick one as a deadlock victim; should it happen anyway (or a
 *   serialization failure), the whole transaction runs again instead of
 *   surfacing as a 500.
 * - Inside a request, the transaction first names who makes it and from
 *   where: the audit log's triggers record that with every row they log.
 */
export function createTransact(db: Db, log: FastifyBaseLogger): Transact {
  return async (work) => {
    for (let attempt = 1; ; attempt++) {
      const effects: Array<() => void> = [];
      let result: Awaited<ReturnType<typeof work>>;
      try {
        result = await db.transaction(async (tx) => {
          await nameTheRequester(tx);
          return work(tx, (effect) => effects.push(effect));
        });
      } catch (error) {
        if (attempt >= maxAttempts || !isSerializationFailure(error)) throw error;
        await sleep(Math.random() * 10 * attempt);
        continue;
      }
      for (const effect of effects) {
        try {
          effect();
        } catch (error) {
          log.error({ err: error }, 'an effect after a committed transaction failed');
        }
      }
      return result;
    }
  };
}

/** Tells the audit log's triggers, for this transaction only, who makes the change and from which address. */
async function nameTheRequester(tx: Tx) {
  const { actor, address } = currentRequester();
  if (!actor && !address) return;
  await tx.execute(sql`select set_config('dealmaker.actor_id', ${actor ? String(actor.id) : ''}, true),
    set_config('dealmaker.actor_username', ${actor?.username ?? ''}, true),
    set_config('dealmaker.address', ${address ?? ''}, true)`);
}
