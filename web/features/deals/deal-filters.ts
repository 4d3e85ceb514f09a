import type { Deal } from '../../../contract/deals';
import type { SavedSearch } from '../../../contract/discovery';
import { limits } from '../../../contract/limits';
import { amountToCents, centsToDollars, formatUsdCents, typedAmountToCents } from '../../../contract/money';
import { type DealSort, type DealStage, dealSorts, dealStages } from '../../../contract/vocabulary';

/**
 * The Deals page's filters, free of React: how they read from and write to the address (?q=&status=
 * &minBudget=&maxBudget=&sort=, the API's own parameter names, so a link is the search), the API
 * paths they ask, whether a deal heard of live belongs to a filtered list, and how a saved search's
 * query becomes filters again.
 */

export type DealFilters = {
  /** Keywords as typed (trimmed): words, "quoted phrases", -excluded words; '' for none. */
  q: string;
  /** The stages shown, in the order of `dealStages`; none: every stage. */
  status: DealStage[];
  /** Budget bounds in cents. */
  minBudget?: number;
  maxBudget?: number;
  /** The order chosen; none: the API's default (relevance with keywords, else newest first). */
  sort?: DealSort;
};

export const noFilters: DealFilters = Object.freeze({ q: '', status: [] }) as DealFilters;

/** What each stage is called on the page: the words of the deal cards' status badges. */
export const stageLabels: Record<DealStage, string> = {
  open: 'Open',
  choosing: 'Seeking dealmaker',
  in_progress: 'Finalized',
  completed: 'Completed',
};

export const sortLabels: Record<DealSort, string> = {
  relevance: 'Relevance',
  newest: 'Newest first',
  budget_desc: 'Highest budget',
  budget_asc: 'Lowest budget',
};

const isStage = (name: string): name is DealStage => (dealStages as readonly string[]).includes(name);
const isSort = (name: string): name is DealSort => (dealSorts as readonly string[]).includes(name);

/** A budget bound as a person (or an address) writes it ("1000", "$1,000.50"), in cents; undefined when it is no allowed budget. */
export function budgetCents(text: string | null | undefined): number | undefined {
  if (!text?.trim()) return undefined;
  const cents = typedAmountToCents(text);
  const { min, max } = limits.deal.budgetCents;
  return cents !== null && cents >= min && cents <= max ? cents : undefined;
}

/** The stages in their one order, each once. */
const orderedStages = (names: Iterable<string>): DealStage[] => {
  const wanted = new Set(names);
  return dealStages.filter((stage) => wanted.has(stage));
};

/**
 * The filters an address holds. What it cannot read is left out rather than refused (a link typed
 * by hand still opens the Deals page): unknown stages, amounts that are no budget, 'relevance'
 * without keywords; bounds given the wrong way round are swapped.
 */
export function filtersFromParams(params: URLSearchParams): DealFilters {
  const q = (params.get('q') ?? '').trim().slice(0, limits.searchQuery.max);
  const status = orderedStages(
    params
      .getAll('status')
      .flatMap((value) => value.split(','))
      .map((value) => value.trim())
      .filter(isStage),
  );
  let minBudget = budgetCents(params.get('minBudget'));
  let maxBudget = budgetCents(params.get('maxBudget'));
  if (minBudget !== undefined && maxBudget !== undefined && minBudget > maxBudget) {
    [minBudget, maxBudget] = [maxBudget, minBudget];
  }
  const sortParam = params.get('sort') ?? '';
  const sort = isSort(sortParam) && (sortParam !== 'relevance' || q) ? sortParam : undefined;
  const filters: DealFilters = { q, status };
  if (minBudget !== undefined) filters.minBudget = minBudget;
  if (maxBudget !== undefined) filters.maxBudget = maxBudget;
  if (sort) filters.sort = sort;
  return filters;
}

/** The filters as address parameters, always in one order (so one search has one address and one cache key). */
export function filtersToParams(filters: DealFilters, options: { sort?: boolean } = {}): URLSearchParams {
  const params = new URLSearchParams();
  const q = filters.q.trim();
  if (q) params.set('q', q);
  const status = orderedStages(filters.status);
  if (status.length > 0) params.set('status', status.join(','));
  if (filters.minBudget !== undefined) params.set('minBudget', String(centsToDollars(filters.minBudget)));
  if (filters.maxBudget !== undefined) params.set('maxBudget', String(centsToDollars(filters.maxBudget)));
  const sort = filters.sort === 'relevance' && !q ? undefined : filters.sort;
  if (sort && options.sort !== false) params.set('sort', sort);
  return params;
}

