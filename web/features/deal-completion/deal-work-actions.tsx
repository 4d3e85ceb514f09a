import type { Deal } from '../../../contract/deals';
import { Alert } from '../../components/ui/alert';
import { Card } from '../../components/ui/card';
import { useTimedMessage } from '../../lib/use-timed-message';
import { ManageDisputesButton } from '../disputes/disputes-dialog';
import { TrackProgressButton } from '../progress/progress-dialog';
import { LeaveReviewsButton } from '../reviews/review-dialog';
import { type CompletionResult, MarkFinishedButton } from './mark-finished-button';

/** Completion messages stay 5 seconds (spec §9). */
const messageDurationMs = 5000;

export type DealWorkActionsProps = {
  deal: Deal;
  /** The signed-in user. */
  viewer: { username: string };
};

const isParticipant = (deal: Deal, username: string) =>
  [deal.dealer_creator, deal.dealer_joined, deal.dealmaker].some(
    (name) => !!name && name.toLowerCase() === username.toLowerCase(),
  );

/**
 * The deal's actions once it has a dealmaker (spec §2 Deal detail view): Track Progress, Manage
 * Disputes, then Mark as Finished (dealers, until completion) or, after completion, Leave Reviews.
 * Only the deal's participants see them: progress and disputes are theirs alone.
 */
export function DealWorkActions({ deal, viewer }: DealWorkActionsProps) {
  const [result, showResult] = useTimedMessage<CompletionResult>(messageDurationMs);
  if (!deal.dealmaker || !isParticipant(deal, viewer.username)) return null;
  return (
    <Card className="px-6 py-5">
      <section aria-label="Deal actions" className="space-y-4">
        <div className="flex flex-wrap items-center gap-3">
          <TrackProgressButton deal={deal} viewer={viewer} />
          <ManageDisputesButton deal={deal} viewer={viewer} />
          <div className="flex flex-wrap gap-3 sm:ml-auto">
            {deal.is_completed ? (
              <LeaveReviewsButton deal={deal} />
            ) : (
              <MarkFinishedButton deal={deal} viewer={viewer} onResult={showResult} />
            )}
          </div>
        </div>
        {result && (
          <Alert variant={result.tone} detail={result.detail}>
            {result.text}
          </Alert>
        )}
      </section>
    </Card>
  );
}
