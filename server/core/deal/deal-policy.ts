import type { DealCan } from '../../../contract/deals';
import type { MilestoneCan } from '../../../contract/milestones';
import type { DealRow, EscrowRow, MilestoneRow } from '../../db/schema';
import { type AppError, conflict, forbidden } from '../../lib/errors';
import { type DealerSide, type DealRole, dealerSideOf, isDealer, isParticipant, roleOf } from './deal-roles';

/**
 * The deal's rules (DESIGN.md §5), each with its message, written once. Each rule answers without
 * throwing: `refusalOf…` gives the refusal, or null when the user may. A service locks the deal, then
 * calls the rule's `require…`, which throws that refusal as the AppError the caller receives; `canOf`
 * asks the same rules what a viewer may do now, for the deal's answer (contract/deals.ts `can`), and
 * the web app shows its buttons from that.
 */

/** A rule's "no": the status and message the caller receives. A plain value, so that asking is cheap. */
export type Refusal = { readonly status: 403 | 409; readonly message: string };

const refusal403 = (message: string): Refusal => Object.freeze({ status: 403, message });
const refusal409 = (message: string): Refusal => Object.freeze({ status: 409, message });

/** The AppError a refusal is answered with. */
export const errorOf = (refusal: Refusal): AppError =>
  refusal.status === 403 ? forbidden(refusal.message) : conflict(refusal.message);

/** Throws the refusal, if there is one. */
export function enforce(refusal: Refusal | null): void {
  if (refusal) throw errorOf(refusal);
}

/** What the rules need of a deal's escrow: its halves and its state (an EscrowRow, or the deal view's columns). */
export type EscrowState = Pick<
  EscrowRow,
  'creatorPaid' | 'counterpartPaid' | 'status' | 'heldCents' | 'releasedCents'
>;

const paidBy = (escrow: Pick<EscrowState, 'creatorPaid' | 'counterpartPaid'>, side: DealerSide) =>
  side === 'creator' ? escrow.creatorPaid : escrow.counterpartPaid;

const dealersOnly = (action: string) => refusal403(`Only the dealers of this deal can ${action}.`);
const dealmakerOnly = (action: string) => refusal403(`Only the dealmaker of this deal can ${action}.`);

