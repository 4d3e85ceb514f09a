import type { Bid, BidChange, Deal, NewBid } from '../../../contract/deals';
import type { MyBid } from '../../../contract/discovery';
import { centsToDollars, formatUsdCents } from '../../../contract/money';
import type { BidSelectionChange, UpdateType } from '../../../contract/realtime';
import type { DealAccess } from '../../core/deal/deal-access';
import {
  alreadyBidError,
  requireMayBid,
  requireMayChangeBid,
  requireMaySelectBid,
} from '../../core/deal/deal-policy';
import { type DealerSide, dealerNameOf, isDealer, otherDealerOf } from '../../core/deal/deal-roles';
import type { Db, Tx } from '../../db/client';
import { isUniqueViolation } from '../../db/postgres-errors';
import type { DealRow } from '../../db/schema';
import type { AfterCommit, Transact } from '../../db/transaction';
import { notFound } from '../../lib/errors';
import type { EventPublisher } from '../../lib/events';
import type { EscrowService } from '../escrow/escrow.service';
import type { TimelineService } from '../timeline/timeline.service';
import { presentBid, presentBidForChoosing, presentMyBid } from './bids.presenter';
import { bidsRepository } from './bids.repository';
import { assignDealmaker } from './dealmaker-assignment';

const bidNotFound = () => notFound('Bid not found.');

/** Bids and the dealers' joint selection (DESIGN.md §5 Bids). */
export class BidsService {
  constructor(
    private readonly deps: {
      db: Db;
      transact: Transact;
      deals: DealAccess;
      escrow: EscrowService;
      timeline: TimelineService;
      events: EventPublisher;
    },
  ) {}

  async create(bidderId: number, input: NewBid) {
    const { dealId, price, proposal, deliveryDays } = input;
    return this.deps
      .transact(async (tx, afterCommit) => {
        const deal = await this.deps.deals.lock(tx, dealId);
        requireMayBid(deal, bidderId, !!(await bidsRepository.findByDealAndBidder(tx, dealId, bidderId)));
        const row = await bidsRepository.insert(tx, {
          dealId,
          bidderId,
          priceCents: price,
          proposal,
          deliveryDays,
        });
        const bid = presentBid((await bidsRepository.view(tx, row.id))!);
        await this.deps.timeline.record(tx, afterCommit, {
          dealId,
          actorId: bidderId,
          notify: [
            {
              to: [deal.creatorId, deal.counterpartId],
              kind: 'bid-created',
              message: `${bid.dealmaker} bid ${formatUsdCents(price)} on your deal "${deal.title}".`,
            },
          ],
        });
        afterCommit(() => this.publishBid(deal, bidderId, bid, 'created'));
        return bid;
      })
      .catch((error) => {
        if (isUniqueViolation(error, 'bids_deal_bidder_key')) throw alreadyBidError();
        throw error;
      });
  }

  update(bidId: number, userId: number, input: BidChange) {
    return this.deps.transact(async (tx, afterCommit) => {
      const { deal, bid } = await this.lockOwnBid(tx, bidId, userId);
      await bidsRepository.update(tx, bid.id, {
        priceCents: input.price,
        proposal: input.proposal,
        deliveryDays: input.deliveryDays,
      });
      // The dealers chose a price; a changed price needs choosing again.
      await this.clearSelectionsOf(tx, deal, bid.id);
      const updated = presentBid((await bidsRepository.view(tx, bid.id))!);
      afterCommit(() => this.publishBid(deal, userId, updated, 'updated'));
      return updated;
    });
  }

  delete(bidId: number, userId: number) {
    return this.deps.transact(async (tx, afterCommit) => {
      const { deal, bid } = await this.lockOwnBid(tx, bidId, userId);
      await this.clearSelectionsOf(tx, deal, bid.id);
      await bidsRepository.delete(tx, bid.id);
      afterCommit(() => this.publishBid(deal, userId, { id: bidId }, 'deleted'));
      return { message: 'Bid deleted successfully!' };
    });
  }

  /**
   * Dealers see every bid of their deal, each with its bidder's record and whether its price is above
   * the budget, to choose by more than the price; anyone else sees only their own bid.
   */
  async listOfDeal(dealId: number, viewerId: number): Promise<Bid[]> {
    const deal = await this.deps.deals.find(dealId);
    if (!isDealer(deal, viewerId)) {
      return (await bidsRepository.listOfDeal(this.deps.db, dealId, viewerId)).map(presentBid);
    }
    const rows = await bidsRepository.listOfDeal(this.deps.db, dealId);
    const stats = await bidsRepository.bidderStats(
      this.deps.db,
      rows.map((row) => row.bid.bidderId),
    );
    return rows.map((row) => presentBidForChoosing(row, deal.budgetCents, stats.get(row.bid.bidderId)!));
  }

  /** The user's bids, live and gone, newest first, with their deals and outcomes (GET /api/bids/mine). */
  async mine(userId: number, page: { limit: number; before?: number }): Promise<MyBid[]> {
    return (await bidsRepository.mine(this.deps.db, userId, page)).map((row) => presentMyBid(row, userId));
  }