/** The one text of a search (its address query without '?'): '' without filters. */
export const filtersKey = (filters: DealFilters) => filtersToParams(filters).toString();

/** The order the list is in: the chosen one, else relevance with keywords, else newest first. */
export const effectiveSort = (filters: DealFilters): DealSort =>
  filters.sort ?? (filters.q ? 'relevance' : 'newest');

/** Whether anything narrows the list (the order alone does not). */
export const hasFilters = (filters: DealFilters) =>
  !!filters.q ||
  filters.status.length > 0 ||
  filters.minBudget !== undefined ||
  filters.maxBudget !== undefined;

/** The keywords changed: 'relevance' goes with them when they are gone. */
export function withKeywords(filters: DealFilters, q: string): DealFilters {
  const next: DealFilters = { ...filters, q };
  if (!q && next.sort === 'relevance') delete next.sort;
  return next;
}

export function withStageToggled(filters: DealFilters, stage: DealStage): DealFilters {
  const on = filters.status.includes(stage);
  return {
    ...filters,
    status: orderedStages(
      on ? filters.status.filter((other) => other !== stage) : [...filters.status, stage],
    ),
  };
}

export function withBudget(
  filters: DealFilters,
  bounds: { minBudget?: number; maxBudget?: number },
): DealFilters {
  const { minBudget: _min, maxBudget: _max, ...rest } = filters;
  const next: DealFilters = { ...rest };
  if (bounds.minBudget !== undefined) next.minBudget = bounds.minBudget;
  if (bounds.maxBudget !== undefined) next.maxBudget = bounds.maxBudget;
  return next;
}

/** GET /deals/all for the filters: a page of `limit`, after `before` (newest first) or from `offset`. */
export function dealListPath(
  filters: DealFilters,
  page: { limit: number; before?: number; offset?: number },
): string {
  const params = filtersToParams(filters);
  params.set('limit', String(page.limit));
  if (page.before !== undefined) params.set('before', String(page.before));
  if (page.offset !== undefined) params.set('offset', String(page.offset));
  return `/deals/all?${params}`;
}

/** GET /deals/count for the filters (the order does not change a count). */
export const dealCountPath = (filters: DealFilters) => {
  const params = filtersToParams(filters, { sort: false }).toString();
  return params ? `/deals/count?${params}` : '/deals/count';
};

/** "12 deals match", "1 deal matches", "1,000+ deals match". */
export function matchCountText(count: { count: number; more: boolean }): string {
  const number = count.count.toLocaleString('en-US');
  if (count.more) return `${number}+ deals match`;
  return count.count === 1 ? '1 deal matches' : `${number} deals match`;
}

/** Where a deal stands, as the status filter names it (the server's own rule, server/db/schema/deals.ts). */
export function dealStageOf(deal: Pick<Deal, 'is_completed' | 'dealmaker' | 'dealer_joined'>): DealStage {
  if (deal.is_completed) return 'completed';
  if (deal.dealmaker) return 'in_progress';
  if (deal.dealer_joined) return 'choosing';
  return 'open';
}

type KeywordQuery = {
  /** Each clause must match: any one of its alternatives ("a or b" makes one clause of two). */
  clauses: string[][];
  excluded: string[];
};

