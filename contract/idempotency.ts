import { z } from 'zod';

/**
 * Money calls (deposit, withdraw, escrow pay and refund) accept this header: a
 * retry with the same key returns the first answer and moves no money again.
 * Keys are per user; the answer is replayed with `Idempotent-Replayed: true`.
 */
export const idempotencyKeyHeader = 'idempotency-key';
export const idempotencyReplayedHeader = 'idempotent-replayed';
export const idempotencyKeyMaxLength = 200;

/** Headers of a money call; other headers pass through untouched. */
export const idempotentHeadersSchema = z.looseObject({
  [idempotencyKeyHeader]: z
    .string()
    .min(1, 'Idempotency-Key must not be empty')
    .max(idempotencyKeyMaxLength, `Idempotency-Key must be at most ${idempotencyKeyMaxLength} characters`)
    .optional(),
});