/** Every refusal of this file, made once. */
const refusals = {
  completed: refusal409('This deal is already completed.'),
  hasDealmaker: refusal409('This deal already has a dealmaker.'),
  notParticipant: refusal403('Only the participants of this deal can do this.'),
  joinOwnDeal: refusal409('You created this deal, so you cannot join it as its counterpart.'),
  joinAsDealmaker: refusal409('You are the dealmaker of this deal, so you cannot join it as a dealer.'),
  alreadyJoined: refusal409('Someone has already joined this deal.'),
  joinWithBid: refusal409('You have a bid on this deal. Delete your bid before joining it as a dealer.'),
  joinNeedsApproval: refusal409("This deal's creator accepts who joins it: ask to join instead."),
  joinIsOpen: refusal409('Anyone may join this deal: join it directly.'),
  requesterJoined: refusal409('Someone has already joined this deal.'),
  requesterIsDealmaker: refusal409(
    'This user is the dealmaker of this deal, so they cannot join it as a dealer.',
  ),
  requesterHasBid: refusal409('This user has a bid on this deal: it must be deleted before they can join.'),
  decideJoinNotCreator: refusal403('Only the creator of this deal can decide who joins it.'),
  editNotCreator: refusal403('Only the creator can edit this deal.'),
  editWithDealmaker: refusal409('This deal has its dealmaker: it can no longer be edited.'),
  removeNotCreator: refusal403('Only the creator can remove the counterpart of this deal.'),
  removeCompleted: refusal409('This deal is completed: its counterpart cannot be removed.'),
  removeNobody: refusal409('This deal has no counterpart to remove.'),
  removeProtected: refusal409('Cannot remove the counterpart - escrow payment made'),
  leaveNotCounterpart: refusal403('Only the joined counterpart can leave this deal.'),
  leaveCompleted: refusal409('This deal is completed and cannot be left.'),
  leaveProtected: refusal409('Cannot leave - escrow payment made'),
  deleteNotCreator: refusal403('Only the creator can delete this deal.'),
  deleteProtected: refusal409('Deal is protected - escrow payment made'),
  biddingClosed: refusal409('This deal already has its dealmaker; bids are closed.'),
  dealerBids: refusal403('Dealers of a deal cannot bid on it.'),
  alreadyBid: refusal409('You have already bid on this deal. Update your bid instead.'),
  notBidder: refusal403('Only the bidder can change or delete this bid.'),
  dealerAsDealmaker: refusal409('A dealer of this deal cannot be its dealmaker.'),
  escrowNotOpen: refusal409('The escrow opens once the deal has a dealmaker.'),
  escrowWithoutCounterpart: refusal409('Both dealers must be on the deal before the escrow can be paid.'),
  alreadyPaid: refusal409('You have already paid your half'),
  nothingToRefund: refusal409('You have not paid your half, so there is nothing to refund.'),
  refundReleased: refusal409('This deal is completed and its escrow was released to the dealmaker.'),
  refundSettled: refusal409('This escrow was settled: its money was paid out as the settlement says.'),
  refundLocked: refusal409('Both halves are paid and the escrow is locked: it can no longer be refunded.'),
  finishWithoutDealmaker: refusal409('This deal has no dealmaker yet, so it cannot be marked as finished.'),
  finishUnlocked: refusal409(
    'Both dealers must pay their half into escrow before the deal can be marked as finished.',
  ),
  finishDisputed: refusal409('Resolve the open dispute before marking the deal as finished.'),
  progressCompleted: refusal409('This deal is completed; its progress can no longer change.'),
  disputeWithoutDealmaker: refusal409('A dispute can be raised once the deal has a dealmaker.'),
  reviewNotParticipant: refusal403('Only the participants of this deal can review each other.'),
  reviewNotCompleted: refusal409('Reviews open once the deal is completed.'),
  disputeNotOpen: refusal409('This dispute is not open.'),
  escrowSettled: refusal409('This escrow is already settled.'),
  settleUnlocked: refusal409('A settlement splits a locked escrow: both halves must be paid first.'),
  operatorTakesPart: refusal403('You take part in this deal: another operator must settle it.'),
  notEscalated: refusal409('This dispute has not been escalated to the operators yet.'),
  alreadyEscalated: refusal409('This dispute is already with the operators.'),
  dealersOnly: {
    selectBid: dealersOnly('select a bid'),
    requestDealmaker: dealersOnly('request a dealmaker'),
    seeRequests: dealersOnly('see its requests'),
    payEscrow: dealersOnly('pay into its escrow'),
    refundEscrow: dealersOnly('take back an escrow payment'),
    markFinished: dealersOnly('mark it as finished'),
    raiseDispute: dealersOnly('raise a dispute'),
    escalate: dealersOnly('escalate a dispute'),
  },
  dealmakerOnly: {
    manageProgress: dealmakerOnly('manage its progress'),
    resolveDispute: dealmakerOnly('resolve its disputes'),
  },
};

/** The dealer's side, or throws the refusal of a user who is not a dealer. */
function requireDealerSide(deal: DealRow, userId: number, notDealer: Refusal): DealerSide {
  const side = dealerSideOf(deal, userId);
  if (!side) throw errorOf(notDealer);
  return side;
}

// ── State rules shared by several actions ──────────────────────────────────

const refusalOfCompleted = (deal: DealRow) => (deal.isCompleted ? refusals.completed : null);

export function requireNotCompleted(deal: DealRow) {
  enforce(refusalOfCompleted(deal));
}

const refusalOfDealmaker = (deal: DealRow) => (deal.dealmakerId !== null ? refusals.hasDealmaker : null);

export function requireNoDealmaker(deal: DealRow) {
  enforce(refusalOfDealmaker(deal));
}

/**
 * Whether any money was paid into the escrow (a half, or a milestone's share, now or before): the deal is
 * then protected (no delete, no leave, no counterpart removed, no milestone plan changed).
 */
export const isProtected = (escrow: EscrowState | null | undefined) =>
  !!escrow &&
  (escrow.creatorPaid || escrow.counterpartPaid || escrow.heldCents > 0 || escrow.releasedCents > 0);

// ── Who may do what ────────────────────────────────────────────────────────

export const refusalOfParticipant = (deal: DealRow, userId: number) =>
  isParticipant(deal, userId) ? null : refusals.notParticipant;

