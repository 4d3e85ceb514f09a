import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AskToJoinRequest, JoinDecisionResponse, JoinRequest } from '../../../contract/deal-changes';
import { api } from '../../lib/api';
import { type MutationCallbacks, useGuardedMutation } from '../../lib/use-guarded-mutation';
import { useApplyDeal } from './deals-api';
import { dealQueryKeys } from './deals-cache';

/**
 * Requests to join a deal posted with joinPolicy 'approval' (GET /deals/{id}/join-requests), newest
 * first: every request to its creator, only their own to anyone else. Realtime 'join-request-updated'
 * reloads them.
 */
export const useJoinRequests = (dealId: number, enabled: boolean) =>
  useQuery({
    queryKey: dealQueryKeys.joinRequests(dealId),
    queryFn: ({ signal }) => api.get<JoinRequest[]>(`/deals/${dealId}/join-requests`, { signal }),
    enabled,
  });

/** The viewer's latest request to join, from their own list (the newest comes first), if any. */
export const latestJoinRequest = (requests: JoinRequest[] | undefined): JoinRequest | undefined =>
  requests?.[0];

/** A deal's creator's list of requests still waiting for an answer. */
export const pendingJoinRequests = (requests: JoinRequest[] | undefined): JoinRequest[] =>
  requests?.filter((request) => request.status === 'pending') ?? [];

export type AskToJoinInput = { dealId: number } & AskToJoinRequest;

/** POST /deals/{id}/join-requests: the viewer asks the deal's creator to accept them as its counterpart. */
export function useAskToJoin(callbacks?: MutationCallbacks<JoinRequest, AskToJoinInput>) {
  const queryClient = useQueryClient();
  return useGuardedMutation(
    {
      mutationFn: ({ dealId, message }: AskToJoinInput) =>
        api.post<JoinRequest>(`/deals/${dealId}/join-requests`, { message }),
      onSuccess: (request) => {
        // Shown as waiting at once, wherever the deal is; the list is asked again behind it.
        queryClient.setQueryData<JoinRequest[]>(dealQueryKeys.joinRequests(request.dealId), (list) => [
          request,
          ...(list ?? []).filter((other) => other.id !== request.id),
        ]);
        void queryClient.invalidateQueries({ queryKey: dealQueryKeys.joinRequests(request.dealId) });
      },
    },
    callbacks,
  );
}

export type JoinDecision = 'accept' | 'decline';
export type JoinDecisionInput = { dealId: number; requestId: number; decision: JoinDecision };

/**
 * POST /deals/{id}/join-requests/{requestId}/accept or /decline: the creator's answer. Accepting makes
 * the requester the counterpart (and declines the other pending requests).
 */
export function useDecideJoinRequest(callbacks?: MutationCallbacks<JoinDecisionResponse, JoinDecisionInput>) {
  const queryClient = useQueryClient();
  const applyDeal = useApplyDeal();
  return useGuardedMutation(
    {
      mutationFn: ({ dealId, requestId, decision }: JoinDecisionInput) =>
        api.post<JoinDecisionResponse>(`/deals/${dealId}/join-requests/${requestId}/${decision}`),
      onSuccess: ({ deal, request }) => {
        applyDeal(deal);
        queryClient.setQueryData<JoinRequest[]>(dealQueryKeys.joinRequests(deal.id), (list) =>
          list?.map((other) => (other.id === request.id ? request : other)),
        );
        void queryClient.invalidateQueries({ queryKey: dealQueryKeys.joinRequests(deal.id) });
      },
    },
    callbacks,
  );
}
