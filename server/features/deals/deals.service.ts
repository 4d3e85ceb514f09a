import type { DealEdit } from '../../../contract/deal-changes';
import type { ActivityEntry, Deal, NewDeal } from '../../../contract/deals';
import type { DealCount, DealFilters, DealListItem, DealListQuery } from '../../../contract/discovery';
import { limits } from '../../../contract/limits';
import { formatUsdCents } from '../../../contract/money';
import type { DealAccess } from '../../core/deal/deal-access';
import {
  requireDeletable,
  requireEditable,
  requireJoinable,
  requireLeavable,
  requireMayRemoveCounterpart,
} from '../../core/deal/deal-policy';
import { participantIds } from '../../core/deal/deal-roles';
import type { Db, Tx } from '../../db/client';
import type { Transact } from '../../db/transaction';
import type { EventPublisher } from '../../lib/events';
import type { EscrowService } from '../escrow/escrow.service';
import type { TimelineService } from '../timeline/timeline.service';
import type { UsersService } from '../users/users.service';
import { bidsRepository } from './bids.repository';
import { DealPageCache, sharedPage } from './deal-page-cache';
import { type DealSearch, dealSearchRepository } from './deal-search.repository';
import { dealsRepository } from './deals.repository';
import { snippetParts } from './snippets';

const fieldWords = {
  title: 'the title',
  description: 'the description',
  budgetCents: 'the budget',
  timeline: 'the timeline',
};

