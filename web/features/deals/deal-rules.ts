import type { Deal, DealRole } from '../../../contract/deals';
import { dealViewerOf } from './deal-viewer';

/**
 * What a user may do with a deal, as the screens show it (spec §2 Deals page, §6). The server
 * enforces the same rules; these only decide which buttons to offer.
 */

export type DealCardAction =
  | 'delete'
  /** The creator's Delete Deal, replaced once an escrow half is paid. */
  | 'delete-protected'
  | 'leave'
  /** The counterpart's Leave Deal, replaced once an escrow half is paid. */
  | 'leave-protected'
  | 'join'
  | 'bid'
  | 'update-bid'
  | 'delete-bid';

/** The actions a deal card offers its viewer, in display order. */
export function dealCardActions(deal: Deal, username: string | null | undefined): DealCardAction[] {
  const { relation } = dealViewerOf(deal, username);
  const actions: DealCardAction[] = [];
  if (relation === 'creator') actions.push(deal.escrow_paid ? 'delete-protected' : 'delete');
  if (relation === 'counterpart') actions.push(deal.escrow_paid ? 'leave-protected' : 'leave');
  // A bidder cannot join the deal they bid on (the server refuses; DESIGN.md §5 Deals).
  if (relation === 'outsider' && !deal.dealer_joined && !deal.is_completed) actions.push('join');
  // Bids are open while the deal has no dealmaker and is not completed.
  const biddingOpen = !deal.dealmaker && !deal.is_completed;
  if (biddingOpen && relation === 'bidder') actions.push('update-bid', 'delete-bid');
  else if (biddingOpen && relation === 'outsider') actions.push('bid');
  return actions;
}

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
