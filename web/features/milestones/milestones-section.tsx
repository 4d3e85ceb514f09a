import { useState } from 'react';
import type { MilestonesResponse } from '../../../contract/milestones';
import { type Notice, NoticeAlert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { ErrorRetry } from '../../components/ui/error-retry';
import { Spinner } from '../../components/ui/spinner';
import { serverReason } from '../../lib/api';
import { useTimedMessage } from '../../lib/use-timed-message';
import { type DealSectionProps, DetailSection } from '../deals';
import { useMilestones } from '../escrow';
import { MilestoneItem } from './milestone-item';
import { releasedText, totalCentsOf } from './milestone-texts';
import { PlanEditor } from './plan-editor';
import { OpenProposal, ProposalHistory } from './plan-proposals';

/** Banners stay 5 seconds, as the escrow's answers (spec §9). */
const noticeDurationMs = 5000;

/**
 * 'Milestones' (staged escrow, decisions/0028): for the deal's participants once it has a dealmaker.
 * Each milestone with its shares, status, countdowns and the viewer's buttons (from `can`); what was
 * released so far; and the milestone plan: the open proposal, a plan editor while a plan may still be
 * agreed (`canPlan`), and the earlier proposals.
 */
export function MilestonesSection({ deal, viewer }: DealSectionProps) {
  const visible = !!deal.dealmaker && viewer.isParticipant;
  const milestones = useMilestones(deal.id, visible);
  const [notice, showNotice] = useTimedMessage<Notice>(noticeDurationMs);
  if (!visible) return null;

  return (
    <DetailSection
      title="Milestones"
      description="Both dealers pay their share of each milestone in turn; the dealmaker submits it once delivered, and it is released to them when both dealers approve it."
    >
      {milestones.isPending ? (
        <div className="flex justify-center py-6 text-indigo-500">
          <Spinner label="Loading milestones" />
        </div>
      ) : milestones.isError ? (
        <ErrorRetry detail={serverReason(milestones.error)} onRetry={milestones.refetch}>
          Failed to load the milestones.
        </ErrorRetry>
      ) : (
        <MilestonesContent
          {...{ deal, viewer }}
          data={milestones.data}
          onNotice={showNotice}
          notice={notice}
        />
      )}
    </DetailSection>
  );
}

type MilestonesContentProps = DealSectionProps & {
  data: MilestonesResponse;
  notice: Notice | null;
  onNotice: (notice: Notice) => void;
};

function MilestonesContent({ deal, viewer, data, notice, onNotice }: MilestonesContentProps) {
  const [editing, setEditing] = useState(false);
  const dealers = { creator: deal.dealer_creator, counterpart: deal.dealer_joined ?? '' };
  const participants = [deal.dealer_creator, deal.dealer_joined, deal.dealmaker].filter(
    (name): name is string => !!name,
  );
  const single = data.milestones.length === 1;
  const openPlan = data.proposals.find((plan) => plan.status === 'open');
  const earlier = data.proposals.filter((plan) => plan.status !== 'open');
  const totalCents = totalCentsOf(data.milestones);

  return (
    <div className="space-y-5">
      <p className="rounded-xl bg-slate-50 px-4 py-3 text-sm font-medium text-slate-700 tabular-nums">
        {releasedText(deal.dealmaker ?? '', data.released, totalCents / 100)}
      </p>
      <ol aria-label="Milestones of this deal" className="space-y-3">
        {data.milestones.map((milestone) => (
          <MilestoneItem
            key={milestone.id}
            deal={deal}
            viewer={viewer}
            milestone={milestone}
            dealers={dealers}
            single={single}
          />
        ))}
      </ol>
      {notice && <NoticeAlert notice={notice} />}
      {(data.canPlan || data.proposals.length > 0) && (
        <div className="space-y-3 border-t border-slate-100 pt-5">
          <h3 className="font-semibold text-slate-900">Milestone plan</h3>
          {data.canPlan && !openPlan && !editing && (
            <p className="text-sm text-slate-600">
              {single
                ? 'Without a plan the whole budget is one milestone. Any of you may propose paying it in stages instead; it needs everyone’s acceptance before any money is paid.'
                : 'Any of you may propose a different plan; it needs everyone’s acceptance before any money is paid.'}
            </p>
          )}
          {openPlan && (
            <OpenProposal
              plan={openPlan}
              participants={participants}
              viewer={viewer.username}
              canPlan={data.canPlan}
              onNotice={onNotice}
            />
          )}
          {data.canPlan &&
            (editing ? (
              <PlanEditor
                dealId={deal.id}
                budget={deal.budget}
                openPlan={openPlan}
                onDone={(proposed) => {
                  setEditing(false);
                  if (proposed) onNotice({ tone: 'success', text: 'Plan proposed' });
                }}
              />
            ) : (
              <Button size="sm" variant="outline" onClick={() => setEditing(true)}>
                {openPlan || !single ? 'Propose a different plan' : 'Propose a plan'}
              </Button>
            ))}
          <ProposalHistory plans={earlier} />
        </div>
      )}
    </div>
  );
}
