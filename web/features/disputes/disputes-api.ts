import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Dispute } from '../../../contract/disputes';
import { api } from '../../lib/api';
import { type MutationCallbacks, useGuardedMutation } from '../../lib/use-guarded-mutation';
import { dealQueryKeys } from '../deals';

/** GET /disputes/deal/{dealId}: under the deal's key, so whatever reloads the deal reloads its disputes too. */
export const disputesQueryKey = (dealId: number) => [...dealQueryKeys.detail(dealId), 'disputes'] as const;

export const useDealDisputes = (dealId: number, enabled: boolean) =>
  useQuery({
    queryKey: disputesQueryKey(dealId),
    queryFn: ({ signal }) => api.get<Dispute[]>(`/disputes/deal/${dealId}`, { signal }),
    enabled,
  });

/** Puts a new or changed dispute into the deal's cached list (newest first, as the API answers). */
function putDispute(list: Dispute[] | undefined, dispute: Dispute): Dispute[] | undefined {
  if (!list) return list;
  return list.some((other) => other.id === dispute.id)
    ? list.map((other) => (other.id === dispute.id ? dispute : other))
    : [dispute, ...list];
}

export type NewDisputeInput = { dealId: number; title: string; description: string };

export function useRaiseDispute(callbacks?: MutationCallbacks<Dispute, NewDisputeInput>) {
  const queryClient = useQueryClient();
  return useGuardedMutation(
    {
      mutationFn: (input: NewDisputeInput) => api.post<Dispute>('/disputes', input),
      onSuccess: (dispute) =>
        queryClient.setQueryData<Dispute[]>(disputesQueryKey(dispute.dealId), (list) =>
          putDispute(list, dispute),
        ),
    },
    callbacks,
  );
}

export type ResolveInput = { dispute: Dispute; resolution: string };

export function useResolveDispute(callbacks?: MutationCallbacks<Dispute, ResolveInput>) {
  const queryClient = useQueryClient();
  return useGuardedMutation(
    {
      mutationFn: ({ dispute, resolution }: ResolveInput) =>
        api.put<Dispute>(`/disputes/${dispute.id}/resolve`, { resolution }),
      onSuccess: (dispute) =>
        queryClient.setQueryData<Dispute[]>(disputesQueryKey(dispute.dealId), (list) =>
          putDispute(list, dispute),
        ),
      onError: (_error, { dispute }) =>
        queryClient.invalidateQueries({ queryKey: disputesQueryKey(dispute.dealId) }),
    },
    callbacks,
  );
}
