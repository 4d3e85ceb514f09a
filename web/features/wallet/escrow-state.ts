import type { Deal } from '../../../contract/deals';
import { centsToDollars, dollarsToCents } from '../../../contract/money';
import { type Escrow, type EscrowStatusValue, escrowMessages } from '../../../contract/wallet';

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
  /** 'Pay my half' is offered. */
  canPay: boolean;
  /** Why a dealer who has not paid cannot pay yet (no counterpart), or null. */
  payBlockedReason: string | null;
  /** 'Take my half back' is offered: the viewer paid and the escrow is not locked yet. */
  canRefund: boolean;
  /** The spec's locked or released message, once the escrow got there. */
  notice: string | null;
};

export const noCounterpartReason =
  'A counterpart must join this deal before the escrow can be paid: each dealer pays half of the budget.';

const same = (a: string | null, b: string) => !!a && a.toLowerCase() === b.toLowerCase();

/**
 * Each dealer's half of an amount without an escrow record yet: the creator pays ceil(amount/2)
 * cents and the counterpart the rest, as the server will (spec §9: display falls back to budget/2).
 */
export function splitAmount(amount: number): { creatorAmount: number; counterpartAmount: number } {
  const cents = dollarsToCents(amount) ?? Math.round(amount * 100);
  const counterpartCents = Math.floor(cents / 2);
  return {
    creatorAmount: centsToDollars(cents - counterpartCents),
    counterpartAmount: centsToDollars(counterpartCents),
  };
}

export function escrowViewOf(
  deal: Pick<Deal, 'budget' | 'dealer_creator' | 'dealer_joined' | 'dealmaker' | 'is_completed'>,
  escrow: Escrow | null,
  username: string,
): EscrowView {
  const total = escrow?.amount ?? deal.budget;
  const fallback = splitAmount(total);
  const creatorAmount = escrow?.creatorAmount ?? fallback.creatorAmount;
  const counterpartAmount = escrow?.counterpartAmount ?? fallback.counterpartAmount;
  const creatorPaid = escrow?.creatorPaid ?? false;
  const counterpartPaid = escrow?.counterpartPaid ?? false;
  const status: EscrowStatusValue =
    escrow?.status === 'completed' || (deal.is_completed && escrow?.status !== 'pending')
      ? 'completed'
      : (escrow?.status ?? 'pending');

  const mySide: DealerSide | null = same(deal.dealer_creator, username)
    ? 'creator'
    : same(deal.dealer_joined, username)
      ? 'counterpart'
      : null;
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
    canPay: mayPay && hasCounterpart,
    payBlockedReason: mayPay && !hasCounterpart ? noCounterpartReason : null,
    canRefund: open && mySide !== null && myPaid,
    notice:
      status === 'completed' ? escrowMessages.released : status === 'locked' ? escrowMessages.locked : null,
  };
}

/** The colour of a payment's result message (spec §8): green when it speaks of success or payment. */
export function escrowMessageTone(message: string): 'success' | 'error' {
  return /success|paid/i.test(message) ? 'success' : 'error';
}
