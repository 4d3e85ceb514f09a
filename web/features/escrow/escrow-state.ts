import type { Deal } from '../../../contract/deals';
import { type Escrow, type EscrowStatusValue, escrowMessages, splitEscrow } from '../../../contract/escrow';
import type { Milestone } from '../../../contract/milestones';
import { amountToCents, centsToDollars } from '../../../contract/money';
import { dealViewerOf } from '../deals';

export type DealerSide = 'creator' | 'counterpart';

/** Everything the Escrow Payment Status box shows and offers, derived from the deal, its escrow and the viewer. */
export type EscrowView = {
  total: number;
  creatorAmount: number;
  counterpartAmount: number;
  creatorPaid: boolean;
  counterpartPaid: boolean;
  status: EscrowStatusValue;
  /** The viewer's half, or null when the viewer is not a dealer (the dealmaker only watches). */
  mySide: DealerSide | null;
  myPaid: boolean;
  myAmount: number | null;
  /** 'Pay my half' is offered (`can.payEscrow`). */
  canPay: boolean;
  /** Why a dealer who has not paid cannot pay yet (no counterpart), or null. */
  payBlockedReason: string | null;
  /** 'Take my half back' is offered (`can.refundEscrow`): the viewer paid and the escrow is not locked yet. */
  canRefund: boolean;
  /** The spec's locked or released message, once the escrow got there. */
  notice: string | null;
};

/** Shown once a dispute's settlement split the escrow instead of releasing it whole. */
export const settledNotice =
  'The escrow was settled: split between the dealmaker and the dealers as the settlement of a dispute said.';

const noticeOf: Record<EscrowStatusValue, string | null> = {
  pending: null,
  locked: escrowMessages.locked,
  completed: escrowMessages.released,
  settled: settledNotice,
};

/**
 * How long a lone paid half still waits for the other before it is refunded: 'Half-payment expires
 * in 23 h', in minutes under an hour ('in 12 min'); null without a deadline.
 */
export function expiryCountdownText(expiresAt: string | null | undefined, now: Date): string | null {
  if (!expiresAt) return null;
  const left = new Date(expiresAt).getTime() - now.getTime();
  if (Number.isNaN(left)) return null;
  if (left <= 0) return 'Half-payment expires now';
  // Whole units left, as a clock counts down; the last minute still reads '1 min'.
  return left < 3_600_000
    ? `Half-payment expires in ${Math.max(1, Math.floor(left / 60_000))} min`
    : `Half-payment expires in ${Math.floor(left / 3_600_000)} h`;
}

export const noCounterpartReason =
  'A counterpart must join this deal before the escrow can be paid: each dealer pays half of the budget.';

/**
 * Each dealer's half of a dollar amount without an escrow record yet, split as the server will
 * (contract splitEscrow; spec §9: display falls back to budget/2).
 */
export function escrowShares(amount: number): { creatorAmount: number; counterpartAmount: number } {
  const { creatorShareCents, counterpartShareCents } = splitEscrow(amountToCents(amount));
  return {
    creatorAmount: centsToDollars(creatorShareCents),
    counterpartAmount: centsToDollars(counterpartShareCents),
  };
}

export function escrowViewOf(
  deal: Pick<Deal, 'budget' | 'dealer_creator' | 'dealer_joined' | 'dealmaker' | 'is_completed' | 'can'>,
  escrow: Escrow | null,
  username: string,
): EscrowView {
  const total = escrow?.amount ?? deal.budget;
  const fallback = escrowShares(total);
  const creatorAmount = escrow?.creatorAmount ?? fallback.creatorAmount;
  const counterpartAmount = escrow?.counterpartAmount ?? fallback.counterpartAmount;
  const creatorPaid = escrow?.creatorPaid ?? false;
  const counterpartPaid = escrow?.counterpartPaid ?? false;
  const status: EscrowStatusValue =
    escrow?.status === 'settled'
      ? 'settled'
      : escrow?.status === 'completed' || (deal.is_completed && escrow?.status !== 'pending')
        ? 'completed'
        : (escrow?.status ?? 'pending');

  const { role } = dealViewerOf(deal, username);
  const mySide: DealerSide | null = role === 'creator' || role === 'counterpart' ? role : null;
  const myPaid = mySide === 'creator' ? creatorPaid : mySide === 'counterpart' ? counterpartPaid : false;
  const myAmount = mySide === 'creator' ? creatorAmount : mySide === 'counterpart' ? counterpartAmount : null;

  const open = status === 'pending' && !deal.is_completed && !!deal.dealmaker;
  const mayPay = open && mySide !== null && !myPaid;
  const hasCounterpart = !!deal.dealer_joined;

  return {
    total,
    creatorAmount,
    counterpartAmount,
    creatorPaid,
    counterpartPaid,
    status,
    mySide,
    myPaid,
    myAmount,
    canPay: deal.can.payEscrow === true,
    // The one refusal said before the click: the server's reason while the counterpart is missing.
    payBlockedReason: mayPay && !hasCounterpart && !deal.can.payEscrow ? noCounterpartReason : null,
    canRefund: deal.can.refundEscrow === true,
    notice: noticeOf[status],
  };
}

/** The colour of a payment's result message (spec §8): green when it speaks of success or payment. */
export function escrowMessageTone(message: string): 'success' | 'error' {
  return /success|paid/i.test(message) ? 'success' : 'error';
}

/** A milestone whose money is held in escrow: funded (both shares paid) and not released yet. */
export const isHeldMilestone = (milestone: Pick<Milestone, 'status'>) =>
  milestone.status === 'funded' || milestone.status === 'submitted';

/**
 * The escrow a dispute's settlement splits (decisions/0028): the money held, i.e. the milestones funded
 * and not released, with the creator's part of it; locked while any is held. With one milestone that is
 * the whole escrow once locked, as before milestones. Nothing held (or the escrow over): as it is.
 */
export function heldEscrowOf(
  escrow: Escrow,
  milestones: ReadonlyArray<Pick<Milestone, 'status' | 'amount' | 'creatorShare'>>,
): Escrow {
  const held = milestones.filter(isHeldMilestone);
  const amountCents = held.reduce((sum, milestone) => sum + amountToCents(milestone.amount), 0);
  if (amountCents === 0 || escrow.status === 'settled' || escrow.status === 'completed') return escrow;
  const creatorCents = held.reduce((sum, milestone) => sum + amountToCents(milestone.creatorShare), 0);
  return {
    ...escrow,
    status: 'locked',
    amount: centsToDollars(amountCents),
    creatorAmount: centsToDollars(creatorCents),
    counterpartAmount: centsToDollars(amountCents - creatorCents),
  };
}
