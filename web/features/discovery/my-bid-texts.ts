import type { MyBid } from '../../../contract/discovery';
import type { BidOutcome } from '../../../contract/vocabulary';
import type { BadgeTone } from '../../components/ui/badge';

/** What became of a bid, as My Bids shows it. */
export const outcomeBadges: Record<BidOutcome, { label: string; tone: BadgeTone }> = {
  pending: { label: 'Pending', tone: 'neutral' },
  'selected by one dealer': { label: 'Selected by one dealer', tone: 'blue' },
  won: { label: 'Won', tone: 'green' },
  lost: { label: 'Lost', tone: 'red' },
  'deal deleted': { label: 'Deal deleted', tone: 'neutral' },
};

/** Who selected the bid: "Selected by both dealers", "Selected by the creator", …, "Not selected". */
export function selectionText(bid: Pick<MyBid, 'selectedByCreator' | 'selectedByCounterpart'>): string {
  if (bid.selectedByCreator && bid.selectedByCounterpart) return 'Selected by both dealers';
  if (bid.selectedByCreator) return 'Selected by the creator';
  if (bid.selectedByCounterpart) return 'Selected by the counterpart';
  return 'Not selected';
}

/** The deal's page, except for a deal that was deleted. */
export const myBidDealLink = (bid: Pick<MyBid, 'outcome' | 'deal'>) =>
  bid.outcome === 'deal deleted' ? null : `/deals/${bid.deal.id}`;
