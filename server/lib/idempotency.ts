import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorCodes } from '../../contract/errors';
import { idempotencyKeyHeader, idempotencyReplayedHeader } from '../../contract/idempotency';
import type { DbOrTx, Tx } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import { conflict } from './errors';

/** A money call's Idempotency-Key and a fingerprint of what it asks for. */
export type IdempotencyRequest = { key: string; fingerprint: string };

/** An answer to a money call: what the client receives. */
export type Answer<T> = { statusCode: number; body: T };

export type Outcome<T> = Answer<T> & {
  /** True when this is the stored answer of an earlier call with the same key. */
  replayed: boolean;
};

/**
 * The key of a request (validated by the route's header schema), or undefined
 * when the client sent none. The fingerprint covers the method, the route,
 * its parameters and the validated body: the same key with anything else
 * different is refused rather than answered with an unrelated stored answer.
 */
export function idempotencyOf(
  request: FastifyRequest,
  input: unknown = null,
): IdempotencyRequest | undefined {
  const key = request.headers[idempotencyKeyHeader];
  if (typeof key !== 'string') return undefined;
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([request.method, request.routeOptions.url, request.params ?? null, input]))
    .digest('hex');
  return { key, fingerprint };
}

/**
 * Runs a money movement at most once per (user, key), inside the caller's
 * transaction. The key's advisory lock is the transaction's first lock, so a
 * concurrent retry waits here until the first call commits and then replays
 * its answer. The answer is stored in the same transaction as the movement:
 * either both happen or neither. A refused call (an AppError: 4xx) rolls the
 * transaction back and stores nothing, so a retry after fixing the cause
 * (say, depositing first) runs again — it moved no money the first time.
 */
export async function idempotent<T>(
  tx: Tx,
  userId: number,
  request: IdempotencyRequest | undefined,
  work: () => Promise<Answer<T>>,
): Promise<Outcome<T>> {
  if (!request) return { ...(await work()), replayed: false };
  await idempotencyRepository.lock(tx, userId, request.key);
  const stored = await idempotencyRepository.find(tx, userId, request.key);
  if (stored) {
    if (stored.requestHash !== request.fingerprint) {
      throw conflict(
        'This Idempotency-Key was already used for a different request. Use a new key for a new request.',
        errorCodes.idempotencyMismatch,
      );
    }
    return { statusCode: stored.statusCode, body: stored.responseBody as T, replayed: true };
  }
  const answer = await work();
  await idempotencyRepository.insert(tx, {
    userId,
    key: request.key,
    requestHash: request.fingerprint,
    statusCode: answer.statusCode,
    responseBody: answer.body,
  });
  return { ...answer, replayed: false };
}

/** Sends a money call's outcome; a replayed answer says so in a header. */
export function sendOutcome<T>(reply: FastifyReply, outcome: Outcome<T>) {
  if (outcome.replayed) reply.header(idempotencyReplayedHeader, 'true');
  return reply.status(outcome.statusCode).send(outcome.body);
}

/** The stored answers, one per (user, key). */
const idempotencyRepository = {
  async find(db: DbOrTx, userId: number, key: string) {
    const [row] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
    return row;
  },

  async insert(db: DbOrTx, values: typeof idempotencyKeys.$inferInsert) {
    await db.insert(idempotencyKeys).values(values);
  },

  /**
   * Holds a transaction-scoped advisory lock on (user, key): concurrent
   * retries with the same key run one after another, so the second finds the
   * first one's stored answer instead of moving money again.
   */
  async lock(db: DbOrTx, userId: number, key: string) {
    await db.execute(sql`select pg_advisory_xact_lock(${userId}::int, hashtext(${key}))`);
  },
};