/** Keywords read as the server reads them (websearch syntax): words, "phrases", -excluded, or. */
export function parseKeywords(q: string): KeywordQuery {
  const clauses: string[][] = [];
  const excluded: string[] = [];
  let joinNext = false;
  for (const token of q.toLowerCase().match(/-?"[^"]*"?|\S+/g) ?? []) {
    if (token === 'or') {
      joinNext = clauses.length > 0;
      continue;
    }
    const negated = token.startsWith('-') && token.length > 1;
    const term = token
      .replace(/^-/, '')
      .replace(/"/g, ' ')
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
    if (!term) continue;
    if (negated) excluded.push(term);
    else if (joinNext) clauses[clauses.length - 1]!.push(term);
    else clauses.push([term]);
    joinNext = false;
  }
  return { clauses, excluded };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether the text holds the term at the start of a word (so "coffee" finds "coffees", as stemming does). */
function holdsTerm(text: string, term: string): boolean {
  const words = term.split(' ').map(escapeRegExp).join('[^\\p{L}\\p{N}]+');
  return new RegExp(`(^|[^\\p{L}\\p{N}])${words}`, 'u').test(text);
}

/**
 * Whether the keywords find the deal, as near as the page can tell without the server's stemming: a
 * live deal joins a keyword list when this says so, and the next reload has the server's word.
 */
export function matchesKeywords(deal: Pick<Deal, 'title' | 'description'>, q: string): boolean {
  const { clauses, excluded } = parseKeywords(q);
  const text = `${deal.title}\n${deal.description}`.toLowerCase();
  return (
    clauses.every((alternatives) => alternatives.some((term) => holdsTerm(text, term))) &&
    !excluded.some((term) => holdsTerm(text, term))
  );
}

/** Whether a deal belongs to a list with these filters. */
export function matchesFilters(
  deal: Pick<Deal, 'title' | 'description' | 'budget' | 'is_completed' | 'dealmaker' | 'dealer_joined'>,
  filters: DealFilters,
): boolean {
  if (filters.status.length > 0 && !filters.status.includes(dealStageOf(deal))) return false;
  const cents = amountToCents(deal.budget);
  if (filters.minBudget !== undefined && cents < filters.minBudget) return false;
  if (filters.maxBudget !== undefined && cents > filters.maxBudget) return false;
  return !filters.q || matchesKeywords(deal, filters.q);
}

/** Negative when `a` comes before `b` in a list of this order. */
export type DealOrder = (a: Pick<Deal, 'id' | 'budget'>, b: Pick<Deal, 'id' | 'budget'>) => number;

/**
 * The order of a list, as the server sorts it (newest: id; budgets: budget, then id), for putting a
 * deal heard of live in its place; null for relevance, which only the server can rank.
 */
export function dealOrderOf(sort: DealSort): DealOrder | null {
  switch (sort) {
    case 'newest':
      return (a, b) => b.id - a.id;
    case 'budget_desc':
      return (a, b) => amountToCents(b.budget) - amountToCents(a.budget) || b.id - a.id;
    case 'budget_asc':
      return (a, b) => amountToCents(a.budget) - amountToCents(b.budget) || a.id - b.id;
    case 'relevance':
      return null;
  }
}

/** The filter an empty result most likely owes to: the budget, then the stages, then the keywords. */
export type BlamedFilter = 'budget' | 'status' | 'keywords';

export function blamedFilter(filters: DealFilters): BlamedFilter | null {
  if (filters.minBudget !== undefined || filters.maxBudget !== undefined) return 'budget';
  if (filters.status.length > 0) return 'status';
  if (filters.q) return 'keywords';
  return null;
}

export function withoutFilter(filters: DealFilters, which: BlamedFilter): DealFilters {
  if (which === 'budget') return withBudget(filters, {});
  if (which === 'status') return { ...filters, status: [] };
  return withKeywords(filters, '');
}

/** The budget bounds in words: "$1,000.00 – $5,000.00", "From $1,000.00", "Up to $5,000.00". */
export function budgetText(filters: Pick<DealFilters, 'minBudget' | 'maxBudget'>): string | null {
  const { minBudget: min, maxBudget: max } = filters;
  if (min !== undefined && max !== undefined) return `${formatUsdCents(min)} – ${formatUsdCents(max)}`;
  if (min !== undefined) return `From ${formatUsdCents(min)}`;
  if (max !== undefined) return `Up to ${formatUsdCents(max)}`;
  return null;
}

/** The filters in words: '“coffee” · Open, Seeking dealmaker · $1,000.00 – $5,000.00'. */
export function describeFilters(filters: DealFilters): string {
  const parts: string[] = [];
  if (filters.q) parts.push(`“${filters.q}”`);
  if (filters.status.length > 0) parts.push(filters.status.map((stage) => stageLabels[stage]).join(', '));
  const budget = budgetText(filters);
  if (budget) parts.push(budget);
  return parts.length > 0 ? parts.join(' · ') : 'All deals';
}

/** A saved search's query as filters (its amounts are dollars). */
export function savedQueryToFilters(query: SavedSearch['query']): DealFilters {
  const filters: DealFilters = {
    q: query.q?.trim() ?? '',
    status: orderedStages(query.status ?? []),
  };
  if (query.minBudget !== undefined) filters.minBudget = amountToCents(query.minBudget);
  if (query.maxBudget !== undefined) filters.maxBudget = amountToCents(query.maxBudget);
  return filters;
}

/** The filters as a saved search's query (POST /saved-searches): the order is not saved. */
export function filtersToSavedQuery(filters: DealFilters): SavedSearch['query'] {
  const query: SavedSearch['query'] = {};
  if (filters.q) query.q = filters.q;
  if (filters.status.length > 0) query.status = [...filters.status];
  if (filters.minBudget !== undefined) query.minBudget = centsToDollars(filters.minBudget);
  if (filters.maxBudget !== undefined) query.maxBudget = centsToDollars(filters.maxBudget);
  return query;
}
