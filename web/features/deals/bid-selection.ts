import type { Deal, DealRole } from '../../../contract/deals';

/** Who has selected a bid: the creator only, the counterpart only, both, or nobody. */
export type BidSelection = 'creator' | 'counterpart' | 'both' | 'none';

export function bidSelectionOf(
  deal: Pick<Deal, 'selected_bid_by_creator' | 'selected_bid_by_dealer'>,
  bidId: number,
): BidSelection {
  const byCreator = deal.selected_bid_by_creator === bidId;
  const byCounterpart = deal.selected_bid_by_dealer === bidId;
  if (byCreator && byCounterpart) return 'both';
  if (byCreator) return 'creator';
  if (byCounterpart) return 'counterpart';
  return 'none';
}

/** Whether the viewer's own selection is on this bid (a second click unselects it). */
export function isSelectedByViewer(deal: Deal, bidId: number, role: DealRole | null): boolean {
  if (role === 'creator') return deal.selected_bid_by_creator === bidId;
  if (role === 'counterpart') return deal.selected_bid_by_dealer === bidId;
  return false;
}

/** The border of a bid: blue for the creator's choice, yellow for the counterpart's, green for both. */
export const bidSelectionStyles: Record<BidSelection, { border: string; label: string | null }> = {
  creator: { border: 'border-blue-500 ring-1 ring-blue-500', label: 'Selected by creator' },
  counterpart: { border: 'border-yellow-400 ring-1 ring-yellow-400', label: 'Selected by counterpart' },
  both: { border: 'border-green-500 ring-1 ring-green-500', label: 'Selected by both dealers' },
  none: { border: 'border-slate-200', label: null },
};