/** Reading a deal's private parts (bids aside): its participants only. */
export function requireParticipant(deal: DealRow, userId: number) {
  enforce(refusalOfParticipant(deal, userId));
}

// ── Deals ──────────────────────────────────────────────────────────────────

/** Whether the user could be the deal's counterpart now, whatever its join policy. */
function refusalOfCounterpart(deal: DealRow, userId: number, hasBid: boolean): Refusal | null {
  if (deal.creatorId === userId) return refusals.joinOwnDeal;
  if (deal.dealmakerId === userId) return refusals.joinAsDealmaker;
  if (deal.isCompleted) return refusals.completed;
  if (deal.counterpartId !== null) return refusals.alreadyJoined;
  if (hasBid) return refusals.joinWithBid;
  return null;
}

/** Joining at once: an open deal (spec §5) the user could be the counterpart of. */
export function refusalOfJoin(deal: DealRow, userId: number, hasBid: boolean): Refusal | null {
  return (
    refusalOfCounterpart(deal, userId, hasBid) ??
    (deal.joinPolicy === 'approval' ? refusals.joinNeedsApproval : null)
  );
}

export function requireJoinable(deal: DealRow, userId: number, hasBid: boolean) {
  enforce(refusalOfJoin(deal, userId, hasBid));
}

/** Asking to join: a deal whose creator accepts who joins, which the user could be the counterpart of. */
export function refusalOfAskToJoin(deal: DealRow, userId: number, hasBid: boolean): Refusal | null {
  return (
    refusalOfCounterpart(deal, userId, hasBid) ??
    (deal.joinPolicy === 'approval' ? null : refusals.joinIsOpen)
  );
}

export function requireMayAskToJoin(deal: DealRow, userId: number, hasBid: boolean) {
  enforce(refusalOfAskToJoin(deal, userId, hasBid));
}

/** The creator decides on a request to join; accepting needs the requester to be able to join now. */
export function requireMayDecideJoin(deal: DealRow, userId: number) {
  if (deal.creatorId !== userId) throw errorOf(refusals.decideJoinNotCreator);
}

export function requireRequesterMayJoin(deal: DealRow, requesterId: number, requesterHasBid: boolean) {
  if (deal.isCompleted) throw errorOf(refusals.completed);
  if (deal.counterpartId !== null) throw errorOf(refusals.requesterJoined);
  if (deal.dealmakerId === requesterId) throw errorOf(refusals.requesterIsDealmaker);
  if (requesterHasBid) throw errorOf(refusals.requesterHasBid);
}

/** The creator corrects the deal while it has no dealmaker (after that, bids and escrow stand on it). */
export function refusalOfEdit(deal: DealRow, userId: number): Refusal | null {
  if (deal.creatorId !== userId) return refusals.editNotCreator;
  if (deal.isCompleted) return refusals.completed;
  if (deal.dealmakerId !== null) return refusals.editWithDealmaker;
  return null;
}

export function requireEditable(deal: DealRow, userId: number) {
  enforce(refusalOfEdit(deal, userId));
}

/** The creator removes the counterpart while no escrow half is paid: the same effects as their leaving. */
export function refusalOfRemoveCounterpart(
  deal: DealRow,
  userId: number,
  escrow: EscrowState | null | undefined,
): Refusal | null {
  if (deal.creatorId !== userId) return refusals.removeNotCreator;
  if (deal.isCompleted) return refusals.removeCompleted;
  if (deal.counterpartId === null) return refusals.removeNobody;
  if (isProtected(escrow)) return refusals.removeProtected;
  return null;
}

export function requireMayRemoveCounterpart(
  deal: DealRow,
  userId: number,
  escrow: EscrowState | null | undefined,
) {
  enforce(refusalOfRemoveCounterpart(deal, userId, escrow));
}

export function refusalOfLeave(deal: DealRow, userId: number, escrow: EscrowState | null | undefined) {
  if (deal.counterpartId !== userId) return refusals.leaveNotCounterpart;
  if (deal.isCompleted) return refusals.leaveCompleted;
  if (isProtected(escrow)) return refusals.leaveProtected;
  return null;
}

export function requireLeavable(deal: DealRow, userId: number, escrow: EscrowState | null | undefined) {
  enforce(refusalOfLeave(deal, userId, escrow));
}

