import { describe, expect, it } from 'vitest';
import { auditDetails } from './audit-log';
import { ledgerVerdict } from './ledger-check';

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
});
