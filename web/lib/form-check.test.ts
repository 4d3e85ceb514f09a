import { describe, expect, it } from 'vitest';
import { createDealSchema } from '../../contract/deals';
import { checkWith } from './form-check';

const deal = { title: ' Coffee ', description: 'Beans.', budget: '5000.50', timeline: '3 months' };

describe('checkWith', () => {
  it("gives the schema's output when the input passes", () => {
    expect(checkWith(createDealSchema, deal)).toEqual({
      ok: true,
      // joinPolicy: the schema's default ('open') when the form sends none.
      value: {
        title: 'Coffee',
        description: 'Beans.',
        budget: 500050,
        timeline: '3 months',
        joinPolicy: 'open',
      },
    });
  });

  it("gives the schema's first message, and the first about each field", () => {
    const checked = checkWith(createDealSchema, { ...deal, title: '  ', budget: 'abc', timeline: '' });
    expect(checked).toEqual({
      ok: false,
      problem: 'Title is required',
      problems: {
        title: 'Title is required',
        budget: 'Amount must be a positive number with at most 2 decimals',
        timeline: 'Timeline is required',
      },
    });
  });
});
