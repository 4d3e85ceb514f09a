import { describe, expect, it } from 'vitest';
import { recoveryCodesFileName, recoveryCodesText } from './recovery-codes';

describe('recovery codes download', () => {
  const codes = ['abcd-efgh-ijkm', 'nopq-rstu-vwxy', 'zz22-3344-5566'];

  it('names the account and the day, says what the codes are for, and lists each code on its own line', () => {
    const text = recoveryCodesText(codes, { username: 'ada' }, new Date('2025-03-04T22:10:00Z'));
    const lines = text.split('\n');
    expect(lines[0]).toBe('Dealmaker recovery codes');
    expect(lines).toContain('Account: ada');
    expect(lines).toContain('Created: 2025-03-04');
    expect(text).toContain('signs you in once');
    // The codes, in order, one a line, after the explanation; the file ends with a newline.
    expect(lines.slice(-4)).toEqual([...codes, '']);
    expect(codes.every((code) => lines.filter((line) => line === code).length === 1)).toBe(true);
  });

  it('is a .txt file named after the account', () => {
    expect(recoveryCodesFileName({ username: 'ada' })).toBe('dealmaker-recovery-codes-ada.txt');
  });
});