  /**
   * A dealer toggles their own selection. When both dealers have selected the
   * same bid, the deal is finalized at once: dealmaker = bidder, budget = price.
   */
  select(dealId: number, bidId: number, userId: number) {
    return this.deps.transact(async (tx, afterCommit) => {
      const before = await this.deps.deals.lock(tx, dealId);
      const side = requireMaySelectBid(before, userId);
      const column = side === 'creator' ? 'selectedBidByCreator' : 'selectedBidByCounterpart';
      const bid = await bidsRepository.findById(tx, bidId);
      if (!bid || bid.dealId !== dealId) throw bidNotFound();
      const updated = await this.deps.deals.update(tx, dealId, {
        [column]: before[column] === bidId ? null : bidId,
      });
      const finalized =
        updated.counterpartId !== null &&
        updated.selectedBidByCreator === bidId &&
        updated.selectedBidByCounterpart === bidId;
      const removed = finalized
        ? await assignDealmaker(
            tx,
            { deals: this.deps.deals, escrow: this.deps.escrow },
            dealId,
            bid.bidderId,
            {
              keepBidId: bid.id,
              budgetCents: bid.priceCents,
            },
          )
        : null;
      const deal = await this.deps.deals.present(dealId, userId, tx);
      await this.recordSelection(tx, afterCommit, {
        before,
        side,
        userId,
        deal,
        bidId: bid.id,
        selected: updated[column] === bidId,
        removed,
      });
      afterCommit(() => {
        this.publishBid(
          before,
          bid.bidderId,
          removed
            ? {
                id: bid.id,
                dealFinalized: true,
                finalDealmaker: deal.dealmaker!,
                finalPrice: centsToDollars(bid.priceCents),
              }
            : { id: bid.id, dealFinalized: false },
          'selected',
        );
        this.deps.deals.announce(deal, removed ? 'finalized' : 'updated');
      });
      const message = removed
        ? `Both dealers selected this bid: the deal is finalized with ${deal.dealmaker} as its dealmaker.`
        : updated[column] === bidId
          ? 'Bid selected.'
          : 'Bid unselected.';
      return { message, deal };
    });
  }

  /** The selection on the timeline; the other dealer told of it, and everyone concerned of a finalization. */
  private async recordSelection(
    tx: Tx,
    afterCommit: AfterCommit,
    change: {
      before: DealRow;
      side: DealerSide;
      userId: number;
      deal: Deal;
      bidId: number;
      selected: boolean;
      removed: { removedBidderIds: number[]; removedRequestReceiverIds: number[] } | null;
    },
  ) {
    const { before, side, userId, deal, removed } = change;
    const view = (await bidsRepository.view(tx, change.bidId))!;
    const dealer = dealerNameOf(deal, side);
    const price = `${formatUsdCents(view.bid.priceCents)}`;
    await this.deps.timeline.record(tx, afterCommit, {
      dealId: deal.id,
      actorId: userId,
      event: {
        kind: 'bid-selected',
        message: change.selected
          ? `${dealer} selected ${view.bidderUsername}'s bid of ${price}.`
          : `${dealer} withdrew their selection of ${view.bidderUsername}'s bid.`,
        details: { bidId: change.bidId, selected: change.selected },
      },
      notify: removed
        ? []
        : [
            {
              to: [otherDealerOf(before, side)],
              kind: 'selection-changed',
              message: change.selected
                ? `${dealer} selected ${view.bidderUsername}'s bid of ${price} on "${deal.title}".`
                : `${dealer} withdrew their selection on "${deal.title}".`,
            },
          ],
    });
    if (!removed) return;
    await this.deps.timeline.record(tx, afterCommit, {
      dealId: deal.id,
      actorId: userId,
      event: {
        kind: 'finalized',
        message: `The deal is finalized: ${deal.dealmaker} is its dealmaker for ${price}.`,
        details: { dealmaker: deal.dealmaker, price: centsToDollars(view.bid.priceCents) },
      },
      notify: [
        {
          to: [view.bid.bidderId],
          kind: 'bid-selected',
          message: `Your bid on "${deal.title}" was selected: you are now its dealmaker.`,
        },
        {
          to: [before.creatorId, before.counterpartId],
          kind: 'deal-finalized',
          message: `"${deal.title}" is finalized with ${deal.dealmaker} as dealmaker for ${price}.`,
        },
        {
          to: [...removed.removedBidderIds, ...removed.removedRequestReceiverIds],
          kind: 'deal-closed',
          message: `"${deal.title}" found its dealmaker; your bid or request on it was closed.`,
        },
      ],
    });
  }

  private async lockOwnBid(tx: Tx, bidId: number, userId: number) {
    const existing = await bidsRepository.findById(tx, bidId);
    if (!existing) throw bidNotFound();
    // Deal first, then bid: the same lock order as selection, so the two never deadlock.
    const deal = await this.deps.deals.lock(tx, existing.dealId);
    const bid = await bidsRepository.lock(tx, bidId);
    if (!bid) throw bidNotFound();
    requireMayChangeBid(deal, userId, bid);
    return { deal, bid };
  }

  private async clearSelectionsOf(tx: Tx, deal: DealRow, bidId: number) {
    const changes: Partial<DealRow> = {};
    if (deal.selectedBidByCreator === bidId) changes.selectedBidByCreator = null;
    if (deal.selectedBidByCounterpart === bidId) changes.selectedBidByCounterpart = null;
    if (Object.keys(changes).length > 0) await this.deps.deals.update(tx, deal.id, changes);
  }

  /** Bids go to the dealers and the bidder only: nobody else may see them. */
  private publishBid(
    deal: DealRow,
    bidderId: number,
    data: Bid | BidSelectionChange | { id: number },
    updateType: UpdateType,
  ) {
    this.deps.events.publish({ users: [deal.creatorId, deal.counterpartId, bidderId] }, 'bid-updated', {
      dealId: deal.id,
      data,
      updateType,
    });
  }
}
