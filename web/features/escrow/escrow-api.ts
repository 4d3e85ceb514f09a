import { useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CompletionResponse,
  Escrow,
  EscrowActionResponse,
  EscrowStatusResponse,
} from '../../../contract/escrow';
import type { MilestonesResponse } from '../../../contract/milestones';
import { api } from '../../lib/api';
import { type MutationCallbacks, useGuardedMutation } from '../../lib/use-guarded-mutation';
import { dealQueryKeys, useApplyDeal, useReloadDeal } from '../deals';
import { applyWallet, walletKeys } from '../wallet';
import { heldEscrowOf } from './escrow-state';

/** GET /wallet/escrow/{dealId}: under the deal's key, so whatever reloads the deal reloads its escrow too. */
export const escrowQueryKey = (dealId: number) => [...dealQueryKeys.detail(dealId), 'escrow'] as const;
/** GET /deals/{dealId}/milestones: the deal's milestones, its plan proposals and what the viewer may do. */
export const milestonesQueryKey = (dealId: number) =>
  [...dealQueryKeys.detail(dealId), 'milestones'] as const;

/** The escrow of a deal, for its participants, once it has a dealmaker. */
export const useEscrowStatus = (dealId: number, enabled: boolean) =>
  useQuery({
    queryKey: escrowQueryKey(dealId),
    queryFn: ({ signal }) => api.get<EscrowStatusResponse>(`/wallet/escrow/${dealId}`, { signal }),
    enabled,
  });

/** The deal's milestones (one, "Whole deal", until a plan is agreed), its plan proposals and what the viewer may do. */
export const useMilestones = (dealId: number, enabled: boolean) =>
  useQuery({
    queryKey: milestonesQueryKey(dealId),
    queryFn: ({ signal }) => api.get<MilestonesResponse>(`/deals/${dealId}/milestones`, { signal }),
    enabled,
  });

/**
 * The escrow as a dispute's settlement splits it: the money held (its milestones funded and not
 * released), once both the escrow and the milestones are in; null while either loads. Without the
 * milestones (their call failed) the escrow as the server answers it.
 */
export function useSettleableEscrow(dealId: number, enabled: boolean): Escrow | null {
  const status = useEscrowStatus(dealId, enabled);
  const milestones = useMilestones(dealId, enabled);
  const escrow = status.data?.escrow ?? null;
  if (!escrow) return null;
  if (milestones.isError) return escrow;
  return milestones.data ? heldEscrowOf(escrow, milestones.data.milestones) : null;
}

export type EscrowAction = 'lock' | 'refund';
export type EscrowActionInput = { dealId: number; action: EscrowAction; idempotencyKey: string };

/** POST /wallet/escrow/{dealId}/lock (pay my half) or /refund (take it back), with an Idempotency-Key. */
export function useEscrowAction(callbacks?: MutationCallbacks<EscrowActionResponse, EscrowActionInput>) {
  const queryClient = useQueryClient();
  const reloadDeal = useReloadDeal();
  return useGuardedMutation(
    {
      mutationFn: ({ dealId, action, idempotencyKey }: EscrowActionInput) =>
        api.post<EscrowActionResponse>(`/wallet/escrow/${dealId}/${action}`, undefined, {
          headers: { 'Idempotency-Key': idempotencyKey },
        }),
      onSuccess: (answer, { dealId }) => {
        queryClient.setQueryData<EscrowStatusResponse>(escrowQueryKey(dealId), (status) =>
          status ? { ...status, escrowExists: true, escrow: answer.escrow } : status,
        );
        applyWallet(queryClient, answer.wallet);
      },
      onSettled: async (_answer, _error, { dealId }) => {
        // Paid or not, the deal and its escrow may have moved on (the other dealer, another tab);
        // the deal's escrow_paid protects it on the Deals page.
        await reloadDeal(dealId);
        await queryClient.invalidateQueries({ queryKey: escrowQueryKey(dealId) });
      },
    },
    callbacks,
  );
}

/** PUT /progress/deal/{dealId}/complete: the viewer marks their side finished; the second mark completes the deal. */
export function useMarkFinished(callbacks?: MutationCallbacks<CompletionResponse, number>) {
  const queryClient = useQueryClient();
  const applyDeal = useApplyDeal();
  return useGuardedMutation(
    {
      mutationFn: (dealId: number) => api.put<CompletionResponse>(`/progress/deal/${dealId}/complete`),
      onSuccess: (answer) => applyDeal(answer.deal),
      onSettled: (_answer, _error, dealId) => {
        // Completion releases the escrow (to the dealmaker's wallet): its status changes too.
        void queryClient.invalidateQueries({ queryKey: escrowQueryKey(dealId) });
        void queryClient.invalidateQueries({ queryKey: walletKeys.all });
      },
    },
    callbacks,
  );
}
