import { describe, expect, it } from 'vitest';
import { makeDeal } from '../../test/deal-fixtures';
import {
  blamedFilter,
  type DealFilters,
  dealCountPath,
  dealListPath,
  dealOrderOf,
  dealStageOf,
  describeFilters,
  effectiveSort,
  filtersFromParams,
  filtersKey,
  filtersToParams,
  filtersToSavedQuery,
  hasFilters,
  matchCountText,
  matchesFilters,
  matchesKeywords,
  noFilters,
  parseKeywords,
  savedQueryToFilters,
  withKeywords,
  withoutFilter,
  withStageToggled,
} from './deal-filters';

const fromUrl = (query: string) => filtersFromParams(new URLSearchParams(query));

describe('the filters in the address', () => {
  it('reads every filter, amounts in cents', () => {
    expect(
      fromUrl('q=coffee+beans&status=open,choosing&minBudget=1000&maxBudget=5000.5&sort=budget_desc'),
    ).toEqual({
      q: 'coffee beans',
      status: ['open', 'choosing'],
      minBudget: 100_000,
      maxBudget: 500_050,
      sort: 'budget_desc',
    });
  });

  it('reads nothing as no filters', () => {
    expect(fromUrl('')).toEqual(noFilters);
    expect(hasFilters(fromUrl(''))).toBe(false);
  });

  it('writes them in one order, the status comma-separated and the amounts in dollars', () => {
    const filters: DealFilters = {
      sort: 'budget_asc',
      maxBudget: 500_050,
      minBudget: 100_000,
      status: ['completed', 'open'],
      q: ' coffee ',
    };
    expect(filtersToParams(filters).toString()).toBe(
      'q=coffee&status=open%2Ccompleted&minBudget=1000&maxBudget=5000.5&sort=budget_asc',
    );
  });

  it('comes back the same through the address', () => {
    const samples: DealFilters[] = [
      noFilters,
      { q: '"cold chain" -frozen', status: [] },
      { q: '', status: ['in_progress'], maxBudget: 1 },
      {
        q: 'tea',
        status: ['open', 'choosing', 'in_progress', 'completed'],
        minBudget: 99,
        sort: 'relevance',
      },
      { q: '', status: [], minBudget: 100_000_000_000, sort: 'newest' },
    ];
    for (const filters of samples) {
      expect(fromUrl(filtersToParams(filters).toString())).toEqual(filters);
    }
  });

  it('takes the status repeated or comma-separated, each stage once, in the stages’ order', () => {
    expect(fromUrl('status=completed&status=open,completed').status).toEqual(['open', 'completed']);
  });

  it('leaves out what it cannot read rather than refusing the page', () => {
    expect(fromUrl('status=open,closed&minBudget=abc&maxBudget=-5&sort=cheapest')).toEqual({
      q: '',
      status: ['open'],
    });
    // Zero or more than a budget may be are no budget bound either.
    expect(fromUrl('minBudget=0&maxBudget=1000000000.01')).toEqual(noFilters);
  });

  it('reads amounts as people write them, with the contract’s money parser', () => {
    expect(fromUrl('minBudget=%241%2C000.50').minBudget).toBe(100_050);
    expect(fromUrl('minBudget=.5').minBudget).toBe(50);
    expect(fromUrl('minBudget=1.005').minBudget).toBeUndefined();
  });

  it('swaps bounds given the wrong way round', () => {
    expect(fromUrl('minBudget=500&maxBudget=100')).toMatchObject({ minBudget: 10_000, maxBudget: 50_000 });
  });

  it('drops relevance without keywords, both ways', () => {
    expect(fromUrl('sort=relevance').sort).toBeUndefined();
    expect(filtersToParams({ q: '', status: [], sort: 'relevance' }).toString()).toBe('');
  });

  it('keeps keywords within the search box’s limit', () => {
    expect(fromUrl(`q=${'a'.repeat(150)}`).q).toHaveLength(100);
  });

  it('is one cache key for one search', () => {
    expect(filtersKey(fromUrl('status=choosing,open&q=x'))).toBe(
      filtersKey(fromUrl('q=x&status=open&status=choosing')),
    );
  });
});

describe('the order', () => {
  it('is relevance with keywords and newest without, unless chosen', () => {
    expect(effectiveSort(noFilters)).toBe('newest');
    expect(effectiveSort({ ...noFilters, q: 'tea' })).toBe('relevance');
    expect(effectiveSort({ ...noFilters, q: 'tea', sort: 'budget_asc' })).toBe('budget_asc');
  });

  it('loses relevance with the keywords, and keeps another order', () => {
    expect(withKeywords({ ...noFilters, q: 'tea', sort: 'relevance' }, '')).toEqual(noFilters);
    expect(withKeywords({ ...noFilters, q: 'tea', sort: 'budget_desc' }, '').sort).toBe('budget_desc');
  });
});

describe('the API paths', () => {
  it('pages the list with before or offset after the filters', () => {
    expect(dealListPath(noFilters, { limit: 24 })).toBe('/deals/all?limit=24');
    expect(dealListPath(noFilters, { limit: 24, before: 77 })).toBe('/deals/all?limit=24&before=77');
    expect(dealListPath({ q: 'tea', status: ['open'] }, { limit: 24, offset: 48 })).toBe(
      '/deals/all?q=tea&status=open&limit=24&offset=48',
    );
  });

  it('counts without the order', () => {
    expect(dealCountPath({ q: 'tea', status: [], maxBudget: 250, sort: 'budget_asc' })).toBe(
      '/deals/count?q=tea&maxBudget=2.5',
    );
  });
});

