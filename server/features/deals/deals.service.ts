import type { ActivityEntry, Deal, NewDeal } from '../../../contract/deals';
import { limits } from '../../../contract/limits';
import { centsToDollars } from '../../../contract/money';
import type { DealAccess } from '../../core/deal/deal-access';
import { requireDeletable, requireJoinable, requireLeavable } from '../../core/deal/deal-policy';
import { participantIds } from '../../core/deal/deal-roles';
import type { Db } from '../../db/client';
import type { Transact } from '../../db/transaction';
import type { EventPublisher } from '../../lib/events';
import type { EscrowService } from '../escrow/escrow.service';
import type { TimelineService } from '../timeline/timeline.service';
import type { UsersService } from '../users/users.service';
import { bidsRepository } from './bids.repository';
import { DealPageCache } from './deal-page-cache';
import { dealsRepository } from './deals.repository';

/** Deals: posting, browsing, joining, leaving and deleting (DESIGN.md §5 Deals). */
export class DealsService {
  private readonly pages = new DealPageCache();

  constructor(
    private readonly db: Db,
    private readonly transact: Transact,
    private readonly deals: DealAccess,
    private readonly escrow: EscrowService,
    private readonly users: UsersService,
    private readonly timeline: TimelineService,
    private readonly events: EventPublisher,
  ) {
    events.onSignal('deals-changed', () => this.pages.clear());
  }

  async create(creatorId: number, input: NewDeal) {
    const { title, description, budget, timeline: dealTimeline } = input;
    return this.transact(async (tx, afterCommit) => {
      const row = await dealsRepository.insert(tx, {
        title,
        description,
        budgetCents: budget,
        timeline: dealTimeline,
        creatorId,
      });
      const deal = await this.deals.present(row.id, creatorId, tx);
      await this.timeline.record(tx, afterCommit, {
        dealId: deal.id,
        actorId: creatorId,
        event: { kind: 'created', message: `${deal.dealer_creator} posted the deal.` },
      });
      afterCommit(() => this.deals.announce(deal, 'created'));
      return deal;
    });
  }

  /**
   * A page of the deals list (optionally a keyword search), newest first. The
   * public page comes from the page cache when nothing changed since it was
   * read; the viewer's own bids are added to it.
   */
  async list(
    viewerId: number,
    options: { keyword?: string; limit?: number; before?: number },
  ): Promise<Deal[]> {
    const query = {
      keyword: options.keyword || undefined,
      before: options.before,
      limit: Math.min(options.limit ?? limits.page.defaultLimit, limits.page.maxLimit),
    };
    const key = DealPageCache.keyOf(query);
    let page = this.pages.get(key);
    if (!page) {
      const generation = this.pages.begin();
      const ids = await dealsRepository.pageIds(this.db, { ...query, beforeId: query.before });
      // Frozen: the page is shared by every viewer, and its answer is written once (response-serializer.ts).
      page = Object.freeze(
        (await this.deals.presentMany(ids, 0)).map((deal) => Object.freeze(deal)),
      ) as Deal[];
      this.pages.set(key, page, generation);
    }
    const myBids = await dealsRepository.viewerBidsOn(
      this.db,
      viewerId,
      page.map((deal) => deal.id),
    );
    if (myBids.length === 0) return page;
    const bidOf = new Map(myBids.map((bid) => [bid.dealId, bid]));
    return page.map((deal) => {
      const bid = bidOf.get(deal.id);
      return bid ? { ...deal, my_bid: { id: bid.id, price: centsToDollars(bid.priceCents) } } : deal;
    });
  }

  async myDeals(userId: number) {
    return (await this.deals.dealsOf(userId, 'dealer')).map(({ deal }) => deal);
  }

  async dealmakerDeals(userId: number) {
    return (await this.deals.dealsOf(userId, 'dealmaker')).map(({ deal }) => deal);
  }

  /** Deals where the user is creator, counterpart or dealmaker, with that role, as seen by the viewer. */
  async activityOf(username: string, viewerId: number): Promise<ActivityEntry[]> {
    const user = await this.users.findVerifiedByUsername(username);
    const entries = await this.deals.dealsOf(user.id, 'participant', viewerId);
    return entries.map(({ deal, role }) => ({ ...deal, role }));
  }

  get(id: number, viewerId: number) {
    return this.deals.present(id, viewerId);
  }

  join(id: number, userId: number) {
    return this.transact(async (tx, afterCommit) => {
      const before = await this.deals.lock(tx, id);
      requireJoinable(before, userId, !!(await bidsRepository.findByDealAndBidder(tx, id, userId)));
      await this.deals.update(tx, id, { counterpartId: userId });
      const deal = await this.deals.present(id, userId, tx);
      await this.timeline.record(tx, afterCommit, {
        dealId: id,
        actorId: userId,
        event: { kind: 'joined', message: `${deal.dealer_joined} joined as the counterpart.` },
        notify: [
          {
            to: [before.creatorId],
            kind: 'deal-joined',
            message: `${deal.dealer_joined} joined your deal "${deal.title}".`,
          },
        ],
      });
      afterCommit(() => this.deals.announce(deal, 'joined'));
      return deal;
    });
  }

  leave(id: number, userId: number) {
    return this.transact(async (tx, afterCommit) => {
      const before = await this.deals.lock(tx, id);
      requireLeavable(before, userId, await this.escrow.find(id, tx));
      // Leaving takes the counterpart's choices with them.
      await this.deals.update(tx, id, {
        counterpartId: null,
        selectedBidByCounterpart: null,
        completedByCounterpart: false,
      });
      const deal = await this.deals.present(id, userId, tx);
      const leaver = await this.users.getById(userId);
      await this.timeline.record(tx, afterCommit, {
        dealId: id,
        actorId: userId,
        event: { kind: 'left', message: `${leaver.username} left the deal.` },
        notify: [
          {
            to: [before.creatorId],
            kind: 'deal-left',
            message: `The counterpart left your deal "${deal.title}".`,
          },
        ],
      });
      afterCommit(() => {
        this.deals.announce(deal, 'left');
        this.events.leaveDeal(userId, id);
      });
      return deal;
    });
  }

  delete(id: number, userId: number) {
    return this.transact(async (tx, afterCommit) => {
      const deal = await this.deals.lock(tx, id);
      requireDeletable(deal, userId, await this.escrow.find(id, tx));
      const bidderIds = await bidsRepository.bidderIds(tx, id);
      // Told before the deal goes: the notifications outlive it (their deal id becomes null).
      await this.timeline.record(tx, afterCommit, {
        dealId: id,
        actorId: userId,
        notify: [
          {
            to: [...participantIds(deal), ...bidderIds],
            kind: 'deal-deleted',
            message: `The deal "${deal.title}" was deleted by its creator.`,
          },
        ],
      });
      // Bids, requests, messages, progress, disputes, the escrow and the timeline go with it (ON DELETE CASCADE).
      await dealsRepository.delete(tx, id);
      afterCommit(() => this.deals.announceDeleted(id));
      return { message: 'Deal deleted successfully!' };
    });
  }
}