export function refusalOfDelete(deal: DealRow, userId: number, escrow: EscrowState | null | undefined) {
  if (deal.creatorId !== userId) return refusals.deleteNotCreator;
  if (isProtected(escrow)) return refusals.deleteProtected;
  return null;
}

export function requireDeletable(deal: DealRow, userId: number, escrow: EscrowState | null | undefined) {
  enforce(refusalOfDelete(deal, userId, escrow));
}

// ── Bids and the dealers' selection ────────────────────────────────────────

/** Bids are open while the deal has no dealmaker and is not completed. */
export function refusalOfBidding(deal: DealRow): Refusal | null {
  if (deal.isCompleted) return refusals.completed;
  if (deal.dealmakerId !== null) return refusals.biddingClosed;
  return null;
}

export function requireBiddingOpen(deal: DealRow) {
  enforce(refusalOfBidding(deal));
}

/** A new bid: not by a dealer, while bidding is open, one per user and deal. */
export function refusalOfBid(deal: DealRow, userId: number, hasBid: boolean): Refusal | null {
  if (isDealer(deal, userId)) return refusals.dealerBids;
  return refusalOfBidding(deal) ?? (hasBid ? refusals.alreadyBid : null);
}

export function requireMayBid(deal: DealRow, userId: number, hasBid: boolean) {
  enforce(refusalOfBid(deal, userId, hasBid));
}

/** The one answer to a second bid by the same user (also when two arrive at once: the unique key). */
export const alreadyBidError = () => errorOf(refusals.alreadyBid);

/** Changing or withdrawing a bid: its bidder, while bidding is open. */
export function refusalOfChangeBid(deal: DealRow, userId: number, bid: { bidderId: number }) {
  if (bid.bidderId !== userId) return refusals.notBidder;
  return refusalOfBidding(deal);
}

export function requireMayChangeBid(deal: DealRow, userId: number, bid: { bidderId: number }) {
  enforce(refusalOfChangeBid(deal, userId, bid));
}

function refusalOfSelectBid(deal: DealRow, userId: number): Refusal | null {
  if (!isDealer(deal, userId)) return refusals.dealersOnly.selectBid;
  return refusalOfBidding(deal);
}

export function requireMaySelectBid(deal: DealRow, userId: number): DealerSide {
  const side = requireDealerSide(deal, userId, refusals.dealersOnly.selectBid);
  enforce(refusalOfBidding(deal));
  return side;
}

// ── Dealmaker requests ─────────────────────────────────────────────────────

/** A dealer asks while the deal wants a dealmaker (whom they ask: `refusalOfDealmakerCandidate`). */
function refusalOfRequestDealmaker(deal: DealRow, senderId: number): Refusal | null {
  if (!isDealer(deal, senderId)) return refusals.dealersOnly.requestDealmaker;
  return refusalOfCompleted(deal) ?? refusalOfDealmaker(deal);
}

/** A user may become the deal's dealmaker only if they are not one of its dealers. */
const refusalOfDealmakerCandidate = (deal: DealRow, userId: number) =>
  isDealer(deal, userId) ? refusals.dealerAsDealmaker : null;

export function requireMayRequestDealmaker(deal: DealRow, senderId: number, receiverId: number) {
  enforce(refusalOfRequestDealmaker(deal, senderId) ?? refusalOfDealmakerCandidate(deal, receiverId));
}

export function requireMaySeeRequests(deal: DealRow, userId: number) {
  requireDealerSide(deal, userId, refusals.dealersOnly.seeRequests);
}

/** A user may become the deal's dealmaker (by an accepted request) only while it wants one. */
export function requireDealmakerWanted(deal: DealRow, userId: number) {
  enforce(refusalOfCompleted(deal) ?? refusalOfDealmaker(deal) ?? refusalOfDealmakerCandidate(deal, userId));
}

// ── Escrow and completion ──────────────────────────────────────────────────

/**
 * A dealer pays their half once, only while the deal has both dealers and a dealmaker and is not
 * completed. The escrow exists once the deal has a dealmaker.
 */
export function refusalOfPayEscrow(
  deal: DealRow,
  userId: number,
  escrow: EscrowState | null | undefined,
): Refusal | null {
  const side = dealerSideOf(deal, userId);
  if (!side) return refusals.dealersOnly.payEscrow;
  if (deal.isCompleted) return refusals.completed;
  if (deal.dealmakerId === null) return refusals.escrowNotOpen;
  if (deal.counterpartId === null) return refusals.escrowWithoutCounterpart;
  if (escrow && paidBy(escrow, side)) return refusals.alreadyPaid;
  return null;
}

