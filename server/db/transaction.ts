import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { Db, Tx } from './client';
import { handleOn, poolOf } from './driver';
import { isSerializationFailure } from './postgres-errors';
import { requesterSettings } from './requester';

/** Schedules something to do once the transaction has committed (publishing its events). */
export type AfterCommit = (effect: () => void) => void;

/**
 * Runs an effect of a committed change. The change has happened, so a failing effect is logged and
 * never turns the answer into an error (a client would retry something that succeeded).
 */
function runEffect(effect: () => void, log: FastifyBaseLogger) {
  try {
    effect();
  } catch (error) {
    log.error({ err: error }, 'an effect after a committed change failed');
  }
}

/** The `AfterCommit` of a change that committed on its own (one statement outside a transaction): effects run at once. */
export const runCommittedEffects =
  (log: FastifyBaseLogger): AfterCommit =>
  (effect) =>
    runEffect(effect, log);

/** The effects of the transaction now running on each handle `transact` gave out. */
const runningTransactions = new WeakMap<object, AfterCommit>();

/**
 * The AfterCommit of whatever `db` is: the transaction `transact` is running on that handle (its effects
 * wait for its commit), or, for the pool itself (a statement that commits on its own), one that runs
 * the effect at once — for code deep below a service (the ledger) that is handed only the handle.
 */
export function afterCommitOn(db: object): AfterCommit {
  return runningTransactions.get(db) ?? runAtOnce;
}
const runAtOnce: AfterCommit = (effect) => {
  try {
    effect();
  } catch {
    // An effect of a committed change must not fail it (see runEffect).
  }
};

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
  const pool = poolOf(db);
  // One Drizzle handle per pooled connection, kept as long as the connection: the hot queries that
  // `prepared` builds per handle are then built once per connection, not once per transaction.
  const handles = new WeakMap<pg.PoolClient, Tx>();
  const handleOf = (client: pg.PoolClient) => {
    let handle = handles.get(client);
    if (!handle) {
      handle = handleOn(client);
      handles.set(client, handle);
    }
    return handle;
  };

  return async (work) => {
    for (let attempt = 1; ; attempt++) {
      const effects: Array<() => void> = [];
      let result: Awaited<ReturnType<typeof work>>;
      try {
        result = await inTransaction(pool, async (client) => {
          const handle = handleOf(client);
          const afterCommit: AfterCommit = (effect) => effects.push(effect);
          runningTransactions.set(handle, afterCommit);
          try {
            return await work(handle, afterCommit);
          } finally {
            runningTransactions.delete(handle);
          }
        });
      } catch (error) {
        if (attempt >= maxAttempts || !isSerializationFailure(error)) throw error;
        await sleep(Math.random() * 10 * attempt);
        continue;
      }
      for (const effect of effects) runEffect(effect, log);
      return result;
    }
  };
}

/**
 * BEGIN, `work` on the same connection, then COMMIT (ROLLBACK when it throws). The BEGIN and the
 * requester's name for the audit log go to PostgreSQL as one message (the simple query protocol
 * takes several statements when they carry no parameters): one round trip less for every write.
 */
async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // The connection may drop while it is ours (the database restarts): the pool listens for that only
  // while a connection is idle, and an error nobody listens for would end the process.
  const onConnectionError = (error: Error) => {
    broken = error;
  };
  client.on('error', onConnectionError);
  try {
    try {
      await client.query(`begin;${requesterSql(client)}`);
    } catch (error) {
      broken = error as Error;
      throw error;
    }
    try {
      const result = await work(client);
      await client.query('commit');
      return result;
    } catch (error) {
      try {
        await client.query('rollback');
      } catch (rollbackError) {
        // The connection is unusable (it broke mid-transaction): the pool must not hand it out again.
        broken = rollbackError as Error;
      }
      throw error;
    }
  } finally {
    client.off('error', onConnectionError);
    client.release(broken);
  }
}

/** Sets `requesterSettings` for the transaction at its BEGIN; literals are escaped by the driver. */
function requesterSql(client: pg.PoolClient): string {
  const settings = requesterSettings();
  if (!settings.actorId && !settings.address) return '';
  const setting = (name: string, value: string) =>
    `set_config(${client.escapeLiteral(`dealmaker.${name}`)}, ${client.escapeLiteral(value)}, true)`;
  return `select ${setting('actor_id', settings.actorId)}, ${setting('actor_username', settings.actorUsername)}, ${setting('address', settings.address)};`;
}
