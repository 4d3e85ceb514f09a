import type { Bid, BidderStats } from '../../../contract/deals';
import type { MyBid } from '../../../contract/discovery';
import { centsToDollars } from '../../../contract/money';
import type { BidOutcome, DealStage } from '../../../contract/vocabulary';
import type { BidView, MyBidRow } from './bids.repository';

export function presentBid(view: BidView): Bid {
  return {
    id: view.bid.id,
    dealId: view.bid.dealId,
    dealmaker: view.bidderUsername,
    price: centsToDollars(view.bid.priceCents),
    timestamp: view.bid.updatedAt.toISOString(),
    proposal: view.bid.proposal,
    deliveryDays: view.bid.deliveryDays,
  };
}

/** A bid on its deal's list, for the dealers choosing: with the bidder's record and the budget flag. */
export function presentBidForChoosing(view: BidView, budgetCents: number, bidder: BidderStats): Bid {
  return { ...presentBid(view), aboveBudget: view.bid.priceCents > budgetCents, bidder };
}

/** What became of a live bid: its deal's dealmaker and the dealers' selections say. */
function liveOutcome(row: MyBidRow, bidderIsDealmaker: boolean): BidOutcome {
  if (row.dealmakerId !== null) return bidderIsDealmaker ? 'won' : 'lost';
  return row.selectedByCreator || row.selectedByCounterpart ? 'selected by one dealer' : 'pending';
}

/** One of the user's own bids (GET /api/bids/mine); `bidderId` is theirs. */
export function presentMyBid(row: MyBidRow, bidderId: number): MyBid {
  return {
    id: row.id,
    price: centsToDollars(row.priceCents),
    proposal: row.proposal,
    deliveryDays: row.deliveryDays,
    createdAt: new Date(row.createdAt).toISOString(),
    deal: {
      id: row.dealId,
      title: row.dealTitle,
      status: row.dealStage as DealStage,
      budget: centsToDollars(row.dealBudgetCents),
    },
    selectedByCreator: row.selectedByCreator,
    selectedByCounterpart: row.selectedByCounterpart,
    outcome: (row.endedOutcome as BidOutcome | null) ?? liveOutcome(row, row.dealmakerId === bidderId),
  };
}