export function requireMayPayEscrow(
  deal: DealRow,
  userId: number,
  escrow: EscrowState | null | undefined,
): DealerSide {
  enforce(refusalOfPayEscrow(deal, userId, escrow));
  return dealerSideOf(deal, userId)!;
}

/** A dealer takes their paid half back while the escrow is not locked (nor released, nor settled). */
export function refusalOfRefundEscrow(
  deal: DealRow,
  userId: number,
  escrow: EscrowState | null | undefined,
): Refusal | null {
  const side = dealerSideOf(deal, userId);
  if (!side) return refusals.dealersOnly.refundEscrow;
  if (!escrow) return refusals.nothingToRefund;
  if (escrow.status === 'completed') return refusals.refundReleased;
  if (escrow.status === 'settled') return refusals.refundSettled;
  if (escrow.status === 'locked') return refusals.refundLocked;
  if (!paidBy(escrow, side)) return refusals.nothingToRefund;
  return null;
}

export function requireMayRefundEscrow(
  deal: DealRow,
  userId: number,
  escrow: EscrowState | null | undefined,
): DealerSide {
  enforce(refusalOfRefundEscrow(deal, userId, escrow));
  return dealerSideOf(deal, userId)!;
}

/** Only a dealer marks the deal finished (marking a completed deal, or twice, changes nothing). */
export function requireMayMarkFinished(deal: DealRow, userId: number): DealerSide {
  return requireDealerSide(deal, userId, refusals.dealersOnly.markFinished);
}

/** Whether the dealer's own "finished" mark is given. */
export const markedFinishedBy = (deal: DealRow, side: DealerSide) =>
  side === 'creator' ? deal.completedByCreator : deal.completedByCounterpart;

/** The state a dealer's "finished" mark needs: a dealmaker, a locked escrow and no open dispute. */
export function refusalOfFinishing(
  deal: DealRow,
  escrow: EscrowState | null | undefined,
  hasOpenDispute: boolean,
): Refusal | null {
  if (deal.dealmakerId === null) return refusals.finishWithoutDealmaker;
  if (escrow?.status !== 'locked') return refusals.finishUnlocked;
  if (hasOpenDispute) return refusals.finishDisputed;
  return null;
}

export function requireFinishable(
  deal: DealRow,
  escrow: EscrowState | null | undefined,
  hasOpenDispute: boolean,
) {
  enforce(refusalOfFinishing(deal, escrow, hasOpenDispute));
}

/**
 * 'Mark as Finished' is the dealer's to give (spec §6): a dealer who has not given it yet, once the deal
 * has a dealmaker, until it is completed. Whether the mark counts now (a locked escrow, no open dispute:
 * `refusalOfFinishing`) the call answers, with its reason.
 */
function mayMarkFinished(deal: DealRow, userId: number): boolean {
  const side = dealerSideOf(deal, userId);
  return !!side && !deal.isCompleted && deal.dealmakerId !== null && !markedFinishedBy(deal, side);
}

// ── Progress, disputes, reviews ────────────────────────────────────────────

function refusalOfManageProgress(deal: DealRow, userId: number): Refusal | null {
  if (deal.dealmakerId !== userId) return refusals.dealmakerOnly.manageProgress;
  if (deal.isCompleted) return refusals.progressCompleted;
  return null;
}

export function requireMayManageProgress(deal: DealRow, userId: number) {
  enforce(refusalOfManageProgress(deal, userId));
}

function refusalOfRaiseDispute(deal: DealRow, userId: number): Refusal | null {
  if (!isDealer(deal, userId)) return refusals.dealersOnly.raiseDispute;
  if (deal.dealmakerId === null) return refusals.disputeWithoutDealmaker;
  return refusalOfCompleted(deal);
}

export function requireMayRaiseDispute(deal: DealRow, userId: number) {
  enforce(refusalOfRaiseDispute(deal, userId));
}

export function requireMayResolveDispute(deal: DealRow, userId: number) {
  if (deal.dealmakerId !== userId) throw errorOf(refusals.dealmakerOnly.resolveDispute);
}

