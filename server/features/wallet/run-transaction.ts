import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client';
import { isSerializationFailure } from '../../lib/errors';

const maxAttempts = 5;

/**
 * Runs one money movement in one transaction. Every movement takes its row
 * locks in the same order (idempotency key → deal → escrow → wallets by
 * ascending user id), so PostgreSQL should never pick one as a deadlock
 * victim; should it happen anyway (or a serialization failure), the whole
 * transaction is rolled back and run again, never surfaced as a 500.
 */
export async function runTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (attempt >= maxAttempts || !isSerializationFailure(error)) throw error;
      await sleep(Math.random() * 10 * attempt);
    }
  }
}

/**
 * Publishes a committed movement's events. The money has moved by then, so a
 * failing event sink must not turn the answer into an error (a client would
 * then retry a payment that succeeded): it is logged and the answer stands.
 */
export function publishAfterCommit(log: FastifyBaseLogger, publish: (() => void) | undefined) {
  if (!publish) return;
  try {
    publish();
  } catch (error) {
    log.error({ err: error }, 'publishing events after a committed money movement failed');
  }
}
