/**
 * Finding deals and following one's bids: saved searches (with alerts about new matches) and My Bids.
 * Builds on `deals` (its filters, their address and their words); the Deals page's filter bar and list
 * are the deals feature's and the page's.
 */

export { myBidKeys, myBidsConcern } from './my-bids-api';
// The My Bids page's list, where it lives in the cache, and whether an event's deal is one of its.
export { MyBidsList } from './my-bids-list';
export { SaveSearchDialog, type SaveSearchDialogProps } from './save-search-dialog';
// Where saved searches live in the query cache (the realtime layer asks again on a new match).
export { savedSearchKeys } from './saved-searches-api';
// The Deals page's saved searches (open, alert on or off, delete), and the dialog that saves a search.
export { SavedSearchesPanel } from './saved-searches-panel';