function refusalOfReview(deal: DealRow, userId: number): Refusal | null {
  if (!isParticipant(deal, userId)) return refusals.reviewNotParticipant;
  if (!deal.isCompleted) return refusals.reviewNotCompleted;
  return null;
}

/** Reviews open to the participants once the deal is completed; answers the reviewer's role. */
export function requireMayReview(deal: DealRow, userId: number): DealRole {
  enforce(refusalOfReview(deal, userId));
  return roleOf(deal, userId)!;
}

// ── Settlements and escalation ─────────────────────────────────────────────

/** A settlement splits a locked escrow while the dispute is open; any participant may propose or accept. */
export function requireMaySettle(
  deal: DealRow,
  userId: number,
  escrow: EscrowState | undefined,
  dispute: { status: string },
) {
  requireParticipant(deal, userId);
  requireSettleable(escrow, dispute);
}

function refusalOfSettling(escrow: EscrowState | undefined, dispute: { status: string }): Refusal | null {
  if (dispute.status !== 'open') return refusals.disputeNotOpen;
  if (escrow?.status === 'settled') return refusals.escrowSettled;
  // A milestone's money held (with one milestone: the escrow locked).
  if (!escrow || escrow.heldCents === 0) return refusals.settleUnlocked;
  return null;
}

/** What settling needs, whoever settles: an open dispute and a locked escrow. */
export function requireSettleable(escrow: EscrowState | undefined, dispute: { status: string }) {
  enforce(refusalOfSettling(escrow, dispute));
}

/**
 * An operator decides only where the participants could not, and never in their own cause
 * (DESIGN.md §5 Disputes): an escalated dispute of a deal they take no part in.
 */
export function requireOperatorMaySettle(
  deal: DealRow,
  operatorId: number,
  escrow: EscrowState | undefined,
  dispute: { status: string; escalatedAt: Date | null },
) {
  if (isParticipant(deal, operatorId)) throw errorOf(refusals.operatorTakesPart);
  if (dispute.status !== 'open') throw errorOf(refusals.disputeNotOpen);
  if (!dispute.escalatedAt) throw errorOf(refusals.notEscalated);
  requireSettleable(escrow, dispute);
}

/** A dealer may send an open dispute to the operators at once. */
export function requireMayEscalate(
  deal: DealRow,
  userId: number,
  dispute: { status: string; escalatedAt: Date | null },
) {
  requireDealerSide(deal, userId, refusals.dealersOnly.escalate);
  if (dispute.status !== 'open') throw errorOf(refusals.disputeNotOpen);
  if (dispute.escalatedAt) throw errorOf(refusals.alreadyEscalated);
}

// ── Milestones (staged escrow) ─────────────────────────────────────────────

/** What the milestone rules need of a milestone. */
export type MilestoneState = Pick<
  MilestoneRow,
  | 'id'
  | 'position'
  | 'title'
  | 'status'
  | 'creatorPaid'
  | 'counterpartPaid'
  | 'creatorApproved'
  | 'counterpartApproved'
>;

const milestoneRefusals = {
  planWithoutDealmaker: refusal409('A milestone plan is agreed once the deal has its dealmaker.'),
  planWithoutCounterpart: refusal409(
    'Both dealers must be on the deal before a milestone plan can be agreed.',
  ),
  planAfterPayment: refusal409('Money has been paid into escrow: the milestone plan can no longer change.'),
  alreadyFunded: refusal409('Both shares of this milestone are paid already.'),
  shareAlreadyPaid: refusal409('You have already paid your share of this milestone.'),
  refundFunded: refusal409('Both shares of this milestone are paid: it can no longer be refunded.'),
  nothingToRefund: refusal409(
    'You have not paid your share of this milestone, so there is nothing to refund.',
  ),
  submitNotDealmaker: refusal403('Only the dealmaker of this deal can submit a milestone for approval.'),
  submitUnfunded: refusal409(
    'Only a funded milestone can be submitted for approval: both shares must be paid first.',
  ),
  alreadySubmitted: refusal409('This milestone is already submitted for approval.'),
  approveNotDealer: refusal403('Only the dealers of this deal can approve a milestone.'),
  approveNotSubmitted: refusal409('Only a milestone the dealmaker has submitted can be approved.'),
  alreadyApproved: refusal409('You have already approved this milestone.'),
  approveDisputed: refusal409('Resolve the open dispute before approving a milestone.'),
};

