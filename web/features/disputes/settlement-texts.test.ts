import { describe, expect, it } from 'vitest';
import { acceptConfirmation, proposeConfirmation } from './settlement-confirmations';
import {
  acceptedByText,
  escalationText,
  listNames,
  proposalStatusText,
  readSplitAmount,
  settlementPreview,
  splitSentence,
} from './settlement-texts';

const people = { creator: 'alice', counterpart: 'bob', dealmaker: 'carol' };

describe('the settlement preview', () => {
  it('gives the rest back in proportion to what each dealer paid, the odd cent to the creator', () => {
    // $1,000.01 escrow: the creator paid $500.01, the counterpart $500.00.
    const escrow = { amount: 1000.01, creatorAmount: 500.01 };
    expect(settlementPreview(escrow, 60000)).toEqual({
      toDealmakerCents: 60000,
      refundToCreatorCents: 20001,
      refundToCounterpartCents: 20000,
    });
    expect(settlementPreview(escrow, 0)).toEqual({
      toDealmakerCents: 0,
      refundToCreatorCents: 50001,
      refundToCounterpartCents: 50000,
    });
    expect(settlementPreview(escrow, 100001)).toEqual({
      toDealmakerCents: 100001,
      refundToCreatorCents: 0,
      refundToCounterpartCents: 0,
    });
  });

  it('always adds up to the escrow, to the cent', () => {
    const escrow = { amount: 777.77, creatorAmount: 388.89 };
    for (const cents of [1, 333, 12345, 77776]) {
      const split = settlementPreview(escrow, cents);
      expect(split.toDealmakerCents + split.refundToCreatorCents + split.refundToCounterpartCents).toBe(
        77777,
      );
    }
    expect(settlementPreview(escrow, 1)).toEqual({
      toDealmakerCents: 1,
      // 77,776 × 38,889 / 77,777 = 38,888.5: the creator's part is rounded up.
      refundToCreatorCents: 38889,
      refundToCounterpartCents: 38887,
    });
  });

  it('reads the amount typed for the dealmaker, within the escrow', () => {
    expect(readSplitAmount('600', 100001)).toEqual({ cents: 60000, problem: null });
    expect(readSplitAmount(' $1,000.01 ', 100001)).toEqual({ cents: 100001, problem: null });
    expect(readSplitAmount('', 100001)).toEqual({
      cents: null,
      problem: 'Enter the amount for the dealmaker',
    });
    expect(readSplitAmount('12.345', 100001).problem).toBe(
      'Amount must be a positive number with at most 2 decimals',
    );
    expect(readSplitAmount('-5', 100001).cents).toBeNull();
    expect(readSplitAmount('1000.02', 100001).problem).toBe('At most $1,000.01, the whole escrow');
  });

  it('describes a split in words, as the server does', () => {
    expect(
      splitSentence(
        { toDealmakerCents: 60000, refundToCreatorCents: 20001, refundToCounterpartCents: 20000 },
        people,
      ),
    ).toBe('$600.00 to the dealmaker (@carol), $200.01 back to @alice, $200.00 back to @bob');
  });
});

describe('proposal texts', () => {
  it('names who is still awaited on an open proposal', () => {
    expect(proposalStatusText({ status: 'open', acceptedBy: ['carol'] }, people)).toBe(
      'Waiting for @alice and @bob',
    );
    expect(proposalStatusText({ status: 'open', acceptedBy: ['Bob', 'carol'] }, people)).toBe(
      'Waiting for @alice',
    );
    expect(proposalStatusText({ status: 'open', acceptedBy: [] }, people)).toBe(
      'Waiting for @alice, @bob and @carol',
    );
  });

  it('says where a closed proposal stands', () => {
    expect(proposalStatusText({ status: 'superseded', acceptedBy: ['bob'] }, people)).toBe(
      'Superseded by a newer proposal',
    );
    expect(proposalStatusText({ status: 'withdrawn', acceptedBy: ['bob'] }, people)).toBe(
      'Withdrawn by its proposer',
    );
    expect(proposalStatusText({ status: 'accepted', acceptedBy: ['bob', 'alice', 'carol'] }, people)).toBe(
      'Accepted by everyone: the escrow was paid out this way',
    );
    expect(acceptedByText({ acceptedBy: ['bob', 'alice'] })).toBe('Accepted by @bob and @alice');
    expect(listNames([])).toBe('');
  });

  it('says when the dispute goes to an operator, or went', () => {
    const at = '2026-03-04T15:07:00';
    expect(escalationText({ status: 'open', escalated: false, escalatedAt: null, escalatesAt: at })).toBe(
      'Escalates to an operator on Mar 4, 2026, 3:07 PM',
    );
    expect(escalationText({ status: 'open', escalated: true, escalatedAt: at, escalatesAt: null })).toBe(
      'Escalated to an operator on Mar 4, 2026, 3:07 PM',
    );
    expect(
      escalationText({ status: 'resolved', escalated: true, escalatedAt: at, escalatesAt: null }),
    ).toBeNull();
  });
});

describe('settlement confirmations', () => {
  const split = { toDealmakerCents: 60000, refundToCreatorCents: 20001, refundToCounterpartCents: 20000 };
  const deal = { title: 'Courier company', escrowCents: 100001 };
  const action = { onConfirm: () => undefined };

  it('states the split before proposing', () => {
    const asked = proposeConfirmation(deal, split, people, action);
    expect(asked.message).toBe(
      "Propose to split the escrow of 'Courier company' ($1,000.01): $600.00 to the dealmaker (@carol), $200.01 back to @alice, $200.00 back to @bob. It replaces the open proposal, and settles once all three of you accept it.",
    );
    expect(asked.facts).toEqual([
      { label: 'To the dealmaker (@carol)', value: '$600.00' },
      { label: 'Refund to the creator (@alice)', value: '$200.01' },
      { label: 'Refund to the counterpart (@bob)', value: '$200.00' },
    ]);
    expect(asked.confirmLabel).toBe('Propose settlement');
  });

  it('warns the last to accept that the escrow is paid out at once', () => {
    expect(acceptConfirmation(deal, split, people, true, action).message).toContain(
      'You are the last to accept: the escrow is paid out at once and the deal is completed. This cannot be undone.',
    );
    expect(acceptConfirmation(deal, split, people, false, action).message).toContain(
      'Once everyone has accepted, the escrow is paid out this way and the deal is completed.',
    );
  });
});
