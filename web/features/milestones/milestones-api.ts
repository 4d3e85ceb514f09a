import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import type {
  Milestone,
  MilestoneActionResponse,
  MilestonePlan,
  MilestonesResponse,
  ProposePlanRequest,
} from '../../../contract/milestones';
import { api } from '../../lib/api';
import { type MutationCallbacks, useGuardedMutation } from '../../lib/use-guarded-mutation';
import { useReloadDeal } from '../deals';
import { escrowQueryKey, milestonesQueryKey } from '../escrow';
import { walletKeys } from '../wallet';

/** Puts a milestone an action answered into the deal's cached list (the list is asked for again after). */
function putMilestone(queryClient: QueryClient, dealId: number, milestone: Milestone) {
  queryClient.setQueryData<MilestonesResponse>(milestonesQueryKey(dealId), (data) =>
    data
      ? { ...data, milestones: data.milestones.map((each) => (each.id === milestone.id ? milestone : each)) }
      : data,
  );
}

/** Puts a plan proposal a call answered into the deal's cached list (newest first, as the API answers). */
function putPlan(queryClient: QueryClient, plan: MilestonePlan) {
  queryClient.setQueryData<MilestonesResponse>(milestonesQueryKey(plan.dealId), (data) => {
    if (!data) return data;
    const known = data.proposals.some((other) => other.id === plan.id);
    return {
      ...data,
      proposals: known
        ? data.proposals.map((other) => (other.id === plan.id ? plan : other))
        : [plan, ...data.proposals],
    };
  });
}

export type MilestoneMoneyAction = 'pay' | 'refund';
export type MilestoneAction = MilestoneMoneyAction | 'submit' | 'approve';

export type MilestoneActionInput = {
  dealId: number;
  milestoneId: number;
  action: MilestoneAction;
  /** Pay and refund: one key per user action (lib/idempotency-key.ts). */
  idempotencyKey?: string;
  /** Submit: the dealmaker's word to the dealers. */
  note?: string | null;
};

/**
 * POST /milestones/{id}/pay, /refund (with an Idempotency-Key), /submit (with the note) and /approve.
 * A payment needing a recent second factor asks for it on the way (lib/api.ts step-up) and goes on.
 * Whatever the answer, the milestones are asked for again (what the viewer may do with the next one
 * changed too), and after money moved the escrow, the wallet and the deal (escrow_paid, completion).
 */
export function useMilestoneAction(
  callbacks?: MutationCallbacks<MilestoneActionResponse, MilestoneActionInput>,
) {
  const queryClient = useQueryClient();
  const reloadDeal = useReloadDeal();
  return useGuardedMutation(
    {
      mutationFn: ({ milestoneId, action, idempotencyKey, note }: MilestoneActionInput) =>
        api.post<MilestoneActionResponse>(
          `/milestones/${milestoneId}/${action}`,
          action === 'submit' ? { note: note ?? null } : undefined,
          idempotencyKey ? { headers: { 'Idempotency-Key': idempotencyKey } } : undefined,
        ),
      onSuccess: (answer, { dealId }) => putMilestone(queryClient, dealId, answer.milestone),
      onSettled: async (_answer, _error, { dealId, action }) => {
        const reloads = [queryClient.invalidateQueries({ queryKey: milestonesQueryKey(dealId) })];
        if (action !== 'submit') {
          reloads.push(
            queryClient.invalidateQueries({ queryKey: escrowQueryKey(dealId) }),
            queryClient.invalidateQueries({ queryKey: walletKeys.all }),
            reloadDeal(dealId),
          );
        }
        await Promise.all(reloads);
      },
    },
    callbacks,
  );
}

export type ProposePlanInput = { dealId: number; plan: ProposePlanRequest };

/** POST /deals/{dealId}/milestone-plans: the proposer accepts it by proposing; it supersedes the open one. */
export function useProposePlan(callbacks?: MutationCallbacks<MilestonePlan, ProposePlanInput>) {
  const queryClient = useQueryClient();
  return useGuardedMutation(
    {
      mutationFn: ({ dealId, plan }: ProposePlanInput) =>
        api.post<MilestonePlan>(`/deals/${dealId}/milestone-plans`, plan),
      onSuccess: (plan) => putPlan(queryClient, plan),
      onSettled: (_plan, _error, { dealId }) =>
        queryClient.invalidateQueries({ queryKey: milestonesQueryKey(dealId) }),
    },
    callbacks,
  );
}

export type PlanActionInput = { dealId: number; planId: number; action: 'accept' | 'withdraw' };

/**
 * POST /deals/{dealId}/milestone-plans/{planId}/accept or /withdraw. The last acceptance makes the plan
 * the deal's milestones: the list is asked for again.
 */
export function usePlanAction(callbacks?: MutationCallbacks<MilestonePlan, PlanActionInput>) {
  const queryClient = useQueryClient();
  return useGuardedMutation(
    {
      mutationFn: ({ dealId, planId, action }: PlanActionInput) =>
        api.post<MilestonePlan>(`/deals/${dealId}/milestone-plans/${planId}/${action}`),
      onSuccess: (plan) => putPlan(queryClient, plan),
      onSettled: (_plan, _error, { dealId }) =>
        queryClient.invalidateQueries({ queryKey: milestonesQueryKey(dealId) }),
    },
    callbacks,
  );
}
