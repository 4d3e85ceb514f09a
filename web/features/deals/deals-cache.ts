import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Deal, PublicDeal } from '../../../contract/deals';
import type { DealListItem } from '../../../contract/discovery';
import { nothingAllowed } from '../../../contract/vocabulary';
import {
  type DealFilters,
  type DealOrder,
  dealOrderOf,
  effectiveSort,
  filtersFromParams,
  filtersKey,
  matchesFilters,
  noFilters,
} from './deal-filters';
import { dealDetailKey } from './deal-query';
import { dealViewerOf } from './deal-viewer';

/**
 * The one place that knows where deals live in the query cache: the query keys, and the functions
 * that patch every cached copy of a deal at once (after a call of this user, or — later — when the
 * realtime layer hears of a change). The deals lists are in the order their filters ask (newest
 * first unless chosen otherwise, deal-filters.ts); the other lists newest first (by id), as the API answers.
 */

/** A page of the deals list (GET /deals/all?filters&limit&before|offset). */
export type DealPage = {
  deals: DealListItem[];
  /** Newest first: the cursor for the next page (the id of the server's last deal of this page), or none at the end. */
  nextBefore: number | undefined;
  /** Any other order: where the next page starts, or none at the end. */
  nextOffset?: number;
};
/** The page parameter is `before` for a newest-first list, `offset` for any other order. */
export type DealListData = InfiniteData<DealPage, number | undefined>;

export const dealsPageSize = 24;

export const dealQueryKeys = {
  /** Everything about deals: invalidating it reloads every list, deal and bid list. */
  all: ['deals'] as const,
  /** Every deals list, whatever its filters. */
  lists: () => ['deals', 'list'] as const,
  /** The deals list for some filters (a string: keywords alone; '' = all deals, newest first). */
  list: (filters: DealFilters | string) =>
    [
      'deals',
      'list',
      filtersKey(typeof filters === 'string' ? { ...noFilters, q: filters } : filters),
    ] as const,
  /** Every count of a search (GET /deals/count). */
  counts: () => ['deals', 'count'] as const,
  /** How many deals the filters find (the order left out: it changes no count). */
  count: (filters: DealFilters) => ['deals', 'count', filtersKey({ ...filters, sort: undefined })] as const,
  /** GET /deals/my-deals: deals the viewer created or joined. */
  mine: () => ['deals', 'mine'] as const,
  /** GET /deals/dealmaker-deals: deals the viewer is the dealmaker of. */
  dealmaker: () => ['deals', 'dealmaker'] as const,
  /** GET /deals/{id}; also the prefix of everything that belongs to that deal. */
  detail: dealDetailKey,
  /** GET /bidding/deal/{dealId}. */
  bids: (dealId: number) => ['deals', 'detail', dealId, 'bids'] as const,
  /** GET /deals/{id}/join-requests: requests to join an 'approval' deal (all to its creator, one's own to others). */
  joinRequests: (dealId: number) => ['deals', 'detail', dealId, 'join-requests'] as const,
  /** GET /request-dealmaker/{dealId}: the requests the dealers of a deal sent (dealmaker-requests feature). */
  requests: (dealId: number) => ['deals', 'detail', dealId, 'requests'] as const,
};

/**
 * Where a deal comes from. 'viewer': the API's answer to this user, `my_bid` and `can` included.
 * 'broadcast': public fields only (`my_bid` is always null, no `can`), so the cached `my_bid` and
 * `can` are kept (a deal not cached yet allows nothing until the viewer's answer comes: refreshDeal).
 */
export type DealSource = 'viewer' | 'broadcast';

export type UpsertOptions = {
  source?: DealSource;
  /**
   * The signed-in user's username. With it, the deal also enters or leaves "my deals" and
   * "dealmaker deals" as the viewer's part in it changes; without it, only copies already there change.
   */
  viewer?: string | null;
};

/**
 * The cached copy replaced by the incoming one, keeping what the incoming copy cannot know: the viewer's
 * own bid and `can` after a broadcast, and a search result's snippet while the description is the same.
 */
export function mergeDeal<Cached extends DealListItem>(
  cached: Cached | undefined,
  incoming: Deal | PublicDeal,
  source: DealSource,
): Cached {
  let merged: DealListItem;
  if (source === 'viewer' && 'can' in incoming) merged = incoming;
  else {
    const { can: _can, ...fields } = incoming as Deal;
    merged = {
      ...fields,
      my_bid: cached ? cached.my_bid : fields.my_bid,
      can: cached?.can ?? nothingAllowed,
    };
  }
  if (cached?.snippet && !('snippet' in merged) && cached.description === merged.description) {
    merged = { ...merged, snippet: cached.snippet };
  }
  return merged as Cached;
}

