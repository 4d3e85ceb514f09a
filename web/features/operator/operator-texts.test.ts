import { describe, expect, it } from 'vitest';
import { auditDetails } from './audit-log';
import { ledgerVerdict } from './ledger-check';
import { settleRefusalOf } from './settle-refusal';

const check = (ok: boolean) => ({ name: 'n', description: 'd', ok, violations: [] });

describe('the Operator console texts', () => {
  it('sums the ledger check up', () => {
    expect(ledgerVerdict({ checks: [check(true), check(true)] })).toBe('All 2 checks pass');
    expect(ledgerVerdict({ checks: [check(true), check(false), check(false)] })).toBe('2 of 3 checks fail');
  });

  it('shows what an audit entry changed, cut short', () => {
    expect(auditDetails({ before: null, after: { toDealmakerCents: 60000 } })).toBe(
      '{"toDealmakerCents":60000}',
    );
    expect(auditDetails({ before: { status: 'open' }, after: null })).toBe('{"status":"open"}');
    expect(auditDetails({ before: null, after: null })).toBe('');
    const long = auditDetails({ before: null, after: { text: 'x'.repeat(500) } }, 20);
    expect(long).toHaveLength(20);
    expect(long.endsWith('…')).toBe(true);
  });

  it('says why the settle form is not offered', () => {
    const item = (dispute: { status: 'open' | 'resolved'; escalated: boolean }, escrowStatus = 'locked') =>
      ({
        dispute,
        escrow: { status: escrowStatus },
        participants: { creator: 'Alice', counterpart: 'bob', dealmaker: null },
      }) as unknown as Parameters<typeof settleRefusalOf>[0];
    const escalated = item({ status: 'open', escalated: true });
    expect(settleRefusalOf(escalated, 'dave')).toBeNull();
    expect(settleRefusalOf(escalated, 'alice')).toBe(
      'You take part in this deal: another operator must settle it.',
    );
    expect(settleRefusalOf(escalated, 'BOB')).toBe(
      'You take part in this deal: another operator must settle it.',
    );
    expect(settleRefusalOf(item({ status: 'open', escalated: false }), 'dave')).toBe(
      'This dispute has not been escalated to the operators yet: its participants may still settle it.',
    );
    expect(settleRefusalOf(item({ status: 'resolved', escalated: true }), 'dave')).toBe(
      'This dispute is no longer open.',
    );
    expect(settleRefusalOf(item({ status: 'open', escalated: true }, 'pending'), 'dave')).toBe(
      'The escrow is not locked: there is no money to split until both halves are paid.',
    );
  });
});
