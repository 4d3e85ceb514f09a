/** Escrow and completion: each dealer pays half, both mark the deal finished, the dealmaker is paid. */

// The deal page's Deal Completed section.
export { DealCompletedSection } from './deal-completed-section';
// The dealers' 'Marked as Complete' lines, for the Participants box.
export { DealCompletionLines } from './deal-completion-lines';
// The cache key of a deal's escrow, for the realtime layer to show a payment made elsewhere; the
// escrow itself, for settling it in a dispute.
export { escrowQueryKey, milestonesQueryKey, useEscrowStatus } from './escrow-api';
// The deal page's Escrow Payment Status box (pay my half, take it back).
export { EscrowStatusBox } from './escrow-status-box';
// Mark as Finished (a disabled Completed once the own side is done).
export { MarkFinishedButton } from './mark-finished-button';
