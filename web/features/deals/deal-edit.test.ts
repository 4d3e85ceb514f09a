import { describe, expect, it } from 'vitest';
import { editDealSchema } from '../../../contract/deal-changes';
import { checkWith } from '../../lib/form-check';
import { makeDeal } from '../../test/deal-fixtures';
import { dealEditOf, dealFieldValuesOf } from './deal-edit';

const deal = makeDeal({ title: 'Coffee', description: 'Beans', budget: 5000, timeline: '3 months' });

describe('dealEditOf', () => {
  it('starts from the deal as it is, and sends nothing when nothing changed', () => {
    const values = dealFieldValuesOf(deal);
    expect(values).toEqual({ title: 'Coffee', description: 'Beans', budget: '5000', timeline: '3 months' });
    expect(dealEditOf(deal, values)).toEqual({});
    // The schema refuses an empty edit in its own words: the form shows them.
    const checked = checkWith(editDealSchema, dealEditOf(deal, values));
    expect(checked.ok).toBe(false);
    if (!checked.ok) {
      expect(checked.problems['']).toBe('Nothing to change: send a title, description, budget or timeline');
    }
  });

  it('sends only the fields typed differently', () => {
    const values = { ...dealFieldValuesOf(deal), budget: '6,250.50', timeline: '4 months' };
    expect(dealEditOf(deal, values)).toEqual({ budget: 6250.5, timeline: '4 months' });
    const checked = checkWith(editDealSchema, dealEditOf(deal, values));
    expect(checked).toEqual({ ok: true, value: { budget: 625050, timeline: '4 months' } });
  });

  it('reads the same amount typed another way as no change, and hands an unreadable one to the schema', () => {
    expect(dealEditOf(deal, { ...dealFieldValuesOf(deal), budget: '$5,000.00' })).toEqual({});
    const typo = dealEditOf(deal, { ...dealFieldValuesOf(deal), budget: '50x' });
    expect(typo).toEqual({ budget: '50x' });
    const checked = checkWith(editDealSchema, typo);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.problems.budget).toBeDefined();
  });

  it('sends a cleared title, for the schema to refuse', () => {
    const checked = checkWith(editDealSchema, dealEditOf(deal, { ...dealFieldValuesOf(deal), title: '' }));
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.problems.title).toBe('Title is required');
  });
});
