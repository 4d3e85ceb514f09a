import { describe, expect, it } from 'vitest';
import {
  approveConfirmation,
  payShareConfirmation,
  takeShareBackConfirmation,
} from './milestone-confirmations';

const deal = { title: 'Acquisition of a regional courier company' };
const design = { position: 2, title: 'Design', amount: 100.01 };
const action = { onConfirm: () => undefined };

describe('milestone confirmations', () => {
  it('names the milestone and the amount of a share, and the balance after it', () => {
    const asked = payShareConfirmation(deal, design, 50.01, 250, action);
    expect(asked.message).toBe(
      `Pay $50.01 from your wallet into escrow for Milestone 2 "Design" of 'Acquisition of a regional courier company'. Balance after: $199.99.`,
    );
    expect(asked.confirmLabel).toBe('Pay my share');
    expect(asked.facts).toEqual([
      { label: 'Your balance now', value: '$250.00' },
      { label: 'Balance after', value: '$199.99' },
    ]);
    expect(asked.blocked).toBeUndefined();
  });

  it('blocks a share the balance is short of before the click, saying what is missing', () => {
    const short = payShareConfirmation(deal, design, 50.01, 50, action);
    expect(short.blocked).toEqual({ reason: 'Your balance is $50.00: you need $50.01.' });
    expect(short.facts?.[1]).toEqual({ label: 'Missing', value: '$0.01' });
    expect(short.message).not.toContain('Balance after');
    // Not known yet: asked without the balance, nothing blocked (the server answers).
    const unknown = payShareConfirmation(deal, design, 50.01, undefined, action);
    expect(unknown.blocked).toBeUndefined();
    expect(unknown.facts).toBeUndefined();
  });

  it('states taking a share back and the balance after it', () => {
    expect(takeShareBackConfirmation(deal, design, 50.01, 199.99, action).message).toBe(
      `Take $50.01 back from Milestone 2 "Design" of 'Acquisition of a regional courier company' into your wallet. Balance after: $250.00.`,
    );
  });

  it('says the money goes to the dealmaker once both dealers approved', () => {
    const people = { dealmaker: 'cy', otherDealer: 'bob' };
    expect(approveConfirmation(design, people, false, action).message).toBe(
      'Approve Milestone 2 "Design" as delivered. Once @bob approves it too, its $100.01 is released to @cy. This cannot be undone.',
    );
    expect(approveConfirmation(design, people, true, action).message).toBe(
      'Approve Milestone 2 "Design" as delivered. @bob already approved it: its $100.01 is released to @cy at once. This cannot be undone.',
    );
  });
});
