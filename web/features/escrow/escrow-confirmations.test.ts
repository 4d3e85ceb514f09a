import { describe, expect, it } from 'vitest';
import {
  markFinishedConfirmation,
  payHalfConfirmation,
  takeHalfBackConfirmation,
} from './escrow-confirmations';

const deal = { title: 'Acquisition of a regional courier company', budget: 10500, dealmaker: 'erin' };
const action = { onConfirm: () => undefined };

describe('escrow confirmations', () => {
  it('states the payment and the balance after it', () => {
    const asked = payHalfConfirmation(deal, 5250, 25000, action);
    expect(asked.message).toBe(
      "Pay $5,250.00 from your wallet into escrow for 'Acquisition of a regional courier company'. Balance after: $19,750.00.",
    );
    expect(asked.confirmLabel).toBe('Pay my half');
    expect(asked.facts).toEqual([
      { label: 'Your balance now', value: '$25,000.00' },
      { label: 'Balance after', value: '$19,750.00' },
    ]);
  });

  it('says how much is missing when the balance is short, and leaves the balance out while unknown', () => {
    const short = payHalfConfirmation(deal, 5250, 5000.5, action);
    expect(short.message).not.toContain('Balance after');
    expect(short.facts?.[1]).toEqual({ label: 'Missing', value: '$249.50' });
    expect(payHalfConfirmation(deal, 0.01, undefined, action).message).toBe(
      "Pay $0.01 from your wallet into escrow for 'Acquisition of a regional courier company'.",
    );
  });

  it('blocks the payment before the click when the balance is short, saying what is needed', () => {
    const short = payHalfConfirmation(deal, 5250, 0, action);
    expect(short.blocked).toEqual({ reason: 'Your balance is $0.00: you need $5,250.00.' });
    expect(payHalfConfirmation(deal, 5250, 5249.99, action).blocked?.reason).toBe(
      'Your balance is $5,249.99: you need $5,250.00.',
    );
    // Enough, or not known yet: nothing blocks it (the server answers for a balance still loading).
    expect(payHalfConfirmation(deal, 5250, 5250, action).blocked).toBeUndefined();
    expect(payHalfConfirmation(deal, 5250, undefined, action).blocked).toBeUndefined();
  });

  it('states a refund and the balance after it', () => {
    expect(takeHalfBackConfirmation(deal, 5250, 19750, action).message).toBe(
      "Take $5,250.00 back from the escrow of 'Acquisition of a regional courier company' into your wallet. Balance after: $25,000.00.",
    );
  });

  it('says who is paid when the deal is marked finished', () => {
    expect(markFinishedConfirmation(deal, false, action).message).toContain(
      'Once the other dealer marks it too, the escrow of $10,500.00 is released to @erin.',
    );
    expect(markFinishedConfirmation(deal, true, action).message).toContain(
      'the escrow of $10,500.00 is released to @erin at once',
    );
  });
});
