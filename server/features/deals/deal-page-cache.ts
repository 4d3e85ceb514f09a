import { LRUCache } from 'lru-cache';
import type { Deal } from '../../../contract/deals';
import type { SharedDeal } from '../../core/deal/deal.presenter';

/**
 * A page of the deals list as every viewer shares it: its deals, each answering a viewer with their
 * own bid and what they may do (core/deal SharedDeal), and the page as anyone with no part in its
 * deals and no bid on them gets it.
 */
export type SharedPage = {
  readonly ids: readonly number[];
  /** Frozen, as each of its deals: the response serializer writes it once (lib/response-serializer.ts). */
  readonly public: readonly Deal[];
  /**
   * The page as this viewer gets it: the public page itself when they take no part in its deals and
   * bid on none; otherwise their answers, frozen and kept in the page but for a deal they bid on. The
   * last such page made for a viewer without bids on it is kept, frozen too: that viewer asking again
   * (a reload, the next visit) gets the same answer, written once.
   */
  answerTo(
    viewerId: number,
    myBids: ReadonlyArray<{ dealId: number; id: number; priceCents: number }>,
  ): readonly Deal[];
};

export function sharedPage(deals: readonly SharedDeal[]): SharedPage {
  const ids = Object.freeze(deals.map((deal) => deal.id));
  const publicPage = Object.freeze(deals.map((deal) => deal.public));
  let kept: { viewerId: number; answer: readonly Deal[] } | undefined;
  return {
    ids,
    public: publicPage,
    answerTo(viewerId, myBids) {
      if (myBids.length === 0 && kept?.viewerId === viewerId) return kept.answer;
      const bidOf = myBids.length > 0 ? new Map(myBids.map((bid) => [bid.dealId, bid])) : undefined;
      let answer: Deal[] | undefined;
      for (let index = 0; index < deals.length; index++) {
        const deal = deals[index]!;
        const mine = deal.for(viewerId, bidOf?.get(deal.id));
        if (!answer && mine !== publicPage[index]) answer = publicPage.slice(0, index);
        answer?.push(mine);
      }
      if (!answer) return publicPage;
      if (!bidOf) kept = { viewerId, answer: Object.freeze(answer) };
      return answer;
    },
  };
}

/**
 * Pages of the deals list and of keyword searches as every viewer shares them
 * (docs/decisions/0011-request-caches.md). Any public change to any deal
 * clears them all, on every instance (the 'deals-changed' signal); the
 * generation guards against a page read before a change being stored after
 * it, and the age limit against a signal lost between instances.
 */
export class DealPageCache {
  private readonly pages = new LRUCache<string, SharedPage>({ max: 500, ttl: 10_000 });
  private generation = 0;

  static keyOf(options: { keyword?: string; before?: number; limit: number }) {
    return `${options.keyword?.toLowerCase() ?? ''}\u0000${options.before ?? ''}\u0000${options.limit}`;
  }

  get(key: string): SharedPage | undefined {
    return this.pages.get(key);
  }

  /** The current generation, to hand back to `set` once the page has been read. */
  begin(): number {
    return this.generation;
  }

  set(key: string, page: SharedPage, generation: number) {
    if (generation === this.generation) this.pages.set(key, page);
  }

  clear() {
    this.generation++;
    this.pages.clear();
  }
}
