import {
  infiniteQueryOptions,
  keepPreviousData,
  type QueryClient,
  useInfiniteQuery,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { EditDealRequest } from '../../../contract/deal-changes';
import type { CreateDealRequest, Deal } from '../../../contract/deals';
import type { DealCount, DealListItem } from '../../../contract/discovery';
import { limits } from '../../../contract/limits';
import { api } from '../../lib/api';
import { type MutationCallbacks, useGuardedMutation } from '../../lib/use-guarded-mutation';
import { useAuth } from '../auth';
import { type DealFilters, dealCountPath, dealListPath, effectiveSort, hasFilters } from './deal-filters';
import { dealQueryOptions } from './deal-query';
import {
  type DealPage,
  dealQueryKeys,
  dealsPageSize,
  holdsDeal,
  removeDealFromCaches,
  upsertDealInCaches,
} from './deals-cache';

/**
 * The deals list for some filters, a page at a time: newest first paged by the last id (`before`), any
 * other order by position (`offset`, as far as the API pages).
 */
export const dealsListQueryOptions = (filters: DealFilters) =>
  infiniteQueryOptions({
    queryKey: dealQueryKeys.list(filters),
    queryFn: async ({ pageParam, signal }): Promise<DealPage> => {
      const newest = effectiveSort(filters) === 'newest';
      const cursor = pageParam === undefined ? {} : newest ? { before: pageParam } : { offset: pageParam };
      const deals = await api.get<DealListItem[]>(
        dealListPath(filters, { limit: dealsPageSize, ...cursor }),
        { signal },
      );
      const full = deals.length === dealsPageSize;
      if (newest) return { deals, nextBefore: full ? deals[deals.length - 1]?.id : undefined };
      const nextOffset = (pageParam ?? 0) + deals.length;
      return {
        deals,
        nextBefore: undefined,
        nextOffset: full && nextOffset <= limits.discovery.maxOffset ? nextOffset : undefined,
      };
    },
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (lastPage) => lastPage.nextBefore ?? lastPage.nextOffset,
  });

/** The deals list for some filters; while other filters load, the last results stay on screen (`isPlaceholderData`). */
export const useDealsList = (filters: DealFilters) =>
  useInfiniteQuery({ ...dealsListQueryOptions(filters), placeholderData: keepPreviousData });

/** How many deals the filters find ({ count, more }: exact up to 1,000); asked only when some filter is set. */
export const useDealsCount = (filters: DealFilters) =>
  useQuery({
    queryKey: dealQueryKeys.count(filters),
    queryFn: ({ signal }) => api.get<DealCount>(dealCountPath(filters), { signal }),
    enabled: hasFilters(filters),
    placeholderData: keepPreviousData,
  });

/** Deals the viewer created or joined (GET /deals/my-deals). */
export const useMyDeals = (enabled = true) =>
  useQuery({
    queryKey: dealQueryKeys.mine(),
    queryFn: ({ signal }) => api.get<Deal[]>('/deals/my-deals', { signal }),
    enabled,
  });

/** Deals the viewer is the dealmaker of (GET /deals/dealmaker-deals). */
export const useDealmakerDeals = () =>
  useQuery({
    queryKey: dealQueryKeys.dealmaker(),
    queryFn: ({ signal }) => api.get<Deal[]>('/deals/dealmaker-deals', { signal }),
  });

export const useDeal = (dealId: number) => useQuery(dealQueryOptions(dealId));

/** Patches the caches with a deal the API answered this user with. */
export function useApplyDeal() {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  return (deal: Deal) =>
    upsertDealInCaches(queryClient, deal, { source: 'viewer', viewer: user?.username ?? null });
}

/**
 * Reloads a deal as this viewer sees it (my_bid, escrow_paid) into every cached copy, e.g. after its
 * escrow changed. If that fails, the cached deal is marked stale instead.
 */
export async function reloadDeal(
  queryClient: QueryClient,
  dealId: number,
  viewer: string | null,
  stale: () => boolean = () => false,
) {
  try {
    const deal = await api.get<Deal>(`/deals/${dealId}`);
    // An answer overtaken by a newer change is dropped: it would put back the deal as it was before.
    if (stale()) return;
    upsertDealInCaches(queryClient, deal, { source: 'viewer', viewer });
  } catch (error) {
    console.error('Reloading the deal failed', error);
    void queryClient.invalidateQueries({ queryKey: dealQueryKeys.detail(dealId), exact: true });
  }
}

/** Deals being reloaded by refreshDeal, and whether another change came meanwhile. */
const refreshing = new WeakMap<QueryClient, Map<number, { again: boolean }>>();

/**
 * After a broadcast of a change to a deal (public fields only): reloads the deal as this viewer sees it
 * (`can`, `my_bid`) into every cached copy, in the background, when some cache holds it. Changes heard
 * while a reload is under way make one more reload after it, so the last answer is never older than
 * the last change.
 */
export async function refreshDeal(queryClient: QueryClient, dealId: number, viewer: string | null) {
  if (!holdsDeal(queryClient, dealId)) return;
  let inFlight = refreshing.get(queryClient);
  if (!inFlight) {
    inFlight = new Map();
    refreshing.set(queryClient, inFlight);
  }
  const running = inFlight.get(dealId);
  if (running) {
    running.again = true;
    return;
  }
  const state = { again: false };
  inFlight.set(dealId, state);
  try {
    do {
      state.again = false;
      await reloadDeal(queryClient, dealId, viewer, () => state.again);
    } while (state.again && holdsDeal(queryClient, dealId));
  } finally {
    inFlight.delete(dealId);
  }
}

/** reloadDeal for the signed-in user. */
export function useReloadDeal() {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  return (dealId: number) => reloadDeal(queryClient, dealId, user?.username ?? null);
}

export function useCreateDeal(callbacks?: MutationCallbacks<Deal, CreateDealRequest>) {
  const applyDeal = useApplyDeal();
  return useGuardedMutation(
    {
      mutationFn: (input: CreateDealRequest) => api.post<Deal>('/deals/create-deal', input),
      onSuccess: applyDeal,
    },
    callbacks,
  );
}

export function useJoinDeal(callbacks?: MutationCallbacks<Deal, number>) {
  const queryClient = useQueryClient();
  const applyDeal = useApplyDeal();
  return useGuardedMutation(
    {
      mutationFn: (dealId: number) => api.put<Deal>(`/deals/join-deal-as-dealer/${dealId}`),
      onSuccess: (deal) => {
        applyDeal(deal);
        // A dealer sees every bid of the deal, not only their own.
        void queryClient.invalidateQueries({ queryKey: dealQueryKeys.bids(deal.id) });
      },
    },
    callbacks,
  );
}

export function useLeaveDeal(callbacks?: MutationCallbacks<Deal, number>) {
  const queryClient = useQueryClient();
  const applyDeal = useApplyDeal();
  return useGuardedMutation(
    {
      mutationFn: (dealId: number) => api.put<Deal>(`/deals/leave-deal-as-dealer/${dealId}`),
      onSuccess: (deal) => {
        applyDeal(deal);
        // A former dealer no longer sees the deal's bids and requests.
        queryClient.removeQueries({ queryKey: dealQueryKeys.bids(deal.id) });
        queryClient.removeQueries({ queryKey: dealQueryKeys.requests(deal.id) });
      },
    },
    callbacks,
  );
}

export function useDeleteDeal(callbacks?: MutationCallbacks<{ message: string }, number>) {
  const queryClient = useQueryClient();
  return useGuardedMutation(
    {
      mutationFn: (dealId: number) => api.delete<{ message: string }>(`/deals/delete-deal/${dealId}`),
      onSuccess: (_answer, dealId) => {
        removeDealFromCaches(queryClient, dealId);
        queryClient.removeQueries({ queryKey: dealQueryKeys.requests(dealId) });
      },
    },
    callbacks,
  );
}

export type EditDealInput = { dealId: number; edit: EditDealRequest };

/** PATCH /deals/{id}: the creator changes the fields they typed differently, while the deal has no dealmaker. */
export function useEditDeal(callbacks?: MutationCallbacks<Deal, EditDealInput>) {
  const applyDeal = useApplyDeal();
  return useGuardedMutation(
    {
      mutationFn: ({ dealId, edit }: EditDealInput) => api.patch<Deal>(`/deals/${dealId}`, edit),
      onSuccess: applyDeal,
    },
    callbacks,
  );
}

/** DELETE /deals/{id}/counterpart: the creator removes the counterpart, as if they had left. */
export function useRemoveCounterpart(callbacks?: MutationCallbacks<Deal, number>) {
  const queryClient = useQueryClient();
  const applyDeal = useApplyDeal();
  return useGuardedMutation(
    {
      mutationFn: (dealId: number) => api.delete<Deal>(`/deals/${dealId}/counterpart`),
      onSuccess: (deal) => {
        applyDeal(deal);
        // The former counterpart's bid selection went with them: the bids and requests are asked again.
        void queryClient.invalidateQueries({ queryKey: dealQueryKeys.requests(deal.id) });
        void queryClient.invalidateQueries({ queryKey: dealQueryKeys.bids(deal.id) });
      },
    },
    callbacks,
  );
}