const newestFirst: DealOrder = (a, b) => b.id - a.id;

/** Inserts a deal into an ordered list, before the first deal it comes before. */
function insertInOrder<D extends Deal>(deals: D[], deal: D, order: DealOrder): D[] {
  const index = deals.findIndex((other) => order(deal, other) < 0);
  return index === -1 ? [...deals, deal] : [...deals.slice(0, index), deal, ...deals.slice(index)];
}

/**
 * A paged list with the deal patched in. A deal the list does not hold yet goes in at its place
 * when `insert` allows it (true: newest first; an order; 'first': at the top, for a ranked list whose
 * order only the server knows) and that place lies within the pages loaded so far (a deal further
 * down arrives with a later page instead).
 */
export function upsertInPages(
  data: DealListData,
  deal: Deal | PublicDeal,
  options: { source: DealSource; insert: boolean | DealOrder | 'first' },
): DealListData {
  let found = false;
  const pages = data.pages.map((page) => {
    if (!page.deals.some((other) => other.id === deal.id)) return page;
    found = true;
    return {
      ...page,
      deals: page.deals.map((other) =>
        other.id === deal.id ? mergeDeal(other, deal, options.source) : other,
      ),
    };
  });
  if (found) return { ...data, pages };
  if (!options.insert || pages.length === 0) return data;

  const incoming = mergeDeal<DealListItem>(undefined, deal, options.source);
  if (options.insert === 'first') {
    pages[0] = { ...pages[0]!, deals: [incoming, ...pages[0]!.deals] };
    return { ...data, pages };
  }
  const order = options.insert === true ? newestFirst : options.insert;
  const pageIndex = pages.findIndex((page) => page.deals.some((other) => order(incoming, other) < 0));
  if (pageIndex !== -1) {
    const page = pages[pageIndex]!;
    pages[pageIndex] = { ...page, deals: insertInOrder(page.deals, incoming, order) };
    return { ...data, pages };
  }
  // After everything loaded: it belongs here only if the whole list is loaded.
  const lastIndex = pages.length - 1;
  const last = pages[lastIndex]!;
  if (last.nextBefore !== undefined || last.nextOffset !== undefined) return data;
  pages[lastIndex] = { ...last, deals: [...last.deals, incoming] };
  return { ...data, pages };
}

/** A paged list without the deal. */
export function removeFromPages(data: DealListData, dealId: number): DealListData {
  if (!data.pages.some((page) => page.deals.some((deal) => deal.id === dealId))) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, deals: page.deals.filter((deal) => deal.id !== dealId) })),
  };
}

/**
 * A plain list with the deal patched in. `belongs`: whether the deal should be in it now (true:
 * replaced or inserted, false: removed); undefined when that is unknown (only an existing copy changes).
 */
export function upsertInList(
  list: Deal[],
  deal: Deal | PublicDeal,
  options: { source: DealSource; belongs: boolean | undefined },
): Deal[] {
  const cached = list.find((other) => other.id === deal.id);
  if (options.belongs === false) return cached ? list.filter((other) => other.id !== deal.id) : list;
  if (cached)
    return list.map((other) => (other.id === deal.id ? mergeDeal(other, deal, options.source) : other));
  return options.belongs
    ? insertInOrder(list, mergeDeal<Deal>(undefined, deal, options.source), newestFirst)
    : list;
}

/** The filters a cached list was loaded for (its key is ['deals', 'list', filtersKey]). */
function filtersOf(queryKey: readonly unknown[]): DealFilters {
  return filtersFromParams(new URLSearchParams(typeof queryKey[2] === 'string' ? queryKey[2] : ''));
}

/** Where a deal the list does not hold goes in a list with these filters: nowhere when they do not find it. */
function placeIn(deal: Deal | PublicDeal, filters: DealFilters): DealOrder | 'first' | false {
  if (!matchesFilters(deal, filters)) return false;
  return dealOrderOf(effectiveSort(filters)) ?? 'first';
}

