import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Bid, Deal, SelectBidResponse } from '../../../contract/deals';
import { api } from '../../lib/api';
import { type MutationCallbacks, useGuardedMutation } from '../../lib/use-guarded-mutation';
import { useApplyDeal, useReloadDeal } from './deals-api';
import { dealQueryKeys, setMyBidInCaches } from './deals-cache';

/** The bids of a deal: every bid for its dealers, only the viewer's own for anyone else. */
export const useDealBids = (dealId: number, enabled = true) =>
  useQuery({
    queryKey: dealQueryKeys.bids(dealId),
    queryFn: ({ signal }) => api.get<Bid[]>(`/bidding/deal/${dealId}`, { signal }),
    enabled,
  });

/**
 * After a bid changes: the viewer's own bid everywhere at once, then the deal as the server now answers
 * it (what the viewer may do: update or delete the bid instead of bidding; the selections, since a
 * changed bid is unselected), and its bids. The call settles once the deal is reloaded.
 */
function useApplyBid() {
  const queryClient = useQueryClient();
  const reloadDeal = useReloadDeal();
  return async (dealId: number, myBid: Deal['my_bid']) => {
    setMyBidInCaches(queryClient, dealId, myBid);
    await reloadDeal(dealId);
    void queryClient.invalidateQueries({ queryKey: dealQueryKeys.bids(dealId) });
  };
}

/** What a bid says beside its price: what the bidder offers to do, and in how many days (null: not said). */
export type BidDetails = { proposal?: string | null; deliveryDays?: number | null };

export type NewBidInput = { dealId: number; price: number } & BidDetails;
export type BidChangeInput = { bidId: number; price: number } & BidDetails;

export function useCreateBid(callbacks?: MutationCallbacks<Bid, NewBidInput>) {
  const applyBid = useApplyBid();
  return useGuardedMutation(
    {
      mutationFn: (input: NewBidInput) => api.post<Bid>('/bidding/create', input),
      onSuccess: (bid) => applyBid(bid.dealId, { id: bid.id, price: bid.price }),
    },
    callbacks,
  );
}

export function useUpdateBid(callbacks?: MutationCallbacks<Bid, BidChangeInput>) {
  const applyBid = useApplyBid();
  return useGuardedMutation(
    {
      mutationFn: ({ bidId, ...change }: BidChangeInput) => api.put<Bid>(`/bidding/${bidId}`, change),
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
      mutationFn: async (input: { dealId: number; bidId: number }) =>
        (await api.put<SelectBidResponse>(`/bid-management/select-bid/${input.dealId}/${input.bidId}`)).deal,
      onSuccess: (deal) => {
        applyDeal(deal);
        if (deal.dealmaker) {
          // Finalized: the other bids and the open requests are gone.
          void queryClient.invalidateQueries({ queryKey: dealQueryKeys.bids(deal.id) });
          void queryClient.invalidateQueries({ queryKey: dealQueryKeys.requests(deal.id) });
        }
      },
    },
    callbacks,
  );
}
