import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Deal, DealCan } from '../../../contract/deals';
import { nothingAllowed } from '../../../contract/vocabulary';
import { makeDeal } from '../../test/deal-fixtures';
import { type DealFilters, noFilters } from './deal-filters';
import {
  type DealListData,
  dealQueryKeys,
  holdsDeal,
  mergeDeal,
  removeDealFromCaches,
  setMyBidInCaches,
  upsertDealInCaches,
  upsertInList,
  upsertInPages,
} from './deals-cache';

const pagesOf = (...pages: Array<{ ids: number[]; more: boolean }>): DealListData => ({
  pages: pages.map(({ ids, more }) => ({
    deals: ids.map((id) => makeDeal({ id, title: `Deal ${id}` })),
    nextBefore: more ? ids[ids.length - 1] : undefined,
  })),
  pageParams: pages.map((_, index) => (index === 0 ? undefined : 0)),
});
const idsOf = (data: DealListData | undefined) =>
  data?.pages.map((page) => page.deals.map((deal) => deal.id));

describe('upsertInPages', () => {
  it('replaces a deal where it is', () => {
    const data = pagesOf({ ids: [9, 8], more: true }, { ids: [7, 6], more: false });
    const next = upsertInPages(data, makeDeal({ id: 7, title: 'Changed' }), {
      source: 'viewer',
      insert: true,
    });
    expect(idsOf(next)).toEqual([
      [9, 8],
      [7, 6],
    ]);
    expect(next.pages[1]!.deals[0]!.title).toBe('Changed');
    expect(next.pages[1]!.nextBefore).toBeUndefined();
  });

  it('puts a new deal first, and leaves the paging cursors alone', () => {
    const data = pagesOf({ ids: [9, 8], more: true });
    const next = upsertInPages(data, makeDeal({ id: 12 }), { source: 'viewer', insert: true });
    expect(idsOf(next)).toEqual([[12, 9, 8]]);
    expect(next.pages[0]!.nextBefore).toBe(8);
  });

  it('puts a deal in its place within the loaded pages', () => {
    const data = pagesOf({ ids: [9, 7], more: true }, { ids: [5, 3], more: true });
    expect(idsOf(upsertInPages(data, makeDeal({ id: 6 }), { source: 'viewer', insert: true }))).toEqual([
      [9, 7],
      [6, 5, 3],
    ]);
  });

  it('leaves a deal older than everything loaded to a later page', () => {
    const data = pagesOf({ ids: [9, 7], more: true });
    expect(upsertInPages(data, makeDeal({ id: 2 }), { source: 'viewer', insert: true })).toBe(data);
    const whole = pagesOf({ ids: [9, 7], more: false });
    expect(idsOf(upsertInPages(whole, makeDeal({ id: 2 }), { source: 'viewer', insert: true }))).toEqual([
      [9, 7, 2],
    ]);
  });

  it('does not insert when not allowed', () => {
    const data = pagesOf({ ids: [9], more: false });
    expect(upsertInPages(data, makeDeal({ id: 12 }), { source: 'viewer', insert: false })).toBe(data);
  });

  it("keeps the viewer's own bid when a broadcast copy replaces the cached one", () => {
    const data: DealListData = {
      pages: [{ deals: [makeDeal({ id: 4, my_bid: { id: 1, price: 50 } })], nextBefore: undefined }],
      pageParams: [undefined],
    };
    const broadcast = makeDeal({ id: 4, dealer_joined: 'bob', my_bid: null });
    const fromBroadcast = upsertInPages(data, broadcast, { source: 'broadcast', insert: true });
    expect(fromBroadcast.pages[0]!.deals[0]).toMatchObject({
      dealer_joined: 'bob',
      my_bid: { id: 1, price: 50 },
    });
    const fromViewer = upsertInPages(data, broadcast, { source: 'viewer', insert: true });
    expect(fromViewer.pages[0]!.deals[0]!.my_bid).toBeNull();
  });
});

describe('upsertInList', () => {
  const list = [makeDeal({ id: 5 }), makeDeal({ id: 3 })];

  it('inserts, replaces and removes by membership', () => {
    expect(
      upsertInList(list, makeDeal({ id: 4 }), { source: 'viewer', belongs: true }).map((d) => d.id),
    ).toEqual([5, 4, 3]);
    expect(
      upsertInList(list, makeDeal({ id: 3 }), { source: 'viewer', belongs: false }).map((d) => d.id),
    ).toEqual([5]);
    expect(
      upsertInList(list, makeDeal({ id: 3, title: 'New' }), { source: 'viewer', belongs: true }).find(
        (d) => d.id === 3,
      )?.title,
    ).toBe('New');
  });

  it('only changes existing copies when membership is unknown', () => {
    expect(upsertInList(list, makeDeal({ id: 4 }), { source: 'broadcast', belongs: undefined })).toBe(list);
  });
});

