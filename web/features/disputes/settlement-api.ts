import { useQueryClient } from '@tanstack/react-query';
import type { Dispute } from '../../../contract/disputes';
import { formatCents } from '../../../contract/money';
import type { Proposal } from '../../../contract/settlements';
import { api } from '../../lib/api';
import { type MutationCallbacks, useGuardedMutation } from '../../lib/use-guarded-mutation';
import { dealQueryKeys, useReloadDeal } from '../deals';
import { walletKeys } from '../wallet';
import { disputesQueryKey } from './disputes-api';

/*
 * Settling a locked escrow by agreement (POST /disputes/{id}/proposals, …/accept, …/withdraw) and
 * sending a dispute to the operators (POST /disputes/{id}/escalate).
 */

type DisputeRef = Pick<Dispute, 'id' | 'dealId'>;

/** After any of them: the deal's disputes; after an acceptance (maybe the last): the deal, its escrow and the wallet. */
function useAfterSettlementCall() {
  const queryClient = useQueryClient();
  const reloadDeal = useReloadDeal();
  return {
    disputes: (dealId: number) => queryClient.invalidateQueries({ queryKey: disputesQueryKey(dealId) }),
    everything: async (dealId: number) => {
      await reloadDeal(dealId);
      await queryClient.invalidateQueries({ queryKey: dealQueryKeys.detail(dealId) });
      await queryClient.invalidateQueries({ queryKey: walletKeys.all });
    },
  };
}

export type ProposeInput = { dispute: DisputeRef; toDealmakerCents: number };

export function useProposeSettlement(callbacks?: MutationCallbacks<Proposal, ProposeInput>) {
  const after = useAfterSettlementCall();
  return useGuardedMutation(
    {
      mutationFn: ({ dispute, toDealmakerCents }: ProposeInput) =>
        api.post<Proposal>(`/disputes/${dispute.id}/proposals`, {
          toDealmaker: formatCents(toDealmakerCents),
        }),
      onSettled: (_answer, _error, { dispute }) => after.disputes(dispute.dealId),
    },
    callbacks,
  );
}

export type ProposalInput = { dispute: DisputeRef; proposalId: number };

export function useAcceptProposal(callbacks?: MutationCallbacks<Proposal, ProposalInput>) {
  const after = useAfterSettlementCall();
  return useGuardedMutation(
    {
      mutationFn: ({ dispute, proposalId }: ProposalInput) =>
        api.post<Proposal>(`/disputes/${dispute.id}/proposals/${proposalId}/accept`),
      onSettled: (_answer, _error, { dispute }) => after.everything(dispute.dealId),
    },
    callbacks,
  );
}

export function useWithdrawProposal(callbacks?: MutationCallbacks<Proposal, ProposalInput>) {
  const after = useAfterSettlementCall();
  return useGuardedMutation(
    {
      mutationFn: ({ dispute, proposalId }: ProposalInput) =>
        api.post<Proposal>(`/disputes/${dispute.id}/proposals/${proposalId}/withdraw`),
      onSettled: (_answer, _error, { dispute }) => after.disputes(dispute.dealId),
    },
    callbacks,
  );
}

export function useEscalateDispute(callbacks?: MutationCallbacks<Dispute, DisputeRef>) {
  const after = useAfterSettlementCall();
  return useGuardedMutation(
    {
      mutationFn: (dispute: DisputeRef) => api.post<Dispute>(`/disputes/${dispute.id}/escalate`),
      onSettled: (_answer, _error, dispute) => after.disputes(dispute.dealId),
    },
    callbacks,
  );
}
