import type { Deal, JoinPolicy, PublicDeal } from '../../../contract/deals';
import { centsToDollars } from '../../../contract/money';
import type { DealView } from './deal.repository';
import { canOf, type EscrowState, isProtected } from './deal-policy';
import { type DealRole, roleOf } from './deal-roles';

/** The escrow's halves and state as the deal's view read them (none before the deal has a dealmaker). */
function escrowOf(view: DealView): EscrowState | null {
  return view.escrowStatus === null
    ? null
    : {
        creatorPaid: view.escrowCreatorPaid === true,
        counterpartPaid: view.escrowCounterpartPaid === true,
        status: view.escrowStatus,
        heldCents: Number(view.escrowHeldCents ?? 0),
        releasedCents: Number(view.escrowReleasedCents ?? 0),
      };
}

/** The deal's fields that are the same for everyone, and the view's own bid (`my_bid`). */
export function presentPublicDeal(view: DealView): PublicDeal {
  const { deal } = view;
  return {
    id: deal.id,
    title: deal.title,
    description: deal.description,
    budget: centsToDollars(deal.budgetCents),
    timeline: deal.timeline,
    createdAt: deal.createdAt.toISOString(),
    updatedAt: deal.updatedAt.toISOString(),
    dealer_creator: view.creatorUsername,
    dealer_joined: view.counterpartUsername,
    dealmaker: view.dealmakerUsername,
    is_completed: deal.isCompleted,
    completion_date: deal.completionDate?.toISOString() ?? null,
    completed_by_creator: deal.completedByCreator,
    completed_by_counterpart: deal.completedByCounterpart,
    selected_bid_by_creator: deal.selectedBidByCreator,
    selected_bid_by_dealer: deal.selectedBidByCounterpart,
    escrow_paid: isProtected(escrowOf(view)),
    settled: view.escrowStatus === 'settled',
    joinPolicy: deal.joinPolicy as JoinPolicy,
    my_bid: view.myBidId ? { id: view.myBidId, price: centsToDollars(Number(view.myBidPriceCents)) } : null,
  };
}

/** The deal as its viewer sees it: their own bid (the view's), and what they may do now (`can`). */
export function presentDeal(view: DealView, viewerId: number): Deal {
  // `can` is added to the fresh public fields: spreading them into a new object cost more than the rest.
  const deal = presentPublicDeal(view) as Deal;
  deal.can = canOf(view.deal, viewerId, { escrow: escrowOf(view), hasBid: view.myBidId !== null });
  return deal;
}

/** The same deal for everyone (realtime broadcasts): nobody's own bid in it, nor anyone's `can`. */
export function publicDeal(deal: Deal | PublicDeal): PublicDeal {
  const { can: _can, ...fields } = deal as Deal;
  return { ...fields, my_bid: null };
}

/**
 * A deal of a page of the deals list, as every viewer may get it: its answer to anyone with no part in
 * it and no bid on it, made at once, and its answers to its creator, counterpart and dealmaker, each
 * made when first asked. All frozen: a page of the list is shared by every viewer, and the response
 * serializer writes a frozen deal once (lib/response-serializer.ts). A viewer's own bid makes an
 * answer of its own.
 */
export class SharedDeal {
  /** The answer to anyone with no part in the deal and no bid on it. */
  readonly public: Deal;
  private readonly byRole: Partial<Record<DealRole, Deal>> = {};

  constructor(private readonly view: DealView) {
    // Viewer 0 is nobody: an outsider.
    this.public = Object.freeze(presentDeal({ ...view, myBidId: null, myBidPriceCents: null }, 0));
  }

  get id() {
    return this.view.deal.id;
  }

  /** The deal as this viewer sees it, with their bid on it if they have one. */
  for(viewerId: number, myBid: { id: number; priceCents: number } | undefined): Deal {
    if (myBid) {
      return presentDeal({ ...this.view, myBidId: myBid.id, myBidPriceCents: myBid.priceCents }, viewerId);
    }
    const role = roleOf(this.view.deal, viewerId);
    if (!role) return this.public;
    let answer = this.byRole[role];
    if (!answer) {
      answer = Object.freeze(presentDeal({ ...this.view, myBidId: null, myBidPriceCents: null }, viewerId));
      this.byRole[role] = answer;
    }
    return answer;
  }
}

export const shareDeal = (view: DealView) => new SharedDeal(view);
