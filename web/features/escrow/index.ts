/** Escrow and completion: each dealer pays half, both mark the deal finished, the dealmaker is paid. */

// The deal page's Deal Completed section.
export { DealCompletedSection } from './deal-completed-section';
// The dealers' 'Marked as Complete' lines, for the Participants box.
export { DealCompletionLines } from './deal-completion-lines';
// The cache keys of a deal's escrow and milestones, for the realtime layer to show a change made
// elsewhere; the escrow itself; the milestones, their plan proposals and what the viewer may do with
// them (the Milestones section); the escrow as a settlement splits it (the money its milestones hold).
export {
  escrowQueryKey,
  milestonesQueryKey,
  useEscrowStatus,
  useMilestones,
  useSettleableEscrow,
} from './escrow-api';
// What a payment from the wallet says before the click when the balance is short of it.
export { depositFirstLabel, shortBalanceReason } from './escrow-confirmations';
// The deal page's Escrow Payment Status box (pay my half, take it back).
export { EscrowStatusBox } from './escrow-status-box';
// Mark as Finished (a disabled Completed once the own side is done).
export { MarkFinishedButton } from './mark-finished-button';
