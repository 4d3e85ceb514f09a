import type { DealRow, EscrowRow } from '../../db/schema';
import { conflict, forbidden } from '../../lib/errors';
import { type DealerSide, type DealRole, dealerSideOf, isDealer, isParticipant, roleOf } from './deal-roles';

/**
 * The deal's rules (DESIGN.md §5), each with its message, written once. A
 * service locks the deal, then asks here whether the user may do what they
 * ask; a refusal throws the AppError the caller receives. The server enforces
 * these; the web app only mirrors them to decide which buttons to show.
 */

// ── State rules shared by several actions ──────────────────────────────────

export function requireNotCompleted(deal: DealRow) {
  if (deal.isCompleted) throw conflict('This deal is already completed.');
}

export function requireNoDealmaker(deal: DealRow) {
  if (deal.dealmakerId !== null) throw conflict('This deal already has a dealmaker.');
}

/** Whether an escrow half is paid: the deal is then protected (no delete, no leave, no dealmaker change). */
export const isProtected = (escrow: EscrowRow | undefined) =>
  !!escrow && (escrow.creatorPaid || escrow.counterpartPaid);

// ── Who may do what ────────────────────────────────────────────────────────

/** Reading a deal's private parts (bids aside): its participants only. */
export function requireParticipant(deal: DealRow, userId: number) {
  if (!isParticipant(deal, userId)) throw forbidden('Only the participants of this deal can do this.');
}

function requireDealer(deal: DealRow, userId: number, action: string): DealerSide {
  const side = dealerSideOf(deal, userId);
  if (!side) throw forbidden(`Only the dealers of this deal can ${action}.`);
  return side;
}

function requireDealmaker(deal: DealRow, userId: number, action: string) {
  if (deal.dealmakerId !== userId) throw forbidden(`Only the dealmaker of this deal can ${action}.`);
}

// ── Deals ──────────────────────────────────────────────────────────────────

export function requireJoinable(deal: DealRow, userId: number, hasBid: boolean) {
  if (deal.creatorId === userId)
    throw conflict('You created this deal, so you cannot join it as its counterpart.');
  if (deal.dealmakerId === userId)
    throw conflict('You are the dealmaker of this deal, so you cannot join it as a dealer.');
  requireNotCompleted(deal);
  if (deal.counterpartId !== null) throw conflict('Someone has already joined this deal.');
  if (hasBid) throw conflict('You have a bid on this deal. Delete your bid before joining it as a dealer.');
}

export function requireLeavable(deal: DealRow, userId: number, escrow: EscrowRow | undefined) {
  if (deal.counterpartId !== userId) throw forbidden('Only the joined counterpart can leave this deal.');
  if (deal.isCompleted) throw conflict('This deal is completed and cannot be left.');
  if (isProtected(escrow)) throw conflict('Cannot leave - escrow payment made');
}

export function requireDeletable(deal: DealRow, userId: number, escrow: EscrowRow | undefined) {
  if (deal.creatorId !== userId) throw forbidden('Only the creator can delete this deal.');
  if (isProtected(escrow)) throw conflict('Deal is protected - escrow payment made');
}

// ── Bids and the dealers' selection ────────────────────────────────────────

/** Bids are open while the deal has no dealmaker and is not completed. */
export function requireBiddingOpen(deal: DealRow) {
  requireNotCompleted(deal);
  if (deal.dealmakerId !== null) throw conflict('This deal already has its dealmaker; bids are closed.');
}

export function requireMayBid(deal: DealRow, userId: number) {
  if (isDealer(deal, userId)) throw forbidden('Dealers of a deal cannot bid on it.');
  requireBiddingOpen(deal);
}

export function requireMaySelectBid(deal: DealRow, userId: number): DealerSide {
  const side = requireDealer(deal, userId, 'select a bid');
  requireBiddingOpen(deal);
  return side;
}

// ── Dealmaker requests ─────────────────────────────────────────────────────

export function requireMayRequestDealmaker(deal: DealRow, senderId: number, receiverId: number) {
  requireDealer(deal, senderId, 'request a dealmaker');
  requireNotCompleted(deal);
  requireNoDealmaker(deal);
  requireMayBecomeDealmaker(deal, receiverId);
}

export function requireMaySeeRequests(deal: DealRow, userId: number) {
  requireDealer(deal, userId, 'see its requests');
}

/** A user may become the deal's dealmaker (by an accepted request) only while it wants one. */
export function requireDealmakerWanted(deal: DealRow, userId: number) {
  requireNotCompleted(deal);
  requireNoDealmaker(deal);
  requireMayBecomeDealmaker(deal, userId);
}

