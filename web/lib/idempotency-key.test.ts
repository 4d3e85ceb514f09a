import { describe, expect, it } from 'vitest';
import { IdempotencyKeys, newIdempotencyKey } from './idempotency-key';

describe('IdempotencyKeys', () => {
  const counter = () => {
    let n = 0;
    return () => `key-${++n}`;
  };

  it('reuses the key while the same action is retried, and spends it on success', () => {
    const keys = new IdempotencyKeys(counter());
    expect(keys.keyFor('deposit:1000')).toBe('key-1');
    // The first attempt failed (say, the connection dropped): the retry sends the same key.
    expect(keys.keyFor('deposit:1000')).toBe('key-1');
    keys.succeeded('deposit:1000');
    // Depositing the same amount again is a new action.
    expect(keys.keyFor('deposit:1000')).toBe('key-2');
  });

  it('gives a different action a new key', () => {
    const keys = new IdempotencyKeys(counter());
    expect(keys.keyFor('deposit:1000')).toBe('key-1');
    expect(keys.keyFor('deposit:2000')).toBe('key-2');
    keys.succeeded('deposit:1000');
    expect(keys.keyFor('deposit:2000')).toBe('key-2');
  });

  it('makes random keys', () => {
    const a = newIdempotencyKey();
    expect(a.length).toBeGreaterThanOrEqual(32);
    expect(newIdempotencyKey()).not.toBe(a);
  });
});
