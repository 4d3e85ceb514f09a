import { useQueryClient } from '@tanstack/react-query';
import type { CompletionResponse } from '../../../contract/wallet';
import { api } from '../../lib/api';
import { type MutationCallbacks, useGuardedMutation } from '../../lib/use-guarded-mutation';
import { useAuth } from '../auth/auth-context';
import { upsertDealInCaches } from '../deals/deals-cache';
import { escrowQueryKey, walletKeys } from '../wallet/wallet-api';

/** PUT /progress/deal/{dealId}/complete: the viewer marks their side finished; the second mark completes the deal. */
export function useMarkFinished(callbacks?: MutationCallbacks<CompletionResponse, number>) {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  return useGuardedMutation(
    {
      mutationFn: (dealId: number) => api.put<CompletionResponse>(`/progress/deal/${dealId}/complete`),
      onSuccess: (answer) =>
        upsertDealInCaches(queryClient, answer.deal, { source: 'viewer', viewer: user?.username ?? null }),
      onSettled: (_answer, _error, dealId) => {
        // Completion releases the escrow (to the dealmaker's wallet): its status changes too.
        void queryClient.invalidateQueries({ queryKey: escrowQueryKey(dealId) });
        void queryClient.invalidateQueries({ queryKey: walletKeys.all });
      },
    },
    callbacks,
  );
}
