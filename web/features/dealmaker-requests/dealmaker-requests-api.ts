import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Deal, DealmakerRequest, IncomingRequest } from '../../../contract/deals';
import type { User } from '../../../contract/users';
import { api } from '../../lib/api';
import { type MutationCallbacks, useGuardedMutation } from '../../lib/use-guarded-mutation';
import { dealQueryKeys, useApplyDeal } from '../deals';

export const dealmakerRequestKeys = {
  /** GET /request-dealmaker/{dealId}: the requests the dealers of a deal sent, kept under the deal's key. */
  ofDeal: dealQueryKeys.requests,
  /** GET /request-dealmaker/my-requests: requests waiting for the viewer's answer. */
  incoming: () => ['dealmaker-requests', 'incoming'] as const,
  /** GET /auth/public-info: users the dealers of a deal may ask. */
  candidates: (dealId: number, keyword: string) =>
    ['dealmaker-requests', 'candidates', dealId, keyword] as const,
};

export const useDealRequests = (dealId: number, enabled = true) =>
  useQuery({
    queryKey: dealmakerRequestKeys.ofDeal(dealId),
    queryFn: ({ signal }) => api.get<DealmakerRequest[]>(`/request-dealmaker/${dealId}`, { signal }),
    enabled,
  });

export const useIncomingRequests = (enabled = true) =>
  useQuery({
    queryKey: dealmakerRequestKeys.incoming(),
    queryFn: ({ signal }) => api.get<IncomingRequest[]>('/request-dealmaker/my-requests', { signal }),
    enabled,
  });

/** Users a dealer may request as dealmaker, by username or name; never the deal's own people. */
export const useRequestCandidates = (dealId: number, keyword: string, enabled = true) =>
  useQuery({
    queryKey: dealmakerRequestKeys.candidates(dealId, keyword),
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ keyword, dealId: String(dealId) });
      return api.get<User[]>(`/auth/public-info?${query}`, { signal });
    },
    enabled,
    placeholderData: keepPreviousData,
  });

export function useSendRequest(
  callbacks?: MutationCallbacks<
    DealmakerRequest,
    { dealId: number; receiverUsername: string; message: string }
  >,
) {
  const queryClient = useQueryClient();
  return useGuardedMutation(
    {
      mutationFn: (input: { dealId: number; receiverUsername: string; message: string }) =>
        api.post<DealmakerRequest>('/request-dealmaker/send-request', input),
      onSettled: (_request, _error, input) =>
        queryClient.invalidateQueries({ queryKey: dealmakerRequestKeys.ofDeal(input.dealId) }),
    },
    callbacks,
  );
}

export function useCancelRequest(
  callbacks?: MutationCallbacks<{ message: string }, Pick<DealmakerRequest, 'id' | 'dealId'>>,
) {
  const queryClient = useQueryClient();
  return useGuardedMutation(
    {
      mutationFn: (request: Pick<DealmakerRequest, 'id' | 'dealId'>) =>
        api.delete<{ message: string }>(`/request-dealmaker/cancel/${request.id}`),
      onSettled: (_answer, _error, request) =>
        queryClient.invalidateQueries({ queryKey: dealmakerRequestKeys.ofDeal(request.dealId) }),
    },
    callbacks,
  );
}

/** The receiver accepts: they become the deal's dealmaker (its other bids and requests are removed). */
export function useAcceptRequest(
  callbacks?: MutationCallbacks<{ message: string; deal: Deal }, Pick<IncomingRequest, 'id' | 'dealId'>>,
) {
  const queryClient = useQueryClient();
  const applyDeal = useApplyDeal();
  return useGuardedMutation(
    {
      mutationFn: (request: Pick<IncomingRequest, 'id' | 'dealId'>) =>
        api.post<{ message: string; deal: Deal }>(`/request-dealmaker/accept/${request.id}`),
      onSuccess: ({ deal }) => {
        applyDeal(deal);
        void queryClient.invalidateQueries({ queryKey: dealQueryKeys.dealmaker() });
        void queryClient.invalidateQueries({ queryKey: dealQueryKeys.bids(deal.id) });
        void queryClient.invalidateQueries({ queryKey: dealmakerRequestKeys.ofDeal(deal.id) });
      },
      onSettled: () => queryClient.invalidateQueries({ queryKey: dealmakerRequestKeys.incoming() }),
    },
    callbacks,
  );
}

export function useRejectRequest(
  callbacks?: MutationCallbacks<
    { message: string; request: DealmakerRequest },
    Pick<IncomingRequest, 'id' | 'dealId'>
  >,
) {
  const queryClient = useQueryClient();
  return useGuardedMutation(
    {
      mutationFn: (request: Pick<IncomingRequest, 'id' | 'dealId'>) =>
        api.post<{ message: string; request: DealmakerRequest }>(`/request-dealmaker/reject/${request.id}`),
      onSettled: () => queryClient.invalidateQueries({ queryKey: dealmakerRequestKeys.incoming() }),
    },
    callbacks,
  );
}
