import { describe, expect, it } from 'vitest';
import type { DealCan } from '../../../contract/deals';
import { type Escrow, escrowMessages } from '../../../contract/escrow';
import { nothingAllowed } from '../../../contract/vocabulary';
import {
  escrowMessageTone,
  escrowShares,
  escrowViewOf,
  expiryCountdownText,
  noCounterpartReason,
  settledNotice,
} from './escrow-state';

const deal = {
  budget: 100.01,
  dealer_creator: 'ada',
  dealer_joined: 'bob',
  dealmaker: 'cy',
  is_completed: false,
  can: nothingAllowed,
};
/** What the server answers its viewer may do in that state (server/core/deal/deal-policy.ts decides). */
const answered = (allowed: Partial<DealCan>) => ({ can: { ...nothingAllowed, ...allowed } });
const escrow = (fields: Partial<Escrow> = {}): Escrow => ({
  amount: 100.01,
  status: 'pending',
  creatorPaid: false,
  counterpartPaid: false,
  creatorAmount: 50.01,
  counterpartAmount: 50,
  expiresAt: null,
  ...fields,
});

describe('escrowShares', () => {
  it('gives the creator the odd cent, like the server', () => {
    expect(escrowShares(100.01)).toEqual({ creatorAmount: 50.01, counterpartAmount: 50 });
    expect(escrowShares(100)).toEqual({ creatorAmount: 50, counterpartAmount: 50 });
    expect(escrowShares(0.01)).toEqual({ creatorAmount: 0.01, counterpartAmount: 0 });
  });
});

describe('escrowViewOf', () => {
  it('falls back to half the budget per side without an escrow record', () => {
    const view = escrowViewOf({ ...deal, budget: 300, ...answered({ payEscrow: true }) }, null, 'ada');
    expect(view).toMatchObject({ total: 300, creatorAmount: 150, counterpartAmount: 150, status: 'pending' });
    expect(view).toMatchObject({ mySide: 'creator', canPay: true, canRefund: false, notice: null });
  });

  it('offers the counterpart their own half, case-insensitively', () => {
    const view = escrowViewOf(
      { ...deal, ...answered({ payEscrow: true }) },
      escrow({ creatorPaid: true }),
      'BOB',
    );
    expect(view).toMatchObject({ mySide: 'counterpart', myAmount: 50, myPaid: false, canPay: true });
  });

  it('lets a dealer who paid take it back while the escrow is not locked', () => {
    const view = escrowViewOf(
      { ...deal, ...answered({ refundEscrow: true }) },
      escrow({ creatorPaid: true }),
      'ada',
    );
    expect(view).toMatchObject({ myPaid: true, canPay: false, canRefund: true });
  });

  it('says why a dealer cannot pay without a counterpart', () => {
    const view = escrowViewOf({ ...deal, dealer_joined: null }, escrow(), 'ada');
    expect(view).toMatchObject({ canPay: false, payBlockedReason: noCounterpartReason });
  });

  it('shows the locked and released messages and offers nothing then', () => {
    const locked = escrowViewOf(
      deal,
      escrow({ status: 'locked', creatorPaid: true, counterpartPaid: true }),
      'ada',
    );
    expect(locked).toMatchObject({ notice: escrowMessages.locked, canPay: false, canRefund: false });
    const released = escrowViewOf(
      { ...deal, is_completed: true },
      escrow({ status: 'completed', creatorPaid: true, counterpartPaid: true }),
      'bob',
    );
    expect(released).toMatchObject({
      status: 'completed',
      notice: escrowMessages.released,
      canRefund: false,
    });
  });

  it('gives the dealmaker no side and no buttons', () => {
    const view = escrowViewOf(deal, escrow(), 'cy');
    expect(view).toMatchObject({ mySide: null, myAmount: null, canPay: false, canRefund: false });
    expect(view.payBlockedReason).toBeNull();
  });
});

describe('escrowMessageTone', () => {
  it('is green for success or payment, red otherwise', () => {
    expect(escrowMessageTone(escrowMessages.locked)).toBe('success');
    expect(escrowMessageTone('Your half ($50.00) has been paid successfully.')).toBe('success');
    expect(escrowMessageTone('Failed to lock escrow. Please try again.')).toBe('error');
    expect(escrowMessageTone('Insufficient balance: you need $50.00')).toBe('error');
  });
});

describe('a settled escrow', () => {
  it('shows as settled, like completed, with nothing left to pay or take back', () => {
    const view = escrowViewOf(
      { ...deal, is_completed: true },
      escrow({ status: 'settled', creatorPaid: true, counterpartPaid: true }),
      'ada',
    );
    expect(view.status).toBe('settled');
    expect(view.notice).toBe(settledNotice);
    expect(view.canPay).toBe(false);
    expect(view.canRefund).toBe(false);
  });
});

describe('expiryCountdownText', () => {
  const now = new Date('2026-05-01T12:00:00Z');
  const inMs = (ms: number) => new Date(now.getTime() + ms).toISOString();

  it('counts whole hours down, and minutes under an hour', () => {
    expect(expiryCountdownText(inMs(23 * 3_600_000 + 59 * 60_000), now)).toBe('Half-payment expires in 23 h');
    expect(expiryCountdownText(inMs(24 * 3_600_000), now)).toBe('Half-payment expires in 24 h');
    expect(expiryCountdownText(inMs(60 * 60_000), now)).toBe('Half-payment expires in 1 h');
    expect(expiryCountdownText(inMs(59 * 60_000 + 30_000), now)).toBe('Half-payment expires in 59 min');
    expect(expiryCountdownText(inMs(12 * 60_000), now)).toBe('Half-payment expires in 12 min');
    expect(expiryCountdownText(inMs(12 * 60_000 + 59_000), now)).toBe('Half-payment expires in 12 min');
    expect(expiryCountdownText(inMs(5_000), now)).toBe('Half-payment expires in 1 min');
  });

  it('says now once the deadline passed, and nothing without one', () => {
    expect(expiryCountdownText(inMs(0), now)).toBe('Half-payment expires now');
    expect(expiryCountdownText(inMs(-60_000), now)).toBe('Half-payment expires now');
    expect(expiryCountdownText(null, now)).toBeNull();
    expect(expiryCountdownText('not a date', now)).toBeNull();
  });
});
