/** Disputes about a deal: raised by its dealers, resolved by its dealmaker, or settled with money. */

// The Resolution text field, for an operator's settlement too.
export { ResolutionField } from './dispute-forms';
// The cache key of a deal's disputes, for the realtime layer to reload it.
export { disputesQueryKey } from './disputes-api';
// 'Manage Disputes' and the Deal Disputes dialog it opens; 'Raise a dispute' about a part of the deal
// (a milestone), which opens it with the form filled in.
export { ManageDisputesButton, RaiseDisputeButton } from './disputes-dialog';
// A dispute's settlement proposals, read-only for the operators' queue.
export { ProposalList } from './proposal-list';
// What an operator's settlement asks before it pays out.
export { operatorSettleConfirmation } from './settlement-confirmations';
// Splitting a locked escrow: the people, the amount typed, the preview and its words.
export {
  escalationText,
  escrowCentsOf,
  type SettlementPeople,
  settlementPeopleOf,
  settlementPreview,
} from './settlement-texts';
// 'To the dealmaker': the amount, its slider and the live three-way split.
export { SplitAmountField } from './split-amount-field';
export { useSplitAmount } from './use-split-amount';
