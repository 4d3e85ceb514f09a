import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProgressItem, ProgressStatus } from '../../../contract/progress';
import { api } from '../../lib/api';
import { type MutationCallbacks, useGuardedMutation } from '../../lib/use-guarded-mutation';
import { dealQueryKeys } from '../deals';

/** GET /progress/deal/{dealId}: under the deal's key, so whatever reloads the deal reloads its progress too. */
export const progressQueryKey = (dealId: number) => [...dealQueryKeys.detail(dealId), 'progress'] as const;

export const useDealProgress = (dealId: number, enabled: boolean) =>
  useQuery({
    queryKey: progressQueryKey(dealId),
    queryFn: ({ signal }) => api.get<ProgressItem[]>(`/progress/deal/${dealId}`, { signal }),
    enabled,
  });

export type NewProgressInput = { dealId: number; title: string; description: string };

export function useCreateProgressItem(callbacks?: MutationCallbacks<ProgressItem, NewProgressInput>) {
  const queryClient = useQueryClient();
  return useGuardedMutation(
    {
      mutationFn: (input: NewProgressInput) => api.post<ProgressItem>('/progress', input),
      onSuccess: (item) =>
        queryClient.setQueryData<ProgressItem[]>(progressQueryKey(item.dealId), (items) =>
          items ? [...items.filter((other) => other.id !== item.id), item] : items,
        ),
      onSettled: (_item, _error, input) =>
        queryClient.invalidateQueries({ queryKey: progressQueryKey(input.dealId) }),
    },
    callbacks,
  );
}

export type StatusChangeInput = { item: ProgressItem; status: ProgressStatus };

export function useChangeProgressStatus(callbacks?: MutationCallbacks<ProgressItem, StatusChangeInput>) {
  const queryClient = useQueryClient();
  return useGuardedMutation(
    {
      mutationFn: ({ item, status }: StatusChangeInput) =>
        api.put<ProgressItem>(`/progress/${item.id}/status`, { status }),
      onSuccess: (item) =>
        queryClient.setQueryData<ProgressItem[]>(progressQueryKey(item.dealId), (items) =>
          items?.map((other) => (other.id === item.id ? item : other)),
        ),
      // A refusal usually means someone else moved it first: show where it is now.
      onError: (_error, { item }) =>
        queryClient.invalidateQueries({ queryKey: progressQueryKey(item.dealId) }),
    },
    callbacks,
  );
}
