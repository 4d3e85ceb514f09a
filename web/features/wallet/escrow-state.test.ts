import { describe, expect, it } from 'vitest';
import type { Escrow } from '../../../contract/wallet';
import { escrowMessages } from '../../../contract/wallet';
import { escrowMessageTone, escrowViewOf, noCounterpartReason, splitAmount } from './escrow-state';

const deal = {
  budget: 100.01,
  dealer_creator: 'ada',
  dealer_joined: 'bob',
  dealmaker: 'cy',
  is_completed: false,
};
const escrow = (fields: Partial<Escrow> = {}): Escrow => ({
  amount: 100.01,
  status: 'pending',
  creatorPaid: false,
  counterpartPaid: false,
  creatorAmount: 50.01,
  counterpartAmount: 50,
  ...fields,
});

describe('splitAmount', () => {
  it('gives the creator the odd cent, like the server', () => {
    expect(splitAmount(100.01)).toEqual({ creatorAmount: 50.01, counterpartAmount: 50 });
    expect(splitAmount(100)).toEqual({ creatorAmount: 50, counterpartAmount: 50 });
    expect(splitAmount(0.01)).toEqual({ creatorAmount: 0.01, counterpartAmount: 0 });
  });
});

describe('escrowViewOf', () => {
  it('falls back to half the budget per side without an escrow record', () => {
    const view = escrowViewOf({ ...deal, budget: 300 }, null, 'ada');
    expect(view).toMatchObject({ total: 300, creatorAmount: 150, counterpartAmount: 150, status: 'pending' });
    expect(view).toMatchObject({ mySide: 'creator', canPay: true, canRefund: false, notice: null });
  });

  it('offers the counterpart their own half, case-insensitively', () => {
    const view = escrowViewOf(deal, escrow({ creatorPaid: true }), 'BOB');
    expect(view).toMatchObject({ mySide: 'counterpart', myAmount: 50, myPaid: false, canPay: true });
  });

  it('lets a dealer who paid take it back while the escrow is not locked', () => {
    const view = escrowViewOf(deal, escrow({ creatorPaid: true }), 'ada');
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