/**
 * Puts a new or changed deal into every cached place it shows: the deals lists (a deal they do not
 * hold enters the lists whose filters find it, at its place in their order; a changed deal stays
 * where it is, even when it no longer matches, so that a card does not vanish under the pointer),
 * my deals, dealmaker deals, and the deal itself.
 */
export function upsertDealInCaches(
  queryClient: QueryClient,
  deal: Deal | PublicDeal,
  options: UpsertOptions = {},
) {
  const source = options.source ?? 'broadcast';
  const viewer = options.viewer ?? null;

  for (const [queryKey, data] of queryClient.getQueriesData<DealListData>({
    queryKey: dealQueryKeys.lists(),
  })) {
    if (!data) continue;
    const insert = placeIn(deal, filtersOf(queryKey));
    queryClient.setQueryData<DealListData>(queryKey, upsertInPages(data, deal, { source, insert }));
  }

  // The viewer's part in the deal now decides whether it belongs in "my deals" and "dealmaker deals".
  const seen = viewer ? dealViewerOf(deal, viewer) : null;
  queryClient.setQueryData<Deal[]>(dealQueryKeys.mine(), (list) =>
    list ? upsertInList(list, deal, { source, belongs: seen?.isDealer }) : list,
  );
  queryClient.setQueryData<Deal[]>(dealQueryKeys.dealmaker(), (list) =>
    list ? upsertInList(list, deal, { source, belongs: seen ? seen.role === 'dealmaker' : undefined }) : list,
  );

  const cached = queryClient.getQueryData<Deal>(dealQueryKeys.detail(deal.id));
  // A broadcast never creates the entry: it cannot tell the viewer's own bid.
  if (cached || source === 'viewer') {
    queryClient.setQueryData<Deal>(dealQueryKeys.detail(deal.id), mergeDeal(cached, deal, source));
  }
}

/** Whether any cached list, or the deal's own entry, holds a copy of the deal. */
export function holdsDeal(queryClient: QueryClient, dealId: number): boolean {
  if (queryClient.getQueryData<Deal>(dealQueryKeys.detail(dealId))) return true;
  const inList = (list: Deal[] | undefined) => !!list?.some((deal) => deal.id === dealId);
  if (inList(queryClient.getQueryData<Deal[]>(dealQueryKeys.mine()))) return true;
  if (inList(queryClient.getQueryData<Deal[]>(dealQueryKeys.dealmaker()))) return true;
  return queryClient
    .getQueriesData<DealListData>({ queryKey: dealQueryKeys.lists() })
    .some(([, data]) => !!data?.pages.some((page) => inList(page.deals)));
}

/** Takes a deleted deal out of every cached list; an open detail view reloads (and finds it gone). */
export function removeDealFromCaches(queryClient: QueryClient, dealId: number) {
  for (const [queryKey, data] of queryClient.getQueriesData<DealListData>({
    queryKey: dealQueryKeys.lists(),
  })) {
    if (data) queryClient.setQueryData<DealListData>(queryKey, removeFromPages(data, dealId));
  }
  for (const key of [dealQueryKeys.mine(), dealQueryKeys.dealmaker()]) {
    queryClient.setQueryData<Deal[]>(key, (list) => list?.filter((deal) => deal.id !== dealId));
  }
  queryClient.removeQueries({ queryKey: dealQueryKeys.detail(dealId), type: 'inactive' });
  void queryClient.invalidateQueries({ queryKey: dealQueryKeys.detail(dealId) });
}

/** Sets the viewer's own bid on a deal (after placing, changing or deleting it) in every cached copy. */
export function setMyBidInCaches(queryClient: QueryClient, dealId: number, myBid: Deal['my_bid']) {
  const patch = (deal: Deal) => (deal.id === dealId ? { ...deal, my_bid: myBid } : deal);
  for (const [queryKey, data] of queryClient.getQueriesData<DealListData>({
    queryKey: dealQueryKeys.lists(),
  })) {
    if (!data?.pages.some((page) => page.deals.some((deal) => deal.id === dealId))) continue;
    queryClient.setQueryData<DealListData>(queryKey, {
      ...data,
      pages: data.pages.map((page) => ({ ...page, deals: page.deals.map(patch) })),
    });
  }
  for (const key of [dealQueryKeys.mine(), dealQueryKeys.dealmaker()]) {
    queryClient.setQueryData<Deal[]>(key, (list) => list?.map(patch));
  }
  queryClient.setQueryData<Deal>(dealQueryKeys.detail(dealId), (deal) => (deal ? patch(deal) : deal));
}