/** A milestone that is over: its money was paid out or given back. */
const refusalOfClosedMilestone = (milestone: MilestoneState): Refusal | null =>
  milestone.status === 'released'
    ? refusal409('This milestone was released to the dealmaker.')
    : milestone.status === 'settled' || milestone.status === 'refunded'
      ? refusal409('This milestone was settled when the deal was.')
      : null;

/** Proposing or accepting a plan: a participant, once the deal has its three people, before any money. */
export function refusalOfPlanChange(
  deal: DealRow,
  userId: number,
  escrow: EscrowState | null | undefined,
): Refusal | null {
  if (!isParticipant(deal, userId)) return refusals.notParticipant;
  if (deal.isCompleted) return refusals.completed;
  if (deal.dealmakerId === null) return milestoneRefusals.planWithoutDealmaker;
  if (deal.counterpartId === null) return milestoneRefusals.planWithoutCounterpart;
  if (isProtected(escrow)) return milestoneRefusals.planAfterPayment;
  return null;
}

export function requireMayChangePlan(deal: DealRow, userId: number, escrow: EscrowState | null | undefined) {
  enforce(refusalOfPlanChange(deal, userId, escrow));
}

/**
 * A dealer pays their share of a milestone: the escrow's rules (both dealers, a dealmaker, not
 * completed), the milestone open with their share unpaid, and every earlier milestone funded
 * (milestones are funded in order: a later one early, never one skipped).
 */
export function refusalOfPayMilestone(
  deal: DealRow,
  userId: number,
  milestones: readonly MilestoneState[],
  milestone: MilestoneState,
): Refusal | null {
  const side = dealerSideOf(deal, userId);
  if (!side) return refusals.dealersOnly.payEscrow;
  if (deal.isCompleted) return refusals.completed;
  if (deal.dealmakerId === null) return refusals.escrowNotOpen;
  if (deal.counterpartId === null) return refusals.escrowWithoutCounterpart;
  const closed = refusalOfClosedMilestone(milestone);
  if (closed) return closed;
  if (milestone.status !== 'open') return milestoneRefusals.alreadyFunded;
  if (paidBy(milestone, side)) return milestoneRefusals.shareAlreadyPaid;
  const unfunded = milestones.find(
    (earlier) => earlier.position < milestone.position && earlier.status === 'open',
  );
  if (unfunded) return refusal409(`Milestone ${unfunded.position} "${unfunded.title}" must be funded first.`);
  return null;
}

export function requireMayPayMilestone(
  deal: DealRow,
  userId: number,
  milestones: readonly MilestoneState[],
  milestone: MilestoneState,
): DealerSide {
  enforce(refusalOfPayMilestone(deal, userId, milestones, milestone));
  return dealerSideOf(deal, userId)!;
}

/** A dealer takes their share of a milestone back while the other share is unpaid. */
export function refusalOfRefundMilestone(
  deal: DealRow,
  userId: number,
  milestone: MilestoneState,
): Refusal | null {
  const side = dealerSideOf(deal, userId);
  if (!side) return refusals.dealersOnly.refundEscrow;
  const closed = refusalOfClosedMilestone(milestone);
  if (closed) return closed;
  if (milestone.status !== 'open') return milestoneRefusals.refundFunded;
  if (!paidBy(milestone, side)) return milestoneRefusals.nothingToRefund;
  return null;
}

export function requireMayRefundMilestone(
  deal: DealRow,
  userId: number,
  milestone: MilestoneState,
): DealerSide {
  enforce(refusalOfRefundMilestone(deal, userId, milestone));
  return dealerSideOf(deal, userId)!;
}

/** The dealmaker says a funded milestone is delivered. */
export function refusalOfSubmitMilestone(
  deal: DealRow,
  userId: number,
  milestone: MilestoneState,
): Refusal | null {
  if (deal.dealmakerId !== userId) return milestoneRefusals.submitNotDealmaker;
  if (deal.isCompleted) return refusals.completed;
  const closed = refusalOfClosedMilestone(milestone);
  if (closed) return closed;
  if (milestone.status === 'submitted') return milestoneRefusals.alreadySubmitted;
  if (milestone.status !== 'funded') return milestoneRefusals.submitUnfunded;
  return null;
}

export function requireMaySubmitMilestone(deal: DealRow, userId: number, milestone: MilestoneState) {
  enforce(refusalOfSubmitMilestone(deal, userId, milestone));
}

