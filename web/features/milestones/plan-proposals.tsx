import type { MilestonePlan } from '../../../contract/milestones';
import type { Notice } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { serverReason } from '../../lib/api';
import { formatMoney } from '../../lib/money';
import { sameUser } from '../../lib/same-user';
import { formatDateTime } from '../../lib/time';
import {
  acceptanceText,
  acceptedByText,
  awaitsAcceptanceOf,
  dueDateText,
  planStatusWords,
} from './milestone-texts';
import { usePlanAction } from './milestones-api';

type OpenProposalProps = {
  plan: MilestonePlan;
  /** The deal's three people, in its order (creator, counterpart, dealmaker). */
  participants: string[];
  viewer: string;
  /** The viewer may accept (or withdraw) a plan now (`canPlan`). */
  canPlan: boolean;
  onNotice: (notice: Notice) => void;
};

/** The plan waiting for acceptance: its milestones, who accepted it, Accept plan and Withdraw. */
export function OpenProposal({ plan, participants, viewer, canPlan, onNotice }: OpenProposalProps) {
  const act = usePlanAction({
    onSuccess: (answer, { action }) =>
      onNotice({
        tone: 'success',
        text:
          action === 'withdraw'
            ? 'Plan withdrawn'
            : answer.status === 'accepted'
              ? `Everyone accepted: the deal is paid in ${answer.milestones.length} milestones`
              : 'Plan accepted',
      }),
    onError: (error, { action }) =>
      onNotice({
        tone: 'error',
        text: action === 'withdraw' ? 'Failed to withdraw the plan' : 'Failed to accept the plan',
        detail: serverReason(error),
      }),
  });
  const mayAccept = canPlan && awaitsAcceptanceOf(plan, viewer);
  const mayWithdraw = canPlan && sameUser(plan.proposedBy.username, viewer);
  const running = act.isPending ? act.variables?.action : undefined;
  return (
    <article
      aria-label={`Plan proposed by @${plan.proposedBy.username}`}
      className="space-y-3 rounded-xl border border-amber-200 bg-amber-50/40 p-4"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h4 className="font-semibold text-slate-900">Proposed plan</h4>
          <p className="text-xs text-slate-600">
            By @{plan.proposedBy.username} on {formatDateTime(plan.createdAt)}
          </p>
        </div>
        <Badge tone="amber">Waiting for acceptance</Badge>
      </div>
      <PlanMilestones plan={plan} />
      <p className="text-sm font-medium text-slate-800">{acceptanceText(plan, participants)}</p>
      {(mayAccept || mayWithdraw) && (
        <div className="flex flex-wrap gap-2">
          {mayAccept && (
            <Button
              size="sm"
              variant="success"
              loading={running === 'accept'}
              disabled={act.isPending}
              onClick={() => act.mutate({ dealId: plan.dealId, planId: plan.id, action: 'accept' })}
            >
              {running === 'accept' ? 'Accepting...' : 'Accept plan'}
            </Button>
          )}
          {mayWithdraw && (
            <Button
              size="sm"
              variant="outline"
              loading={running === 'withdraw'}
              disabled={act.isPending}
              onClick={() => act.mutate({ dealId: plan.dealId, planId: plan.id, action: 'withdraw' })}
            >
              {running === 'withdraw' ? 'Withdrawing...' : 'Withdraw'}
            </Button>
          )}
        </div>
      )}
    </article>
  );
}

/** A plan's milestones: position, title, amount and due date. */
function PlanMilestones({ plan }: { plan: MilestonePlan }) {
  return (
    <ol className="divide-y divide-slate-100 rounded-lg bg-white/80 text-sm ring-1 ring-slate-200">
      {plan.milestones.map((milestone) => (
        <li
          key={milestone.position}
          className="flex flex-wrap items-baseline justify-between gap-x-4 px-3 py-2"
        >
          <span className="min-w-0 break-words text-slate-900">
            {milestone.position}. {milestone.title}
            {milestone.dueDate && (
              <span className="ml-2 text-xs text-slate-600">{dueDateText(milestone.dueDate)}</span>
            )}
          </span>
          <span className="font-semibold text-slate-900 tabular-nums">{formatMoney(milestone.amount)}</span>
        </li>
      ))}
    </ol>
  );
}

/** The proposals no longer open (agreed, superseded, withdrawn), newest first, folded away. */
export function ProposalHistory({ plans }: { plans: MilestonePlan[] }) {
  if (plans.length === 0) return null;
  return (
    <details className="group rounded-xl border border-slate-200">
      <summary className="flex min-h-10 cursor-pointer items-center rounded-xl px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500">
        Earlier proposals ({plans.length})
      </summary>
      <ul className="space-y-3 border-t border-slate-100 p-4">
        {plans.map((plan) => (
          <li
            key={plan.id}
            aria-label={`Plan proposed by @${plan.proposedBy.username} on ${formatDateTime(plan.createdAt)}`}
            className="space-y-2"
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="text-xs text-slate-600">
                By @{plan.proposedBy.username} on {formatDateTime(plan.createdAt)}
              </p>
              <Badge tone={plan.status === 'accepted' ? 'green' : 'neutral'}>
                {planStatusWords[plan.status]}
              </Badge>
            </div>
            <PlanMilestones plan={plan} />
            {plan.status !== 'accepted' && <p className="text-xs text-slate-600">{acceptedByText(plan)}</p>}
          </li>
        ))}
      </ul>
    </details>
  );
}
