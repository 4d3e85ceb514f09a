import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Bid, CreateDealRequest, Deal } from '../../../contract/deals';
import { api, segment } from '../../lib/api';
import { type MutationCallbacks, useGuardedMutation } from '../../lib/use-guarded-mutation';
import { useAuth } from '../auth/auth-context';
import { dealmakerRequestKeys } from '../dealmaker-requests/dealmaker-requests-api';
import {
  type DealPage,
  dealQueryKeys,
  dealsPageSize,
  removeDealFromCaches,
  setMyBidInCaches,
  upsertDealInCaches,
} from './deals-cache';

/** The deals list, newest first, a page at a time; a keyword narrows it to matching titles and descriptions. */
export const useDealsList = (keyword: string) =>
  useInfiniteQuery({
    queryKey: dealQueryKeys.list(keyword),
    queryFn: async ({ pageParam, signal }): Promise<DealPage> => {
      const base = keyword ? `/deals/all/${segment(keyword)}` : '/deals/all';
      const cursor = pageParam ? `&before=${pageParam}` : '';
      const deals = await api.get<Deal[]>(`${base}?limit=${dealsPageSize}${cursor}`, { signal });
      return {
        deals,
        nextBefore: deals.length === dealsPageSize ? deals[deals.length - 1]?.id : undefined,
      };
    },
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (lastPage) => lastPage.nextBefore,
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

export const useDeal = (dealId: number) =>
  useQuery({
    queryKey: dealQueryKeys.detail(dealId),
    queryFn: ({ signal }) => api.get<Deal>(`/deals/${dealId}`, { signal }),
    enabled: Number.isInteger(dealId) && dealId > 0,
  });

/** The bids of a deal: every bid for its dealers, only the viewer's own for anyone else. */
export const useDealBids = (dealId: number, enabled = true) =>
  useQuery({
    queryKey: dealQueryKeys.bids(dealId),
    queryFn: ({ signal }) => api.get<Bid[]>(`/bidding/deal/${dealId}`, { signal }),
    enabled,
  });

/** Patches the caches with a deal the API answered this user with. */
function useApplyDeal() {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  return (deal: Deal) =>
    upsertDealInCaches(queryClient, deal, { source: 'viewer', viewer: user?.username ?? null });
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
        queryClient.removeQueries({ queryKey: dealmakerRequestKeys.ofDeal(deal.id) });
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
        queryClient.removeQueries({ queryKey: dealmakerRequestKeys.ofDeal(dealId) });
      },
    },
    callbacks,
  );
}

/** After a bid changes: the viewer's own bid everywhere, the deal's bids, and its selections (a changed bid is unselected). */
function useApplyBid() {
  const queryClient = useQueryClient();
  return (dealId: number, myBid: Deal['my_bid']) => {
    setMyBidInCaches(queryClient, dealId, myBid);
    void queryClient.invalidateQueries({ queryKey: dealQueryKeys.detail(dealId) });
  };
}

export function useCreateBid(callbacks?: MutationCallbacks<Bid, { dealId: number; price: number }>) {
  const applyBid = useApplyBid();
  return useGuardedMutation(
    {
      mutationFn: (input: { dealId: number; price: number }) => api.post<Bid>('/bidding/create', input),
      onSuccess: (bid) => applyBid(bid.dealId, { id: bid.id, price: bid.price }),
    },
    callbacks,
  );
}

export function useUpdateBid(callbacks?: MutationCallbacks<Bid, { bidId: number; price: number }>) {
  const applyBid = useApplyBid();
  return useGuardedMutation(
    {
      mutationFn: (input: { bidId: number; price: number }) =>
        api.put<Bid>(`/bidding/${input.bidId}`, { price: input.price }),
      onSuccess: (bid) => applyBid(bid.dealId, { id: bid.id, price: bid.price }),
    },
    callbacks,
  );
}

export function useDeleteBid(
  callbacks?: MutationCallbacks<{ message: string }, { bidId: number; dealId: number }>,
) {
  const applyBid = useApplyBid();
  return useGuardedMutation(
    {
      mutationFn: (input: { bidId: number; dealId: number }) =>
        api.delete<{ message: string }>(`/bidding/${input.bidId}`),
      onSuccess: (_answer, input) => applyBid(input.dealId, null),
    },
    callbacks,
  );
}

/** A dealer selects a bid, or unselects it with a second click; the same bid chosen by both finalizes the deal. */
export function useSelectBid(callbacks?: MutationCallbacks<Deal, { dealId: number; bidId: number }>) {
  const queryClient = useQueryClient();
  const applyDeal = useApplyDeal();
  return useGuardedMutation(
    {
      mutationFn: (input: { dealId: number; bidId: number }) =>
        api.put<Deal>(`/bid-management/select-bid/${input.dealId}/${input.bidId}`),
      onSuccess: (deal) => {
        applyDeal(deal);
        if (deal.dealmaker) {
          // Finalized: the other bids and the open requests are gone.
          void queryClient.invalidateQueries({ queryKey: dealQueryKeys.bids(deal.id) });
          void queryClient.invalidateQueries({ queryKey: dealmakerRequestKeys.ofDeal(deal.id) });
        }
      },
    },
    callbacks,
  );
}
