/** Deals and bids: the base every deal-scoped feature builds on; it depends on no other deal feature. */

// The words of a bid's details: its delivery estimate, its bidder's record.
export { bidderStatsText, deliveryText } from './bid-texts';
// A deal in the Deals page grid, with its viewer's actions.
export { DealCard } from './deal-card';
// The dialogs a deal's buttons open (Bid as Dealmaker / Update Bid, Edit Deal, Ask to Join), once for a page.
export { type DealDialog, DealDialogs } from './deal-dialogs';
// The Deals page's filters, free of React: the address and the API paths they make, labels, live matching,
// empty results, saved searches' queries.
export {
  blamedFilter,
  budgetCents,
  budgetText,
  type DealFilters,
  dealStageOf,
  describeFilters,
  effectiveSort,
  filtersFromParams,
  filtersKey,
  filtersToParams,
  filtersToSavedQuery,
  hasFilters,
  matchCountText,
  noFilters,
  savedQueryToFilters,
  sortLabels,
  stageLabels,
  withBudget,
  withKeywords,
  withoutFilter,
  withStageToggled,
} from './deal-filters';
// The deal page's Deal Finalized section.
export { DealFinalizedSection } from './deal-finalized-section';
// The Deals page's flash strip: the outcome of the last action, for 5 seconds.
export { type Flash, FlashStrip, flashDurationMs, success } from './deal-flash';
// The deal page's header: Back to Deals, title, description, budget, timeline, dates.
export { DealHeaderSection } from './deal-header-section';
// The green 'where the deal got to' frame, shared with escrow's Deal Completed.
export { DealOutcomeSection } from './deal-outcome-section';
// The deal page's Participants box (the page adds the completion lines).
export { DealParticipantsSection } from './deal-participants-section';
// A deal's query and the id of a deal page's address, for the deal page's route, which starts it from the
// app's first download (they weigh nothing: deal-query.ts).
export { dealIdOfParam, dealQueryOptions } from './deal-query';
// What every section of the deal page receives: the deal and its viewer; the card frame of a section.
export { type DealSectionProps, DetailSection } from './deal-section';
// The card frame of a deal in a grid, for the Dealmaker Panel too.
export { DealTile } from './deal-tile';
// Who the signed-in user is on a deal (creator, counterpart, dealmaker, bidder, outsider): ask here, everywhere.
export { type DealViewer, dealViewerOf } from './deal-viewer';
// Reading deals (the list's query also for the Deals page's route, which starts it beside the page's code),
// and putting a deal another call answered into every cached copy.
export {
  dealsListQueryOptions,
  refreshDeal,
  reloadDeal,
  useApplyDeal,
  useDeal,
  useDealmakerDeals,
  useDealsCount,
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
// Downloaded when first shown, so that the Deals page stays within its weight (deferred-parts.tsx): the
// Deals page's Create Deal and My Deals dialogs; the deal page's Bids section (select, unselect,
// finalize); the deal page for its creator (Edit Deal, Remove
// Counterpart; Requests to join) and for a signed-in outsider or bidder (join or ask to, bid, update or
// delete their bid); a user's deals on their profile page's Activity tab.
export {
  CreateDealDialog,
  DealBidsSection,
  DealCreatorSection,
  DealJoinRequestsSection,
  DealVisitorSection,
  MyDealsDialog,
  UserActivityTab,
} from './deferred-parts';
// A user's deals, for the Activity tab of their profile page.
export { UserActivityTabLabel } from './user-activity-tab';
