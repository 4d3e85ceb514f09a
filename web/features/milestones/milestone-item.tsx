import type { Deal } from '../../../contract/deals';
import type { Milestone } from '../../../contract/milestones';
import { Badge } from '../../components/ui/badge';
import { CalendarIcon, CheckCircleIcon, ClockIcon } from '../../components/ui/icons';
import { cn } from '../../lib/cn';
import { formatMoney } from '../../lib/money';
import { formatDateTime } from '../../lib/time';
import type { DealViewer } from '../deals';
import { MilestoneActions } from './milestone-actions';
import { LoneShareCountdown, ReleaseCountdown } from './milestone-countdowns';
import {
  approvalText,
  type Dealers,
  dueDateText,
  milestoneLabel,
  milestoneStatusTones,
  milestoneStatusWords,
} from './milestone-texts';

type MilestoneItemProps = {
  deal: Deal;
  viewer: DealViewer;
  milestone: Milestone;
  dealers: Dealers;
  /** The deal's only milestone (no plan agreed): its shares are paid in the Escrow Payment Status box. */
  single: boolean;
};

/**
 * One milestone: its position, title, amount and status; each dealer's share and whether it is paid;
 * its due date, the dealmaker's note and who approved; the auto-release countdown while submitted and
 * the lone share's deadline; and what the viewer may do with it.
 */
export function MilestoneItem({ deal, viewer, milestone, dealers, single }: MilestoneItemProps) {
  const approvals = approvalText(milestone, dealers);
  const oneShareWaits = milestone.status === 'open' && milestone.creatorPaid !== milestone.counterpartPaid;
  return (
    <li
      aria-label={milestoneLabel(milestone)}
      className={cn(
        'space-y-3 rounded-xl border px-4 py-4',
        milestone.status === 'submitted' ? 'border-amber-200 bg-amber-50/30' : 'border-slate-200',
      )}
    >
      <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-2">
        <div className="flex min-w-0 items-start gap-3">
          <span
            aria-hidden="true"
            className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-indigo-50 text-sm font-semibold text-indigo-700"
          >
            {milestone.position}
          </span>
          <div className="min-w-0">
            <h3 className="font-semibold break-words text-slate-900">
              <span className="sr-only">Milestone {milestone.position}: </span>
              {milestone.title}
            </h3>
            <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
              <span className="font-semibold text-slate-900 tabular-nums">
                {formatMoney(milestone.amount)}
              </span>
              {milestone.dueDate && (
                <span className="inline-flex items-center gap-1">
                  <CalendarIcon size={14} className="shrink-0" />
                  {dueDateText(milestone.dueDate)}
                </span>
              )}
            </p>
          </div>
        </div>
        <Badge tone={milestoneStatusTones[milestone.status]}>{milestoneStatusWords[milestone.status]}</Badge>
      </div>

      <ul className="grid gap-2 sm:grid-cols-2">
        <ShareRow
          label="Creator's share"
          username={dealers.creator}
          amount={milestone.creatorShare}
          paid={milestone.creatorPaid}
          mine={viewer.role === 'creator'}
        />
        <ShareRow
          label="Counterpart's share"
          username={dealers.counterpart}
          amount={milestone.counterpartShare}
          paid={milestone.counterpartPaid}
          mine={viewer.role === 'counterpart'}
        />
      </ul>

      {milestone.note && (
        <blockquote className="rounded-lg border-l-4 border-indigo-200 bg-slate-50 px-3 py-2 text-sm text-slate-700">
          <p className="text-xs font-medium text-slate-500">Note from @{deal.dealmaker}</p>
          <p className="break-words whitespace-pre-line">{milestone.note}</p>
        </blockquote>
      )}
      {approvals && <p className="text-sm text-slate-700">{approvals}</p>}
      {milestone.status === 'submitted' && <ReleaseCountdown autoReleaseAt={milestone.autoReleaseAt} />}
      {oneShareWaits && milestone.expiresAt && <LoneShareCountdown expiresAt={milestone.expiresAt} />}
      {milestone.status === 'released' && milestone.releasedAt && (
        <p className="text-sm text-emerald-800">
          Released to @{deal.dealmaker} on {formatDateTime(milestone.releasedAt)}
        </p>
      )}
      {single && (milestone.can.pay || milestone.can.refund) && (
        <p className="text-sm text-slate-600">
          Without a plan the whole deal is one milestone: pay your half in Escrow Payment Status above.
        </p>
      )}
      <MilestoneActions deal={deal} viewer={viewer} milestone={milestone} single={single} />
    </li>
  );
}

type ShareRowProps = { label: string; username: string; amount: number; paid: boolean; mine: boolean };

/** One dealer's share of the milestone: who, how much, and whether it is paid. */
function ShareRow({ label, username, amount, paid, mine }: ShareRowProps) {
  return (
    <li
      className={cn(
        // min-w-0: a grid item would otherwise be as wide as a long username, past the card's edge.
        'flex min-w-0 items-center justify-between gap-3 rounded-lg border px-3 py-2',
        paid ? 'border-emerald-200 bg-emerald-50/60' : 'border-slate-200 bg-white',
      )}
    >
      <div className="min-w-0">
        <p className="text-xs font-medium text-slate-500">{label}</p>
        <p className="truncate text-sm text-slate-900">
          @{username}
          {mine && <span className="ml-1.5 text-xs font-medium text-indigo-700">(you)</span>}
        </p>
      </div>
      <div className="shrink-0 text-right">
        <p className="text-sm font-semibold text-slate-900 tabular-nums">{formatMoney(amount)}</p>
        <p
          className={cn(
            'inline-flex items-center gap-1 text-xs font-medium',
            paid ? 'text-emerald-700' : 'text-slate-500',
          )}
        >
          {paid ? <CheckCircleIcon size={14} /> : <ClockIcon size={14} />}
          {paid ? 'Paid' : 'Not paid'}
        </p>
      </div>
    </li>
  );
}
