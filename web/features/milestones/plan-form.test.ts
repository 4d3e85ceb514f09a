import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkPlan,
  initialRows,
  newRow,
  remainderOf,
  splitEvenly,
  typedTotalCents,
  withEvenSplit,
} from './plan-form';

const amounts = (...typed: string[]) => typed.map((amount) => ({ amount }));

describe('splitEvenly', () => {
  it('gives every row the same cents and the first rows the odd ones', () => {
    expect(splitEvenly(30_002, 3)).toEqual([10_001, 10_001, 10_000]);
    expect(splitEvenly(30_000, 3)).toEqual([10_000, 10_000, 10_000]);
    expect(splitEvenly(100, 7)).toEqual([15, 15, 14, 14, 14, 14, 14]);
    expect(splitEvenly(2, 3)).toEqual([1, 1, 0]);
    expect(splitEvenly(500, 1)).toEqual([500]);
    expect(splitEvenly(500, 0)).toEqual([]);
  });

  it('always adds up to the budget exactly, never one row more than a cent above another', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000_000 }),
        fc.integer({ min: 1, max: 20 }),
        (budget, count) => {
          const split = splitEvenly(budget, count);
          expect(split).toHaveLength(count);
          expect(split.reduce((sum, cents) => sum + cents, 0)).toBe(budget);
          expect(Math.max(...split) - Math.min(...split)).toBeLessThanOrEqual(1);
          expect([...split].sort((a, b) => b - a)).toEqual(split);
        },
      ),
    );
  });

  it('fills the rows’ amounts as typed text, keeping their titles', () => {
    const rows = [newRow({ title: 'Research' }), newRow({ amount: '5' }), newRow({ dueDate: '2027-01-15' })];
    expect(withEvenSplit(rows, 30_002).map(({ title, amount, dueDate }) => [title, amount, dueDate])).toEqual(
      [
        ['Research', '100.01', ''],
        ['', '100.01', ''],
        ['', '100.00', '2027-01-15'],
      ],
    );
  });
});

describe('remainderOf', () => {
  it('says what is left to assign, or how much the rows are over, as the amounts are typed', () => {
    expect(remainderOf(amounts('100', '80'), 30_000)).toEqual({
      text: '$120.00 left to assign',
      tone: 'left',
    });
    expect(remainderOf(amounts('200', '105'), 30_000)).toEqual({
      text: '$5.00 over the budget',
      tone: 'over',
    });
    expect(remainderOf(amounts('$1,000.01', '.5'), 100_051)).toEqual({
      text: 'Adds up to the budget of $1,000.51',
      tone: 'exact',
    });
  });

  it('counts an amount that is no amount yet as nothing', () => {
    expect(typedTotalCents(amounts('', 'abc', '12.345', '10.5'))).toBe(1050);
    expect(remainderOf(amounts(''), 30_000).text).toBe('$300.00 left to assign');
  });
});

describe('initialRows', () => {
  it('starts from the open proposal, else from one empty row', () => {
    expect(initialRows(undefined).map(({ title, amount, dueDate }) => ({ title, amount, dueDate }))).toEqual([
      { title: '', amount: '', dueDate: '' },
    ]);
    const rows = initialRows({
      milestones: [
        { position: 1, title: 'Design', amount: 100.1, dueDate: '2027-01-15T00:00:00.000Z' },
        { position: 2, title: 'Build', amount: 200, dueDate: null },
      ],
    });
    expect(rows.map(({ title, amount, dueDate }) => [title, amount, dueDate])).toEqual([
      ['Design', '100.10', '2027-01-15'],
      ['Build', '200.00', ''],
    ]);
    expect(new Set(rows.map((row) => row.key)).size).toBe(2);
  });
});

describe('checkPlan', () => {
  it('answers the request to send: trimmed titles, amounts in dollars, a due date only when given', () => {
    const checked = checkPlan([
      newRow({ title: ' Design ', amount: '$1,000.50', dueDate: '2027-01-15' }),
      newRow({ title: 'Build', amount: '.5' }),
    ]);
    expect(checked).toEqual({
      ok: true,
      value: {
        milestones: [
          { title: 'Design', amount: 1000.5, dueDate: '2027-01-15' },
          { title: 'Build', amount: 0.5 },
        ],
      },
    });
  });

  it('says what the contract’s schema refuses, by row and field, in its words', () => {
    const checked = checkPlan([
      newRow({ title: 'Fine', amount: '10' }),
      newRow({ title: '  ', amount: '0' }),
      newRow({ title: 'x'.repeat(201), amount: '1.001' }),
    ]);
    expect(checked).toEqual({
      ok: false,
      problem: null,
      rows: [
        {},
        { title: 'Title is required', amount: 'Amount must be between $0.01 and $1,000,000,000.00' },
        {
          title: 'Title must be at most 200 characters',
          amount: 'Amount must be a positive number with at most 2 decimals',
        },
      ],
    });
  });

  it('says when a plan has more milestones than the contract allows', () => {
    const rows = Array.from({ length: 21 }, (_, index) => newRow({ title: `M${index}`, amount: '1' }));
    expect(checkPlan(rows)).toMatchObject({ ok: false, problem: 'A plan has at most 20 milestones' });
  });
});
