import { describe, expect, it } from 'vitest';
import {
  checkAmount,
  formatTransactionAmount,
  invalidAmountMessage,
  transactionDirection,
  transactionLabel,
} from './wallet-format';

const bounds = { maxCents: 100_000_000, tooMuch: () => 'too much' };

describe('transaction rows', () => {
  it('signs deposits, refunds and received payments +, the others −', () => {
    expect(formatTransactionAmount({ type: 'deposit', amount: 10 })).toBe('+$10.00');
    expect(formatTransactionAmount({ type: 'escrow_refund', amount: 2.5 })).toBe('+$2.50');
    expect(formatTransactionAmount({ type: 'payment_received', amount: 1234.5 })).toBe('+$1,234.50');
    expect(formatTransactionAmount({ type: 'withdraw', amount: 3 })).toBe('\u2212$3.00');
    expect(formatTransactionAmount({ type: 'escrow_lock', amount: 0.01 })).toBe('\u2212$0.01');
    expect(transactionDirection({ type: 'escrow_lock', amount: 5 })).toBe('out');
    expect(transactionDirection({ type: 'deposit', amount: 5 })).toBe('in');
  });

  it('shows the description, else the type in words', () => {
    expect(transactionLabel({ type: 'deposit', description: 'Wallet deposit' })).toBe('Wallet deposit');
    expect(transactionLabel({ type: 'payment_received', description: '' })).toBe('payment received');
    expect(transactionLabel({ type: 'escrow_lock', description: '   ' })).toBe('escrow lock');
  });
});

describe('checkAmount', () => {
  it('accepts positive amounts with at most two decimals, exactly', () => {
    expect(checkAmount('10', bounds)).toEqual({ ok: true, cents: 1000, amount: 10 });
    expect(checkAmount(' 0.01 ', bounds)).toEqual({ ok: true, cents: 1, amount: 0.01 });
    expect(checkAmount('19.9', bounds)).toEqual({ ok: true, cents: 1990, amount: 19.9 });
    expect(checkAmount('.5', bounds)).toEqual({ ok: true, cents: 50, amount: 0.5 });
    expect(checkAmount('0.29', bounds)).toEqual({ ok: true, cents: 29, amount: 0.29 });
    expect(checkAmount('1000000', bounds)).toEqual({ ok: true, cents: 100_000_000, amount: 1_000_000 });
  });

  it('refuses empty, zero, negative, over-precise and non-numeric input', () => {
    for (const input of ['', ' ', '0', '0.00', '-5', '0.001', '1.234', 'abc', '1e3', '1,5', '.']) {
      expect(checkAmount(input, bounds)).toEqual({ ok: false, error: invalidAmountMessage });
    }
  });

  it('refuses amounts above the maximum with the caller’s message', () => {
    expect(checkAmount('1000000.01', bounds)).toEqual({ ok: false, error: 'too much' });
    expect(checkAmount('5', { maxCents: 0, tooMuch: (max) => `max ${max}` })).toEqual({
      ok: false,
      error: 'max 0',
    });
  });
});
