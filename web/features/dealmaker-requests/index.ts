/** Asking someone directly to be a deal's dealmaker, and answering such requests. */

// The cache keys, for the realtime layer to reload requests when they change elsewhere.
export { dealmakerRequestKeys } from './dealmaker-requests-api';
// The dealmaker's side: the requests waiting for their answer (Dealmaker Panel).
export { IncomingRequestsDialog } from './incoming-requests-dialog';
// The dealer's side: the deal page's section that opens the Request a Dealmaker dialog.
export { RequestDealmakerSection } from './request-dealmaker-section';