/** Each dealer approves a submitted milestone once, while no dispute is open. */
export function refusalOfApproveMilestone(
  deal: DealRow,
  userId: number,
  milestone: MilestoneState,
  hasOpenDispute: boolean,
): Refusal | null {
  const side = dealerSideOf(deal, userId);
  if (!side) return milestoneRefusals.approveNotDealer;
  const closed = refusalOfClosedMilestone(milestone);
  if (closed) return closed;
  if (milestone.status !== 'submitted') return milestoneRefusals.approveNotSubmitted;
  if (side === 'creator' ? milestone.creatorApproved : milestone.counterpartApproved) {
    return milestoneRefusals.alreadyApproved;
  }
  if (hasOpenDispute) return milestoneRefusals.approveDisputed;
  return null;
}

export function requireMayApproveMilestone(
  deal: DealRow,
  userId: number,
  milestone: MilestoneState,
  hasOpenDispute: boolean,
): DealerSide {
  enforce(refusalOfApproveMilestone(deal, userId, milestone, hasOpenDispute));
  return dealerSideOf(deal, userId)!;
}

/** What the viewer may do with each milestone now (contract/milestones.ts `MilestoneCan`). */
export function milestoneCanOf(
  deal: DealRow,
  viewerId: number,
  milestones: readonly MilestoneState[],
  milestone: MilestoneState,
  hasOpenDispute: boolean,
): MilestoneCan {
  const can: { -readonly [Action in keyof MilestoneCan]: MilestoneCan[Action] } = {};
  if (refusalOfPayMilestone(deal, viewerId, milestones, milestone) === null) can.pay = true;
  if (refusalOfRefundMilestone(deal, viewerId, milestone) === null) can.refund = true;
  if (refusalOfSubmitMilestone(deal, viewerId, milestone) === null) can.submit = true;
  if (refusalOfApproveMilestone(deal, viewerId, milestone, hasOpenDispute) === null) can.approve = true;
  return can;
}

// ── What a viewer may do now ───────────────────────────────────────────────

/** What `can` needs beyond the deal's row: its escrow (none before a dealmaker) and whether the viewer has a bid on it. */
export type ViewerState = { escrow: EscrowState | null | undefined; hasBid: boolean };

/**
 * What the viewer may do with the deal now (contract/deals.ts `DealCan`): each allowed action is its
 * rule above, asked without throwing; what is not allowed is left out. It depends on the viewer only
 * through their role and whether they bid.
 */
export function canOf(deal: DealRow, viewerId: number, { escrow, hasBid }: ViewerState): DealCan {
  const can: { -readonly [Action in keyof DealCan]: DealCan[Action] } = {};
  if (refusalOfJoin(deal, viewerId, hasBid) === null) can.join = true;
  if (refusalOfAskToJoin(deal, viewerId, hasBid) === null) can.askToJoin = true;
  if (refusalOfEdit(deal, viewerId) === null) can.edit = true;
  if (refusalOfRemoveCounterpart(deal, viewerId, escrow) === null) can.removeCounterpart = true;
  if (refusalOfLeave(deal, viewerId, escrow) === null) can.leave = true;
  if (refusalOfDelete(deal, viewerId, escrow) === null) can.delete = true;
  if (refusalOfBid(deal, viewerId, hasBid) === null) can.bid = true;
  if (hasBid && refusalOfChangeBid(deal, viewerId, { bidderId: viewerId }) === null) {
    can.updateBid = true;
    can.deleteBid = true;
  }
  if (refusalOfSelectBid(deal, viewerId) === null) can.selectBid = true;
  if (refusalOfRequestDealmaker(deal, viewerId) === null) can.requestDealmaker = true;
  if (refusalOfPayEscrow(deal, viewerId, escrow) === null) can.payEscrow = true;
  if (refusalOfRefundEscrow(deal, viewerId, escrow) === null) can.refundEscrow = true;
  if (mayMarkFinished(deal, viewerId)) can.markFinished = true;
  if (refusalOfManageProgress(deal, viewerId) === null) can.addProgress = true;
  if (refusalOfRaiseDispute(deal, viewerId) === null) can.raiseDispute = true;
  if (refusalOfReview(deal, viewerId) === null) can.review = true;
  return can;
}
