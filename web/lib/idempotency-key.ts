import { useRef } from 'react';
import { newRandomId } from './random-id';

/** A fresh random key for one user action. */
export const newIdempotencyKey = newRandomId;

/**
 * The Idempotency-Key of a money call (DESIGN.md §4): one key per user action. Retrying the same
 * action (same call, same amount) after a failure sends the same key again, so if the first attempt
 * did reach the server, the retry replays its answer instead of moving the money twice. Once an
 * action has succeeded its key is spent: doing it again is a new action with a new key.
 */
export class IdempotencyKeys {
  private pending: { action: string; key: string } | null = null;

  constructor(private readonly generate: () => string = newIdempotencyKey) {}

  /** The key for this action: the pending one when it is the same action, else a new one. */
  keyFor(action: string): string {
    if (this.pending?.action !== action) this.pending = { action, key: this.generate() };
    return this.pending.key;
  }

  /** The action succeeded: its key must not be sent again. */
  succeeded(action: string): void {
    if (this.pending?.action === action) this.pending = null;
  }
}

/** One IdempotencyKeys per form or box, kept across renders. */
export function useIdempotencyKeys(): IdempotencyKeys {
  const keys = useRef<IdempotencyKeys | null>(null);
  keys.current ??= new IdempotencyKeys();
  return keys.current;
}
