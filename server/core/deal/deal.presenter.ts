import type { Deal } from '../../../contract/deals';
import { centsToDollars } from '../../../contract/money';
import type { DealView } from './deal.repository';

export function presentDeal(view: DealView): Deal {
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
    escrow_paid: Boolean(view.escrowPaid),
    my_bid: view.myBidId ? { id: view.myBidId, price: centsToDollars(Number(view.myBidPriceCents)) } : null,
  };
}

/** The same deal for everyone (realtime broadcasts): nobody's own bid in it. */
export const publicDeal = (deal: Deal): Deal => ({ ...deal, my_bid: null });
