import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { moneySchema } from './fields';
import {
  amountToCents,
  centsToDollars,
  dollarsToCents,
  formatCents,
  formatUsdCents,
  typedAmountToCents,
} from './money';

describe('dollarsToCents', () => {
  it.each([
    [0, 0],
    [0.01, 1],
    [0.07, 7],
    [0.1, 10],
    [1.1, 110],
    [10.1, 1010],
    [19.99, 1999],
    [1234.5, 123450],
    [999999999.99, 99999999999],
    [1000000000, 100000000000],
    [100000000.99, 10000000099],
  ])('%s dollars are %s cents', (dollars, cents) => {
    expect(dollarsToCents(dollars)).toBe(cents);
  });

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
    ['-1', -1],
    ['-0.01', -0.01],
    ['1.005 (three decimals)', 1.005],
    ['0.1 + 0.2', 0.1 + 0.2],
    ['0.001', 0.001],
    ['1e-7 (exponent notation)', 1e-7],
    ['5e-324', 5e-324],
    ['1e21 (exponent notation)', 1e21],
    ['9.5e20 (beyond safe integers)', 9.5e20],
    ['2^53 dollars', 2 ** 53],
  ])('refuses %s', (_name, dollars) => {
    expect(dollarsToCents(dollars)).toBeNull();
  });

  it('gives -0 as 0', () => {
    expect(dollarsToCents(-0)).toBe(0);
  });
});

describe('centsToDollars and formatCents', () => {
  it.each([
    [0, 0, '0.00'],
    [1, 0.01, '0.01'],
    [5, 0.05, '0.05'],
    [10, 0.1, '0.10'],
    [1010, 10.1, '10.10'],
    [123450, 1234.5, '1234.50'],
    [123456, 1234.56, '1234.56'],
    [10000000099, 100000000.99, '100000000.99'],
    [100000000000, 1000000000, '1000000000.00'],
    [-5, -0.05, '-0.05'],
    [-123456, -1234.56, '-1234.56'],
  ])('%s cents are %s dollars, written %s', (cents, dollars, text) => {
    expect(centsToDollars(cents)).toBe(dollars);
    expect(formatCents(cents)).toBe(text);
  });

  it('round-trips every amount through the JSON wire exactly', () => {
    // Far beyond the largest amount the limits allow (10^11 cents); up to 15 significant digits.
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 15 - 1 }), (cents) => {
        const onTheWire = JSON.parse(JSON.stringify({ amount: centsToDollars(cents) })).amount;
        expect(dollarsToCents(onTheWire)).toBe(cents);
        expect(Number(formatCents(cents))).toBe(centsToDollars(cents));
      }),
      { numRuns: 20_000 },
    );
  });

  it('reads back every two-decimal amount a person can type', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 ** 12 }),
        fc.integer({ min: 0, max: 99 }),
        (whole, fraction) => {
          const typed = `${whole}.${String(fraction).padStart(2, '0')}`;
          expect(dollarsToCents(Number(typed))).toBe(whole * 100 + fraction);
        },
      ),
      { numRuns: 20_000 },
    );
  });
});

describe('formatUsdCents', () => {
  it.each([
    [0, '$0.00'],
    [1, '$0.01'],
    [10, '$0.10'],
    [99, '$0.99'],
    [100, '$1.00'],
    [123450, '$1,234.50'],
    [99999, '$999.99'],
    [100000, '$1,000.00'],
    [2500000, '$25,000.00'],
    [525000, '$5,250.00'],
    [100000000, '$1,000,000.00'],
    [100000000000, '$1,000,000,000.00'],
    [-5000, '\u2212$50.00'],
    [-1, '\u2212$0.01'],
    [-123456789, '\u2212$1,234,567.89'],
    [-0, '$0.00'],
  ])('%s cents are written %s', (cents, text) => {
    expect(formatUsdCents(cents)).toBe(text);
  });

  it('writes what en-US currency formatting writes, for every amount', () => {
    const intl = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    fc.assert(
      fc.property(fc.integer({ min: -(10 ** 13), max: 10 ** 13 }), (cents) => {
        expect(formatUsdCents(cents)).toBe(intl.format(cents / 100).replace('-', '\u2212'));
      }),
      { numRuns: 5_000 },
    );
  });
});

