import type { Bid } from '../../../contract/deals';
import { centsToDollars } from '../../../contract/money';
import type { BidView } from './bids.repository';

export function presentBid(view: BidView): Bid {
  return {
    id: view.bid.id,
    dealId: view.bid.dealId,
    dealmaker: view.bidderUsername,
    price: centsToDollars(view.bid.priceCents),
    timestamp: view.bid.updatedAt.toISOString(),
  };
}
