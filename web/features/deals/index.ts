/** Deals and bids: the base every deal-scoped feature builds on; it depends on no other deal feature. */

// The Create Deal dialog of the Deals page.
export { CreateDealDialog } from './create-deal-dialog';
// The deal page's Bids section (select, unselect, finalize).
export { DealBidsSection } from './deal-bids-section';
// A deal in the Deals page grid, with its viewer's actions.
export { DealCard } from './deal-card';
// The deal page for its creator: Edit Deal, Remove Counterpart.
export { DealCreatorSection } from './deal-creator-section';
// The dialogs a deal's buttons open (Bid as Dealmaker / Update Bid, Edit Deal, Ask to Join), once for a page.
export { type DealDialog, DealDialogs } from './deal-dialogs';
// The deal page's Deal Finalized section.
export { DealFinalizedSection } from './deal-finalized-section';
// The Deals page's flash strip: the outcome of the last action, for 5 seconds.
export { type Flash, FlashStrip, flashDurationMs } from './deal-flash';
// The deal page's header: Back to Deals, title, description, budget, timeline, dates.
export { DealHeaderSection } from './deal-header-section';
// The deal page's Requests to join (its creator's, on a deal whose creator accepts who joins it).
export { DealJoinRequestsSection } from './deal-join-requests-section';
// The green 'where the deal got to' frame, shared with escrow's Deal Completed.
export { DealOutcomeSection } from './deal-outcome-section';
// The deal page's Participants box (the page adds the completion lines).
export { DealParticipantsSection } from './deal-participants-section';
// What every section of the deal page receives: the deal and its viewer.
export type { DealSectionProps } from './deal-section';
// The card frame of a deal in a grid, for the Dealmaker Panel too.
export { DealTile } from './deal-tile';
// Who the signed-in user is on a deal (creator, counterpart, dealmaker, bidder, outsider): ask here, everywhere.
export { type DealViewer, dealViewerOf } from './deal-viewer';
// The deal page for a signed-in outsider or bidder: join (or ask to), bid, update or delete their bid.
export { DealVisitorSection } from './deal-visitor-section';
// Reading deals, and putting a deal another call answered into every cached copy.
export {
  refreshDeal,
  reloadDeal,
  useApplyDeal,
  useDeal,
  useDealmakerDeals,
  useDealsList,
  useReloadDeal,
} from './deals-api';
// Where deals live in the query cache; deal-scoped features (escrow, progress, …) key their data under a deal.
export {
  type DealListData,
  dealQueryKeys,
  removeDealFromCaches,
  setMyBidInCaches,
  upsertDealInCaches,
} from './deals-cache';
// The My Deals dialog of the Deals page.
export { MyDealsDialog } from './my-deals-dialog';
// A user's deals, for the Activity tab of their profile page.
export { UserActivityTab, UserActivityTabLabel } from './user-activity-tab';