describe('moneySchema', () => {
  const budget = moneySchema(1, 100_000_000_000);
  const decimals = 'Amount must be a positive number with at most 2 decimals';
  const range = 'Amount must be between $0.01 and $1,000,000,000.00';
  const notANumber = 'Amount must be a number';

  const issue = (value: unknown) => {
    const result = budget.safeParse(value);
    expect(result.success).toBe(false);
    return result.error!.issues.map((i) => i.message);
  };

  it('parses amounts to integer cents', () => {
    expect(budget.parse(0.01)).toBe(1);
    expect(budget.parse(10.1)).toBe(1010);
    expect(budget.parse(100000000.99)).toBe(10000000099);
    expect(budget.parse(1000000000)).toBe(100_000_000_000);
  });

  it.each([
    [0, range],
    [1000000000.01, range],
    [2000000000, range],
    [-1, decimals],
    [1.005, decimals],
    [0.1 + 0.2, decimals],
    [1e21, decimals],
  ])('refuses %s', (value, message) => {
    expect(issue(value)).toEqual([message]);
  });

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['null', null],
    ['undefined', undefined],
    ['an object', { amount: 5 }],
  ])('refuses %s as not a number', (_name, value) => {
    expect(issue(value)).toEqual([notANumber]);
  });

  it('takes a plain decimal string as the same amount, as clients of the original system send it', () => {
    expect(budget.parse('2000')).toBe(200_000);
    expect(budget.parse('2000.5')).toBe(200_050);
    expect(budget.parse('2000.50')).toBe(200_050);
    expect(budget.parse('0.01')).toBe(1);
    expect(budget.parse('1000000000')).toBe(100_000_000_000);
  });

  it.each([
    ['abc', decimals],
    ['1e3', decimals],
    [' 12', decimals],
    ['12 ', decimals],
    ['12.345', decimals],
    ['-5', decimals],
    ['+5', decimals],
    ['0x10', decimals],
    ['1.', decimals],
    ['', decimals],
    ['NaN', decimals],
    ['Infinity', decimals],
    ['0', range],
    ['0.00', range],
    ['1000000000.01', range],
  ])('refuses the string %j', (value, message) => {
    expect(issue(value)).toEqual([message]);
  });

  it.each([
    ['true', true],
    ['an array', [5]],
    ['an array of a string', ['5']],
  ])('refuses %s as not a number', (_name, value) => {
    expect(issue(value)).toEqual([notANumber]);
  });

  it('applies the bounds it is given', () => {
    const deposit = moneySchema(1, 100_000_000);
    expect(deposit.parse(1000000)).toBe(100_000_000);
    expect(deposit.safeParse(1000000.01).error!.issues[0]!.message).toBe(
      'Amount must be between $0.01 and $1,000,000.00',
    );
  });
});

describe('amountToCents', () => {
  it('reads an amount the API answered exactly, either sign', () => {
    expect(amountToCents(0)).toBe(0);
    expect(amountToCents(19.99)).toBe(1999);
    expect(amountToCents(1234.5)).toBe(123450);
    expect(amountToCents(-50.01)).toBe(-5001);
    expect(amountToCents(1_000_000_000)).toBe(100_000_000_000);
  });

  it('rounds to the nearest cent a number computed in floating point', () => {
    expect(amountToCents(0.1 + 0.2)).toBe(30);
    expect(amountToCents(19.99 * 3)).toBe(5997);
    expect(Number.isNaN(amountToCents(Number.NaN))).toBe(true);
  });
});

describe('typedAmountToCents', () => {
  it('reads what a person types', () => {
    expect(typedAmountToCents('20')).toBe(2000);
    expect(typedAmountToCents(' 20.5 ')).toBe(2050);
    expect(typedAmountToCents('.50')).toBe(50);
    expect(typedAmountToCents('20.')).toBe(2000);
    expect(typedAmountToCents('$1,000.01')).toBe(100001);
    expect(typedAmountToCents('0')).toBe(0);
  });

  it('refuses anything else', () => {
    for (const text of [
      '',
      ' ',
      '.',
      '-5',
      '0.001',
      '1.234',
      'abc',
      '1e3',
      '1,5',
      '1,00',
      '$',
      '12,345,67',
    ]) {
      expect(typedAmountToCents(text)).toBe(null);
    }
  });
});
