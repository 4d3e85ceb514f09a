import { describe, expect, it } from 'vitest';
import { counterpartOf } from './transaction-labels';

const deal = {
  title: 'Courier company',
  dealer_creator: 'alice',
  dealer_joined: 'bob',
  dealmaker: 'erin',
  is_completed: false,
};

describe('counterpartOf', () => {
  it('names the other side of each movement', () => {
    expect(counterpartOf({ type: 'deposit' }, undefined)).toMatch(/^From outside Dealmaker/);
    expect(counterpartOf({ type: 'withdraw' }, undefined)).toMatch(/^To outside Dealmaker/);
    expect(counterpartOf({ type: 'escrow_lock', dealId: 4 }, deal)).toBe(
      "To the escrow of 'Courier company', for @erin once the deal is completed",
    );
    expect(counterpartOf({ type: 'escrow_lock', dealId: 4 }, { ...deal, is_completed: true })).toBe(
      "To the escrow of 'Courier company', released to @erin when the deal was completed",
    );
    expect(counterpartOf({ type: 'escrow_refund', dealId: 4 }, deal)).toBe(
      "From the escrow of 'Courier company', your half taken back",
    );
    expect(counterpartOf({ type: 'payment_received', dealId: 4 }, deal)).toBe(
      "From the escrow of 'Courier company', paid in by @alice and @bob",
    );
  });

  it('says a settled deal’s escrow was split by the settlement, never released to the dealmaker', () => {
    const settled = { ...deal, is_completed: true, settled: true };
    const lock = counterpartOf({ type: 'escrow_lock', dealId: 4 }, settled);
    expect(lock).toBe(
      "To the escrow of 'Courier company', split by a dispute's settlement when the deal was completed",
    );
    expect(lock).not.toContain('released to @erin');
    expect(counterpartOf({ type: 'payment_received', dealId: 4 }, settled)).toBe(
      "From the escrow of 'Courier company', the dealmaker's share of a dispute's settlement",
    );
  });

  it('reads a deal completed by both marks as before when it says it was not settled', () => {
    const completed = { ...deal, is_completed: true, settled: false };
    expect(counterpartOf({ type: 'escrow_lock', dealId: 4 }, completed)).toBe(
      "To the escrow of 'Courier company', released to @erin when the deal was completed",
    );
    expect(counterpartOf({ type: 'payment_received', dealId: 4 }, completed)).toBe(
      "From the escrow of 'Courier company', paid in by @alice and @bob",
    );
  });

  it('falls back to the deal number while the deal is not loaded', () => {
    expect(counterpartOf({ type: 'escrow_lock', dealId: 4 }, undefined)).toBe('To the escrow of deal #4');
  });
});
