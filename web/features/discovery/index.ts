/**
 * Finding deals and following one's bids: saved searches (with alerts about new matches) and My Bids.
 * Builds on `deals` (its filters, their address and their words); the Deals page's filter bar and list
 * are the deals feature's and the page's.
 */

// The dialog that saves a search of the Deals page, downloaded when first opened (deferred-parts.tsx).
export { SaveSearchDialog } from './deferred-parts';
export { myBidKeys, myBidsConcern } from './my-bids-api';
// The My Bids page's list, where it lives in the cache, and whether an event's deal is one of its.
export { MyBidsList } from './my-bids-list';
export type { SaveSearchDialogProps } from './save-search-dialog';
// Where saved searches live in the query cache (the realtime layer asks again on a new match), and their
// query, which the Deals page's route starts from the app's first download.
export { savedSearchesQueryOptions, savedSearchKeys } from './saved-searches-api';
// The Deals page's saved searches (open, alert on or off, delete), with the page: its weight is small, and
// apart, its code and then its searches would come a round trip after the page.
export { SavedSearchesPanel } from './saved-searches-panel';