describe('the chips', () => {
  it('toggle a stage on and off, keeping the stages’ order', () => {
    const on = withStageToggled(withStageToggled(noFilters, 'completed'), 'open');
    expect(on.status).toEqual(['open', 'completed']);
    expect(withStageToggled(on, 'open').status).toEqual(['completed']);
  });
});

describe('an empty result', () => {
  const all: DealFilters = { q: 'tea', status: ['open'], minBudget: 100, sort: 'budget_asc' };

  it('blames the budget, then the status, then the keywords', () => {
    expect(blamedFilter(all)).toBe('budget');
    expect(blamedFilter(withoutFilter(all, 'budget'))).toBe('status');
    expect(blamedFilter(withoutFilter(withoutFilter(all, 'budget'), 'status'))).toBe('keywords');
    expect(blamedFilter({ ...noFilters, sort: 'budget_asc' })).toBeNull();
  });

  it('clears only the filter blamed', () => {
    expect(withoutFilter(all, 'budget')).toEqual({ q: 'tea', status: ['open'], sort: 'budget_asc' });
    expect(withoutFilter(all, 'keywords')).toEqual({
      q: '',
      status: ['open'],
      minBudget: 100,
      sort: 'budget_asc',
    });
  });
});

describe('the count', () => {
  it('says how many, and 1,000+ beyond the cap', () => {
    expect(matchCountText({ count: 12, more: false })).toBe('12 deals match');
    expect(matchCountText({ count: 1, more: false })).toBe('1 deal matches');
    expect(matchCountText({ count: 0, more: false })).toBe('0 deals match');
    expect(matchCountText({ count: 1000, more: true })).toBe('1,000+ deals match');
  });
});

describe('a deal heard of live', () => {
  const deal = makeDeal({
    title: 'Cold-chain coffee logistics',
    description: 'Roasted beans from Peru',
    budget: 4500,
  });

  it('is matched by words, phrases, exclusions and or, as the server reads them', () => {
    expect(parseKeywords('coffee "cold chain" -tea or')).toEqual({
      clauses: [['coffee'], ['cold chain']],
      excluded: ['tea'],
    });
    expect(matchesKeywords(deal, 'COFFEE peru')).toBe(true);
    expect(matchesKeywords(deal, '"cold chain"')).toBe(true);
    expect(matchesKeywords(deal, 'coffee -peru')).toBe(false);
    expect(matchesKeywords(deal, 'tea or bean')).toBe(true);
    expect(matchesKeywords(deal, 'tea')).toBe(false);
    // Words start where a word starts: "old" is not in "cold".
    expect(matchesKeywords(deal, 'old')).toBe(false);
  });

  it('is matched by stage and budget', () => {
    expect(dealStageOf(deal)).toBe('open');
    expect(dealStageOf(makeDeal({ dealer_joined: 'bob' }))).toBe('choosing');
    expect(dealStageOf(makeDeal({ dealer_joined: 'bob', dealmaker: 'carol' }))).toBe('in_progress');
    expect(dealStageOf(makeDeal({ is_completed: true, dealmaker: 'carol' }))).toBe('completed');
    expect(
      matchesFilters(deal, { q: 'coffee', status: ['open'], minBudget: 450_000, maxBudget: 450_000 }),
    ).toBe(true);
    expect(matchesFilters(deal, { ...noFilters, status: ['choosing'] })).toBe(false);
    expect(matchesFilters(deal, { ...noFilters, maxBudget: 449_999 })).toBe(false);
  });

  it('goes where the server would sort it; a ranked list has no order here', () => {
    const a = makeDeal({ id: 1, budget: 10 });
    const b = makeDeal({ id: 2, budget: 10 });
    const c = makeDeal({ id: 3, budget: 5 });
    const sorted = (sort: Parameters<typeof dealOrderOf>[0]) =>
      [a, b, c].sort(dealOrderOf(sort)!).map((deal) => deal.id);
    expect(sorted('newest')).toEqual([3, 2, 1]);
    expect(sorted('budget_desc')).toEqual([2, 1, 3]);
    expect(sorted('budget_asc')).toEqual([3, 1, 2]);
    expect(dealOrderOf('relevance')).toBeNull();
  });
});

describe('saved searches', () => {
  it('save the filters without the order, in dollars, and open them again', () => {
    const filters: DealFilters = { q: 'tea', status: ['open'], minBudget: 100_050, sort: 'budget_asc' };
    const query = filtersToSavedQuery(filters);
    expect(query).toEqual({ q: 'tea', status: ['open'], minBudget: 1000.5 });
    expect(savedQueryToFilters(query)).toEqual({ q: 'tea', status: ['open'], minBudget: 100_050 });
    expect(filtersToSavedQuery(noFilters)).toEqual({});
  });

  it('are described in words', () => {
    expect(
      describeFilters({ q: 'tea', status: ['open', 'choosing'], minBudget: 100_000, maxBudget: 500_000 }),
    ).toBe('“tea” · Open, Seeking dealmaker · $1,000.00 – $5,000.00');
    expect(describeFilters({ ...noFilters, maxBudget: 50 })).toBe('Up to $0.50');
    expect(describeFilters(noFilters)).toBe('All deals');
  });
});