/** "the title and the budget": the fields an edit changed, in words. */
function editedFieldNames(changes: Partial<Record<keyof typeof fieldWords, unknown>>) {
  const words = (Object.keys(fieldWords) as Array<keyof typeof fieldWords>)
    .filter((field) => changes[field] !== undefined)
    .map((field) => fieldWords[field]);
  return words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** Deals: posting, browsing, joining, leaving and deleting (DESIGN.md §5 Deals). */
export class DealsService {
  private readonly pages = new DealPageCache();

  constructor(
    private readonly deps: {
      db: Db;
      transact: Transact;
      deals: DealAccess;
      escrow: EscrowService;
      users: UsersService;
      timeline: TimelineService;
      events: EventPublisher;
    },
  ) {
    deps.events.onSignal('deals-changed', () => this.pages.clear());
  }

  async create(creatorId: number, input: NewDeal) {
    const { title, description, budget, timeline: dealTimeline, joinPolicy } = input;
    return this.deps.transact(async (tx, afterCommit) => {
      const row = await dealsRepository.insert(tx, {
        title,
        description,
        budgetCents: budget,
        timeline: dealTimeline,
        joinPolicy,
        creatorId,
      });
      const deal = await this.deps.deals.present(row.id, creatorId, tx);
      await this.deps.timeline.record(tx, afterCommit, {
        dealId: deal.id,
        actorId: creatorId,
        event: { kind: 'created', message: `${deal.dealer_creator} posted the deal.` },
      });
      afterCommit(() => this.deps.deals.announce(deal, 'created'));
      return deal;
    });
  }

  /**
   * A page of the deals list as GET /api/deals/all's query parameters ask: without any, the spec's
   * list (`list`); with filters, a sort or keywords, the search (deal-search.repository), each deal
   * of a keyword search with its snippet. The pages are shared through the page cache as `list`'s are.
   */
  async find(viewerId: number, query: DealListQuery): Promise<DealListItem[]> {
    const { q, status, minBudget, maxBudget, sort, limit, before, offset } = query;
    if (
      q === undefined &&
      !status &&
      minBudget === undefined &&
      maxBudget === undefined &&
      !sort &&
      offset === undefined
    ) {
      return this.list(viewerId, { limit, before });
    }
    const search: DealSearch = { q, stages: status, minBudgetCents: minBudget, maxBudgetCents: maxBudget };
    const order = sort ?? (q ? 'relevance' : 'newest');
    const key = `search\u0000${JSON.stringify([search, order, limit, before, offset])}`;
    const keywords = q ? await dealSearchRepository.keywordQueries(this.deps.db, q) : undefined;
    let page = this.pages.get(key);
    if (!page) {
      const generation = this.pages.begin();
      const ids = await dealSearchRepository.pageIds(this.deps.db, search, keywords, {
        sort: order,
        limit,
        before,
        offset,
      });
      page = sharedPage(await this.deps.deals.share(ids));
      this.pages.set(key, page, generation);
    }
    const myBids = await dealsRepository.viewerBidsOn(this.deps.db, viewerId, page.ids);
    const answer = page.answerTo(viewerId, myBids) as Deal[];
    if (!keywords) return answer;
    const headlines = await dealSearchRepository.snippets(this.deps.db, page.ids, keywords);
    return answer.map((deal) => ({ ...deal, snippet: snippetParts(headlines.get(deal.id) ?? '') }));
  }

  /** How many deals the filters find: exact up to limits.discovery.countCap, then `more`. */
  async count(filters: DealFilters): Promise<DealCount> {
    const cap = limits.discovery.countCap;
    const search: DealSearch = {
      q: filters.q,
      stages: filters.status,
      minBudgetCents: filters.minBudget,
      maxBudgetCents: filters.maxBudget,
    };
    const keywords = filters.q
      ? await dealSearchRepository.keywordQueries(this.deps.db, filters.q)
      : undefined;
    const found = await dealSearchRepository.count(this.deps.db, search, keywords, cap + 1);
    return { count: Math.min(found, cap), more: found > cap };
  }

  /**
   * A page of the deals list (optionally a keyword search), newest first. The page
   * every viewer shares comes from the page cache when nothing changed since it was
   * read; each viewer gets it with their own bids and what they may do (`can`): the
   * shared answer itself for every deal they take no part in and did not bid on.
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
      const ids = await dealsRepository.pageIds(this.deps.db, { ...query, beforeId: query.before });
      page = sharedPage(await this.deps.deals.share(ids));
      this.pages.set(key, page, generation);
    }
    const myBids = await dealsRepository.viewerBidsOn(this.deps.db, viewerId, page.ids);
    // Read-only (frozen where shared): only the serializer reads it.
    return page.answerTo(viewerId, myBids) as Deal[];
  }

  async myDeals(userId: number) {
    return (await this.deps.deals.dealsOf(userId, 'dealer')).map(({ deal }) => deal);
  }

  async dealmakerDeals(userId: number) {
    return (await this.deps.deals.dealsOf(userId, 'dealmaker')).map(({ deal }) => deal);
  }

  /** Deals where the user is creator, counterpart or dealmaker, with that role, as seen by the viewer. */
  async activityOf(username: string, viewerId: number): Promise<ActivityEntry[]> {
    const user = await this.deps.users.findVerifiedByUsername(username);
    const entries = await this.deps.deals.dealsOf(user.id, 'participant', viewerId);
    return entries.map(({ deal, role }) => ({ ...deal, role }));
  }

  get(id: number, viewerId: number) {
    return this.deps.deals.present(id, viewerId);
  }

  join(id: number, userId: number) {
    return this.deps.transact(async (tx, afterCommit) => {
      const before = await this.deps.deals.lock(tx, id);
      requireJoinable(before, userId, !!(await bidsRepository.findByDealAndBidder(tx, id, userId)));
      await this.deps.deals.update(tx, id, { counterpartId: userId });
      const deal = await this.deps.deals.present(id, userId, tx);
      await this.deps.timeline.record(tx, afterCommit, {
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
      afterCommit(() => this.deps.deals.announce(deal, 'joined'));
      return deal;
    });
  }

  /**
   * PATCH /api/deals/{id}: the creator corrects their deal while it has no dealmaker. Bids stay; the
   * counterpart hears of any change and the bidders of a new budget (their price was made against it).
   */
  edit(id: number, userId: number, edit: DealEdit) {
    return this.deps.transact(async (tx, afterCommit) => {
      const before = await this.deps.deals.lock(tx, id);
      requireEditable(before, userId);
      const changes = {
        ...(edit.title !== undefined && edit.title !== before.title ? { title: edit.title } : {}),
        ...(edit.description !== undefined && edit.description !== before.description
          ? { description: edit.description }
          : {}),
        ...(edit.budget !== undefined && edit.budget !== before.budgetCents
          ? { budgetCents: edit.budget }
          : {}),
        ...(edit.timeline !== undefined && edit.timeline !== before.timeline
          ? { timeline: edit.timeline }
          : {}),
      };
      // The same values again change nothing (a form saved twice).
      if (Object.keys(changes).length === 0) return this.deps.deals.present(id, userId, tx);
      await this.deps.deals.update(tx, id, changes);
      const deal = await this.deps.deals.present(id, userId, tx);
      const changed = editedFieldNames(changes);
      const budgetChange =
        changes.budgetCents !== undefined
          ? `the budget from ${formatUsdCents(before.budgetCents)} to ${formatUsdCents(changes.budgetCents)}`
          : null;
      const bidderIds = budgetChange ? await bidsRepository.bidderIds(tx, id) : [];
      await this.deps.timeline.record(tx, afterCommit, {
        dealId: id,
        actorId: userId,
        event: {
          kind: 'edited',
          message: `${deal.dealer_creator} changed ${budgetChange ?? changed}.`,
          details: { fields: Object.keys(changes) },
        },
        notify: [
          {
            to: [before.counterpartId],
            kind: 'deal-edited',
            message: `${deal.dealer_creator} changed ${changed} of "${deal.title}".`,
          },
          ...(budgetChange
            ? [
                {
                  to: bidderIds,
                  kind: 'deal-edited' as const,
                  message: `${deal.dealer_creator} changed ${budgetChange} of "${deal.title}", which you bid on.`,
                },
              ]
            : []),
        ],
      });
      afterCommit(() => this.deps.deals.announce(deal, 'updated'));
      return deal;
    });
  }

  /**
   * DELETE /api/deals/{id}/counterpart: the creator removes the counterpart while no escrow half is paid,
   * with the same effects as their leaving.
   */
  removeCounterpart(id: number, userId: number) {
    return this.deps.transact(async (tx, afterCommit) => {
      const before = await this.deps.deals.lock(tx, id);
      requireMayRemoveCounterpart(before, userId, await this.deps.escrow.find(id, tx));
      const removedId = before.counterpartId!;
      const removed = await this.deps.users.getById(removedId);
      await this.withoutCounterpart(tx, id);
      const deal = await this.deps.deals.present(id, userId, tx);
      await this.deps.timeline.record(tx, afterCommit, {
        dealId: id,
        actorId: userId,
        event: {
          kind: 'counterpart-removed',
          message: `${deal.dealer_creator} removed ${removed.username} from the deal.`,
        },
        notify: [
          {
            to: [removedId],
            kind: 'counterpart-removed',
            message: `${deal.dealer_creator} removed you from the deal "${deal.title}".`,
          },
        ],
      });
      afterCommit(() => {
        this.deps.deals.announce(deal, 'left');
        this.deps.events.leaveDeal(removedId, id);
      });
      return deal;
    });
  }

  /** The counterpart goes, and their choices with them (leaving, or removed by the creator). */
  private async withoutCounterpart(tx: Tx, id: number) {
    await this.deps.deals.update(tx, id, {
      counterpartId: null,
      selectedBidByCounterpart: null,
      completedByCounterpart: false,
    });
  }

  leave(id: number, userId: number) {
    return this.deps.transact(async (tx, afterCommit) => {
      const before = await this.deps.deals.lock(tx, id);
      requireLeavable(before, userId, await this.deps.escrow.find(id, tx));
      await this.withoutCounterpart(tx, id);
      const deal = await this.deps.deals.present(id, userId, tx);
      const leaver = await this.deps.users.getById(userId);
      await this.deps.timeline.record(tx, afterCommit, {
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
        this.deps.deals.announce(deal, 'left');
        this.deps.events.leaveDeal(userId, id);
      });
      return deal;
    });
  }

  delete(id: number, userId: number) {
    return this.deps.transact(async (tx, afterCommit) => {
      const deal = await this.deps.deals.lock(tx, id);
      requireDeletable(deal, userId, await this.deps.escrow.find(id, tx));
      const bidderIds = await bidsRepository.bidderIds(tx, id);
      // Told before the deal goes: the notifications outlive it (their deal id becomes null).
      await this.deps.timeline.record(tx, afterCommit, {
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
      await bidsRepository.keepBidsOfDeletedDeal(tx, id);
      await dealsRepository.delete(tx, id);
      afterCommit(() => this.deps.deals.announceDeleted(id));
      return { message: 'Deal deleted successfully!' };
    });
  }
}