describe('mergeDeal', () => {
  const snippet = [{ text: 'Beans', match: true }];
  it("keeps a search result's snippet while the description is the same", () => {
    const cached = { ...makeDeal({ id: 2 }), snippet };
    expect(mergeDeal(cached, makeDeal({ id: 2, budget: 10 }), 'viewer')).toMatchObject({
      budget: 10,
      snippet,
    });
    expect(mergeDeal(cached, makeDeal({ id: 2, description: 'Changed' }), 'broadcast')).not.toHaveProperty(
      'snippet',
    );
  });
});

describe('upsertInPages in other orders', () => {
  const page = (...deals: Array<[number, number]>): DealListData => ({
    pages: [
      { deals: deals.map(([id, budget]) => makeDeal({ id, budget })), nextBefore: undefined, nextOffset: 24 },
    ],
    pageParams: [undefined],
  });
  const byBudgetDesc = (a: Pick<Deal, 'id' | 'budget'>, b: Pick<Deal, 'id' | 'budget'>) =>
    b.budget - a.budget || b.id - a.id;

  it('puts a deal at its place by budget, and a ranked one first', () => {
    const data = page([1, 900], [2, 500], [3, 100]);
    expect(
      idsOf(
        upsertInPages(data, makeDeal({ id: 9, budget: 600 }), { source: 'viewer', insert: byBudgetDesc }),
      ),
    ).toEqual([[1, 9, 2, 3]]);
    expect(
      idsOf(upsertInPages(data, makeDeal({ id: 9, budget: 50 }), { source: 'viewer', insert: byBudgetDesc })),
    ).toEqual([[1, 2, 3]]);
    expect(idsOf(upsertInPages(data, makeDeal({ id: 9 }), { source: 'viewer', insert: 'first' }))).toEqual([
      [9, 1, 2, 3],
    ]);
  });
});

