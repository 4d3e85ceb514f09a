import { type Notice, NoticeAlert } from '../../components/ui/alert';
import { Card } from '../../components/ui/card';
import type { DealSectionProps } from '../../features/deals';
import { ManageDisputesButton } from '../../features/disputes';
import { MarkFinishedButton } from '../../features/escrow';
import { TrackProgressButton } from '../../features/progress';
import { LeaveReviewsButton } from '../../features/reviews';
import { useTimedMessage } from '../../lib/use-timed-message';

/** Completion messages stay 5 seconds (spec §9). */
const messageDurationMs = 5000;

/**
 * The deal's work once it has a dealmaker (spec §2 Deal detail view), one row across four features:
 * Track Progress, Manage Disputes, then Mark as Finished (dealers, until completion) or, after
 * completion, Leave Reviews. Only the deal's participants see them: progress and disputes are theirs.
 */
export function DealWorkActions({ deal, viewer }: DealSectionProps) {
  const [result, showResult] = useTimedMessage<Notice>(messageDurationMs);
  if (!deal.dealmaker || !viewer.isParticipant) return null;
  return (
    <Card className="px-6 py-5">
      <section aria-label="Deal actions" className="space-y-4">
        <div className="flex flex-wrap items-center gap-3">
          <TrackProgressButton deal={deal} />
          <ManageDisputesButton deal={deal} viewer={viewer} />
          <div className="flex flex-wrap gap-3 sm:ml-auto">
            {deal.is_completed ? (
              <LeaveReviewsButton deal={deal} />
            ) : (
              <MarkFinishedButton deal={deal} viewer={viewer} onResult={showResult} />
            )}
          </div>
        </div>
        {result && <NoticeAlert notice={result} />}
      </section>
    </Card>
  );
}
