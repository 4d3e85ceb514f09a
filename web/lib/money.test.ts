import { describe, expect, it } from 'vitest';
import { formatMoney, formatSignedMoney, typedAmount } from './money';

describe('money formatting', () => {
  it('shows dollars with exactly two decimals and grouping', () => {
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(5)).toBe('$5.00');
    expect(formatMoney(0.1)).toBe('$0.10');
    expect(formatMoney(1234.5)).toBe('$1,234.50');
    expect(formatMoney(25000)).toBe('$25,000.00');
    expect(formatMoney(1_000_000_000)).toBe('$1,000,000,000.00');
    expect(formatMoney(0.1 + 0.2)).toBe('$0.30');
  });

  it('writes negatives with a minus sign, never −$0.00 or NaN', () => {
    expect(formatMoney(-50)).toBe('\u2212$50.00');
    expect(formatMoney(-1234.56)).toBe('\u2212$1,234.56');
    expect(formatMoney(-0)).toBe('$0.00');
    expect(formatMoney(-0.001)).toBe('$0.00');
    expect(formatMoney(Number.NaN)).toBe('$0.00');
  });

  it('formats signed movements', () => {
    expect(formatSignedMoney(10, 'in')).toBe('+$10.00');
    expect(formatSignedMoney(10, 'out')).toBe('\u2212$10.00');
    expect(formatSignedMoney(-2.5, 'out')).toBe('\u2212$2.50');
    expect(formatSignedMoney(5250, 'out')).toBe('\u2212$5,250.00');
  });
});

describe('typedAmount', () => {
  it('gives the dollars of an amount as a person types it', () => {
    expect(typedAmount('20')).toBe(20);
    expect(typedAmount(' $1,000.5 ')).toBe(1000.5);
    expect(typedAmount('.05')).toBe(0.05);
  });

  it('leaves what is no amount as typed, for the schema to refuse', () => {
    for (const text of ['', 'abc', '1e3', '-5', '1.234', '1,5']) expect(typedAmount(text)).toBe(text);
  });
});