describe('cache functions on a query client', () => {
  let client: QueryClient;
  const seedList = (keyword: string, deals: Deal[]) =>
    client.setQueryData<DealListData>(dealQueryKeys.list(keyword), {
      pages: [{ deals, nextBefore: undefined }],
      pageParams: [undefined],
    });
  const listIds = (keyword: string) =>
    client
      .getQueryData<DealListData>(dealQueryKeys.list(keyword))
      ?.pages.flatMap((page) => page.deals.map((deal) => deal.id));

  beforeEach(() => {
    client = new QueryClient();
  });

  it('a new deal enters the lists whose filters find it, at its place', () => {
    const open = { ...noFilters, status: ['open' as const], maxBudget: 100_000 };
    const byBudget = { ...noFilters, sort: 'budget_asc' as const };
    const seed = (filters: DealFilters, deals: Deal[]) =>
      client.setQueryData<DealListData>(dealQueryKeys.list(filters), {
        pages: [{ deals, nextBefore: undefined }],
        pageParams: [undefined],
      });
    const ids = (filters: DealFilters) =>
      client
        .getQueryData<DealListData>(dealQueryKeys.list(filters))
        ?.pages.flatMap((page) => page.deals.map((deal) => deal.id));
    seed(open, [makeDeal({ id: 1, budget: 50 })]);
    seed(byBudget, [makeDeal({ id: 1, budget: 50 }), makeDeal({ id: 3, budget: 5000 })]);

    upsertDealInCaches(client, makeDeal({ id: 4, budget: 700 }));
    upsertDealInCaches(client, makeDeal({ id: 5, budget: 2000, dealer_joined: 'bob' }));
    upsertDealInCaches(client, makeDeal({ id: 6, budget: 200 }));

    expect(ids(open)).toEqual([6, 4, 1]);
    expect(ids(byBudget)).toEqual([1, 6, 4, 5, 3]);
  });

  it('a new deal enters the lists whose keyword it matches, and my deals for its creator', () => {
    seedList('', [makeDeal({ id: 1 })]);
    seedList('coffee', [makeDeal({ id: 1 })]);
    seedList('tea', []);
    client.setQueryData<Deal[]>(dealQueryKeys.mine(), []);
    client.setQueryData<Deal[]>(dealQueryKeys.dealmaker(), []);

    upsertDealInCaches(client, makeDeal({ id: 2, title: 'Coffee roasting' }), {
      source: 'viewer',
      viewer: 'alice',
    });

    expect(listIds('')).toEqual([2, 1]);
    expect(listIds('coffee')).toEqual([2, 1]);
    expect(listIds('tea')).toEqual([]);
    expect(client.getQueryData<Deal[]>(dealQueryKeys.mine())?.map((deal) => deal.id)).toEqual([2]);
    expect(client.getQueryData<Deal[]>(dealQueryKeys.dealmaker())).toEqual([]);
    expect(client.getQueryData<Deal>(dealQueryKeys.detail(2))?.title).toBe('Coffee roasting');
  });

  it('moves a deal out of my deals when the viewer left it, and into dealmaker deals for its dealmaker', () => {
    client.setQueryData<Deal[]>(dealQueryKeys.mine(), [makeDeal({ id: 3, dealer_joined: 'bob' })]);
    upsertDealInCaches(client, makeDeal({ id: 3, dealer_joined: null }), { source: 'viewer', viewer: 'bob' });
    expect(client.getQueryData<Deal[]>(dealQueryKeys.mine())).toEqual([]);

    client.setQueryData<Deal[]>(dealQueryKeys.dealmaker(), []);
    upsertDealInCaches(client, makeDeal({ id: 3, dealmaker: 'carol' }), {
      source: 'viewer',
      viewer: 'carol',
    });
    expect(client.getQueryData<Deal[]>(dealQueryKeys.dealmaker())?.map((deal) => deal.id)).toEqual([3]);
  });

  it('a broadcast patches cached copies, keeps my_bid, and creates no detail entry', () => {
    seedList('', [makeDeal({ id: 5, my_bid: { id: 9, price: 10 } })]);
    client.setQueryData<Deal>(dealQueryKeys.detail(5), makeDeal({ id: 5, my_bid: { id: 9, price: 10 } }));

    upsertDealInCaches(client, makeDeal({ id: 5, dealer_joined: 'bob' }));
    upsertDealInCaches(client, makeDeal({ id: 6 }));

    const listed = client.getQueryData<DealListData>(dealQueryKeys.list(''))!.pages[0]!.deals;
    expect(listed.map((deal) => deal.id)).toEqual([6, 5]);
    expect(listed[1]).toMatchObject({ dealer_joined: 'bob', my_bid: { id: 9, price: 10 } });
    expect(client.getQueryData<Deal>(dealQueryKeys.detail(5))).toMatchObject({
      dealer_joined: 'bob',
      my_bid: { id: 9, price: 10 },
    });
    expect(client.getQueryData(dealQueryKeys.detail(6))).toBeUndefined();
  });

  it("a broadcast keeps the viewer's cached can, and a deal it brings allows nothing until asked", () => {
    const mine: DealCan = { delete: true, selectBid: true };
    seedList('', [makeDeal({ id: 5, can: mine })]);
    const { can: _can, ...publicFields } = makeDeal({ id: 5, dealer_joined: 'bob' });
    upsertDealInCaches(client, { ...publicFields, my_bid: null });
    const { can: _other, ...newDeal } = makeDeal({ id: 6 });
    upsertDealInCaches(client, { ...newDeal, my_bid: null });

    const listed = client.getQueryData<DealListData>(dealQueryKeys.list(''))!.pages[0]!.deals;
    expect(listed.map((deal) => deal.can)).toEqual([nothingAllowed, mine]);
    expect(holdsDeal(client, 6)).toBe(true);
    expect(holdsDeal(client, 7)).toBe(false);
  });

  it('removes a deleted deal from every list, and forgets its detail and bids', () => {
    seedList('', [makeDeal({ id: 2 }), makeDeal({ id: 1 })]);
    seedList('coffee', [makeDeal({ id: 2 })]);
    client.setQueryData<Deal[]>(dealQueryKeys.mine(), [makeDeal({ id: 2 })]);
    client.setQueryData<Deal[]>(dealQueryKeys.dealmaker(), [makeDeal({ id: 2 })]);
    client.setQueryData<Deal>(dealQueryKeys.detail(2), makeDeal({ id: 2 }));
    client.setQueryData(dealQueryKeys.bids(2), []);

    removeDealFromCaches(client, 2);

    expect(listIds('')).toEqual([1]);
    expect(listIds('coffee')).toEqual([]);
    expect(client.getQueryData<Deal[]>(dealQueryKeys.mine())).toEqual([]);
    expect(client.getQueryData<Deal[]>(dealQueryKeys.dealmaker())).toEqual([]);
    expect(client.getQueryData(dealQueryKeys.detail(2))).toBeUndefined();
    expect(client.getQueryData(dealQueryKeys.bids(2))).toBeUndefined();
  });

  it("sets the viewer's own bid on every copy of the deal", () => {
    seedList('', [makeDeal({ id: 2 }), makeDeal({ id: 1 })]);
    client.setQueryData<Deal>(dealQueryKeys.detail(2), makeDeal({ id: 2 }));

    setMyBidInCaches(client, 2, { id: 4, price: 99 });
    const listed = client.getQueryData<DealListData>(dealQueryKeys.list(''))!.pages[0]!.deals;
    expect(listed.map((deal) => deal.my_bid)).toEqual([{ id: 4, price: 99 }, null]);
    expect(client.getQueryData<Deal>(dealQueryKeys.detail(2))?.my_bid).toEqual({ id: 4, price: 99 });

    setMyBidInCaches(client, 2, null);
    expect(client.getQueryData<Deal>(dealQueryKeys.detail(2))?.my_bid).toBeNull();
  });
});