function requireMayBecomeDealmaker(deal: DealRow, userId: number) {
  if (isDealer(deal, userId)) throw conflict('A dealer of this deal cannot be its dealmaker.');
}

// ── Escrow and completion ──────────────────────────────────────────────────

/** A dealer pays their half only while the deal has both dealers and a dealmaker and is not completed. */
export function requireMayPayEscrow(deal: DealRow, userId: number): DealerSide {
  const side = requireDealer(deal, userId, 'pay into its escrow');
  requireNotCompleted(deal);
  if (deal.dealmakerId === null) throw conflict('The escrow opens once the deal has a dealmaker.');
  if (deal.counterpartId === null) {
    throw conflict('Both dealers must be on the deal before the escrow can be paid.');
  }
  return side;
}

export function requireMayRefundEscrow(deal: DealRow, userId: number): DealerSide {
  return requireDealer(deal, userId, 'take back an escrow payment');
}

export function requireMayMarkFinished(deal: DealRow, userId: number): DealerSide {
  return requireDealer(deal, userId, 'mark it as finished');
}

/** The state a dealer's "finished" mark needs: a dealmaker, a locked escrow and no open dispute. */
export function requireFinishable(deal: DealRow, escrow: EscrowRow | undefined, hasOpenDispute: boolean) {
  if (deal.dealmakerId === null) {
    throw conflict('This deal has no dealmaker yet, so it cannot be marked as finished.');
  }
  if (escrow?.status !== 'locked') {
    throw conflict('Both dealers must pay their half into escrow before the deal can be marked as finished.');
  }
  if (hasOpenDispute) throw conflict('Resolve the open dispute before marking the deal as finished.');
}

// ── Progress, disputes, reviews ────────────────────────────────────────────

export function requireMayManageProgress(deal: DealRow, userId: number) {
  requireDealmaker(deal, userId, 'manage its progress');
  if (deal.isCompleted) throw conflict('This deal is completed; its progress can no longer change.');
}

export function requireMayRaiseDispute(deal: DealRow, userId: number) {
  requireDealer(deal, userId, 'raise a dispute');
  if (deal.dealmakerId === null) throw conflict('A dispute can be raised once the deal has a dealmaker.');
  requireNotCompleted(deal);
}

export function requireMayResolveDispute(deal: DealRow, userId: number) {
  requireDealmaker(deal, userId, 'resolve its disputes');
}

/** Reviews open to the participants once the deal is completed; answers the reviewer's role. */
export function requireMayReview(deal: DealRow, userId: number): DealRole {
  const role = roleOf(deal, userId);
  if (!role) throw forbidden('Only the participants of this deal can review each other.');
  if (!deal.isCompleted) throw conflict('Reviews open once the deal is completed.');
  return role;
}

// ── Settlements and escalation ─────────────────────────────────────────────

/** A settlement splits a locked escrow while the dispute is open; any participant may propose or accept. */
export function requireMaySettle(
  deal: DealRow,
  userId: number,
  escrow: EscrowRow | undefined,
  dispute: { status: string },
) {
  requireParticipant(deal, userId);
  requireSettleable(escrow, dispute);
}

/** What settling needs, whoever settles: an open dispute and a locked escrow. */
export function requireSettleable(escrow: EscrowRow | undefined, dispute: { status: string }) {
  if (dispute.status !== 'open') throw conflict('This dispute is not open.');
  if (escrow?.status === 'settled') throw conflict('This escrow is already settled.');
  if (escrow?.status !== 'locked') {
    throw conflict('A settlement splits a locked escrow: both halves must be paid first.');
  }
}

/**
 * An operator decides only where the participants could not, and never in their own cause
 * (DESIGN.md §5 Disputes): an escalated dispute of a deal they take no part in.
 */
export function requireOperatorMaySettle(
  deal: DealRow,
  operatorId: number,
  escrow: EscrowRow | undefined,
  dispute: { status: string; escalatedAt: Date | null },
) {
  if (isParticipant(deal, operatorId)) {
    throw forbidden('You take part in this deal: another operator must settle it.');
  }
  if (dispute.status !== 'open') throw conflict('This dispute is not open.');
  if (!dispute.escalatedAt) throw conflict('This dispute has not been escalated to the operators yet.');
  requireSettleable(escrow, dispute);
}

/** A dealer may send an open dispute to the operators at once. */
export function requireMayEscalate(
  deal: DealRow,
  userId: number,
  dispute: { status: string; escalatedAt: Date | null },
) {
  requireDealer(deal, userId, 'escalate a dispute');
  if (dispute.status !== 'open') throw conflict('This dispute is not open.');
  if (dispute.escalatedAt) throw conflict('This dispute is already with the operators.');
}
