import type { Bid, BidChange, NewBid } from '../../../contract/deals';
import { formatCents } from '../../../contract/money';
import type { UpdateType } from '../../../contract/realtime';
import type { Db, Tx } from '../../db/client';
import { conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors';
import type { EventPublisher } from '../../realtime/publisher';
import { presentBid } from './bids.presenter';
import { type BidRow, bidsRepository } from './bids.repository';
import { isDealer } from './deal-roles';
import { assignDealmaker } from './dealmaker-assignment';
import type { DealRow } from './deals.repository';
import { dealsRepository } from './deals.repository';
import type { DealsService } from './deals.service';

const bidNotFound = () => notFound('Bid not found.');

function requireOpenForBids(deal: DealRow) {
  if (deal.isCompleted) throw conflict('This deal is already completed.');
  if (deal.dealmakerId !== null) throw conflict('This deal already has its dealmaker; bids are closed.');
}

/** Bids and the dealers' joint selection (DESIGN.md §5 Bids). */
export class BidsService {
  constructor(
    private readonly db: Db,
    private readonly deals: DealsService,
    private readonly events: EventPublisher,
  ) {}

  async create(bidderId: number, input: NewBid) {
    const { dealId, price } = input;
    const result = await this.db
      .transaction(async (tx) => {
        const deal = await this.deals.lock(tx, dealId);
        if (isDealer(deal, bidderId)) throw forbidden('Dealers of a deal cannot bid on it.');
        requireOpenForBids(deal);
        if (await bidsRepository.findByDealAndBidder(tx, dealId, bidderId)) {
          throw conflict('You have already bid on this deal. Update your bid instead.');
        }
        const row = await bidsRepository.insert(tx, { dealId, bidderId, priceCents: price });
        return { deal, bid: presentBid((await bidsRepository.view(tx, row.id))!) };
      })
      .catch((error) => {
        if (isUniqueViolation(error, 'bids_deal_bidder_key')) {
          throw conflict('You have already bid on this deal. Update your bid instead.');
        }
        throw error;
      });
    this.publishBid(result.deal, bidderId, result.bid, 'created');
    this.events.notify([result.deal.creatorId, result.deal.counterpartId], {
      kind: 'bid-created',
      dealId,
      message: `${result.bid.dealmaker} bid $${formatCents(price)} on your deal "${result.deal.title}".`,
    });
    return result.bid;
  }

  async update(bidId: number, userId: number, input: BidChange) {
    const { price } = input;
    const result = await this.db.transaction(async (tx) => {
      const { deal, bid } = await this.lockOwnBid(tx, bidId, userId);
      await bidsRepository.update(tx, bid.id, { priceCents: price });
      // The dealers chose a price; a changed price needs choosing again.
      await this.clearSelectionsOf(tx, deal, bid.id);
      return { deal, bid: presentBid((await bidsRepository.view(tx, bid.id))!) };
    });
    this.publishBid(result.deal, userId, result.bid, 'updated');
    return result.bid;
  }

  async delete(bidId: number, userId: number) {
    const deal = await this.db.transaction(async (tx) => {
      const { deal, bid } = await this.lockOwnBid(tx, bidId, userId);
      await this.clearSelectionsOf(tx, deal, bid.id);
      await bidsRepository.delete(tx, bid.id);
      return deal;
    });
    this.publishBid(deal, userId, { id: bidId }, 'deleted');
    return { message: 'Bid deleted successfully!' };
  }

  /** Dealers see every bid of their deal; anyone else only their own. */
  async listOfDeal(dealId: number, viewerId: number) {
    const deal = await this.deals.findRow(this.db, dealId);
    const rows = await bidsRepository.listOfDeal(
      this.db,
      dealId,
      isDealer(deal, viewerId) ? undefined : viewerId,
    );
    return rows.map(presentBid);
  }

  /**
   * A dealer toggles their own selection. When both dealers have selected the
   * same bid, the deal is finalized at once: dealmaker = bidder, budget = price.
   */
  async select(dealId: number, bidId: number, userId: number) {
    const outcome = await this.db.transaction(async (tx) => {
      const deal = await this.deals.lock(tx, dealId);
      const column =
        deal.creatorId === userId
          ? 'selectedBidByCreator'
          : deal.counterpartId === userId
            ? 'selectedBidByCounterpart'
            : null;
      if (!column) throw forbidden('Only the dealers of this deal can select a bid.');
      requireOpenForBids(deal);
      const bid = await bidsRepository.findById(tx, bidId);
      if (!bid || bid.dealId !== dealId) throw bidNotFound();
      const selection = deal[column] === bidId ? null : bidId;
      const updated = await dealsRepository.update(tx, dealId, { [column]: selection });
      const finalized =
        updated.counterpartId !== null &&
        updated.selectedBidByCreator === bidId &&
        updated.selectedBidByCounterpart === bidId;
      let removed = { removedBidderIds: [] as number[], removedRequestReceiverIds: [] as number[] };
      if (finalized) {
        removed = await assignDealmaker(tx, dealId, bid.bidderId, {
          keepBidId: bid.id,
          budgetCents: bid.priceCents,
        });
      }
      return { deal: await this.deals.present(tx, dealId, userId), bid, finalized, removed, before: deal };
    });
    const { deal, bid, finalized, removed, before } = outcome;
    this.publishBid(before, bid.bidderId, { id: bid.id }, 'selected');
    if (finalized) {
      this.deals.announce(deal, 'finalized');
      this.events.notify([bid.bidderId], {
        kind: 'bid-selected',
        dealId,
        message: `Your bid on "${deal.title}" was selected: you are now its dealmaker.`,
      });
      this.events.notify([before.creatorId, before.counterpartId], {
        kind: 'deal-finalized',
        dealId,
        message: `"${deal.title}" is finalized with ${deal.dealmaker} as dealmaker for $${formatCents(bid.priceCents)}.`,
      });
      this.events.notify([...removed.removedBidderIds, ...removed.removedRequestReceiverIds], {
        kind: 'deal-closed',
        dealId,
        message: `"${deal.title}" found its dealmaker; your bid or request on it was closed.`,
      });
    } else {
      this.deals.announce(deal, 'updated');
    }
    return deal;
  }

  private async lockOwnBid(tx: Tx, bidId: number, userId: number) {
    const existing = await bidsRepository.findById(tx, bidId);
    if (!existing) throw bidNotFound();
    // Deal first, then bid: the same lock order as selection, so the two never deadlock.
    const deal = await this.deals.lock(tx, existing.dealId);
    const bid = await bidsRepository.lock(tx, bidId);
    if (!bid) throw bidNotFound();
    if (bid.bidderId !== userId) throw forbidden('Only the bidder can change or delete this bid.');
    requireOpenForBids(deal);
    return { deal, bid };
  }

  private async clearSelectionsOf(tx: Tx, deal: DealRow, bidId: BidRow['id']) {
    const changes: Partial<DealRow> = {};
    if (deal.selectedBidByCreator === bidId) changes.selectedBidByCreator = null;
    if (deal.selectedBidByCounterpart === bidId) changes.selectedBidByCounterpart = null;
    if (Object.keys(changes).length > 0) await dealsRepository.update(tx, deal.id, changes);
  }

  /** Bids go to the dealers and the bidder only: nobody else may see them. */
  private publishBid(deal: DealRow, bidderId: number, data: Bid | { id: number }, updateType: UpdateType) {
    this.events.publish(
      { users: [deal.creatorId, deal.counterpartId, bidderId].filter(isId) },
      'bid-updated',
      {
        dealId: deal.id,
        data,
        updateType,
      },
    );
  }
}

const isId = (id: number | null): id is number => id !== null;
