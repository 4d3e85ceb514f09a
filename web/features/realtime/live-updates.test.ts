import { QueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Deal } from '../../../contract/deals';
import type { EscrowStatusResponse } from '../../../contract/escrow';
import type { Message } from '../../../contract/messages';
import type { NotificationEvent } from '../../../contract/notifications';
import type { ServerEvents } from '../../../contract/realtime';
import type { RealtimeSocket } from '../../lib/socket';
import { makeDeal } from '../../test/deal-fixtures';
import { dealmakerRequestKeys } from '../dealmaker-requests';
import { type DealListData, dealQueryKeys } from '../deals';
import { myBidKeys, savedSearchKeys } from '../discovery';
import { disputesQueryKey } from '../disputes';
import { escrowQueryKey, milestonesQueryKey } from '../escrow';
import { type MessagePages, messageKeys } from '../messages';
import { notificationKeys } from '../notifications';
import { progressQueryKey } from '../progress';
import { walletKeys } from '../wallet';
import { attachLiveUpdates, createLiveUpdates, type LiveViewer } from './live-updates';

vi.mock('sonner', () => ({ toast: vi.fn() }));
// Which chat is in front of the viewer: deal 8's, in these tests.
vi.mock('../messages', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../messages')>()),
  isChatInView: (dealId: number | null) => dealId === 8,
}));

const listOf = (...deals: Deal[]): DealListData => ({
  pages: [{ deals, nextBefore: undefined }],
  pageParams: [undefined],
});
const idsIn = (data: DealListData | undefined) => data?.pages.flatMap((page) => page.deals.map((d) => d.id));

let queryClient: QueryClient;
let viewer: LiveViewer;
let handlers: ReturnType<typeof createLiveUpdates>;
const fetchMock = vi.fn<typeof fetch>();

const invalidated = (queryKey: readonly unknown[]) => queryClient.getQueryState(queryKey)?.isInvalidated;
const dealEvent = (
  deal: Deal | { id: number },
  updateType: ServerEvents['deal-updated']['updateType'],
): ServerEvents['deal-updated'] => ({ dealId: deal.id, data: deal, updateType });

beforeEach(() => {
  queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  viewer = { id: 9, username: 'dave' };
  handlers = createLiveUpdates(queryClient, () => viewer);
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  queryClient.clear();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  vi.mocked(toast).mockClear();
});

describe('deal-updated', () => {
  it('created: the deal enters the lists whose keyword it matches, and My Deals of its creator', () => {
    queryClient.setQueryData(dealQueryKeys.list(''), listOf(makeDeal({ id: 3 })));
    queryClient.setQueryData(dealQueryKeys.list('tea'), listOf());
    queryClient.setQueryData<Deal[]>(dealQueryKeys.mine(), []);

    handlers['deal-updated'](dealEvent(makeDeal({ id: 4, dealer_creator: 'erin' }), 'created'));
    expect(idsIn(queryClient.getQueryData(dealQueryKeys.list('')))).toEqual([4, 3]);
    expect(idsIn(queryClient.getQueryData(dealQueryKeys.list('tea')))).toEqual([]);
    expect(queryClient.getQueryData<Deal[]>(dealQueryKeys.mine())).toEqual([]);

    // The viewer created it in another tab.
    handlers['deal-updated'](dealEvent(makeDeal({ id: 5, dealer_creator: 'Dave' }), 'created'));
    expect(queryClient.getQueryData<Deal[]>(dealQueryKeys.mine())?.map((d) => d.id)).toEqual([5]);
  });

  it('created twice (own action, then its event): the deal is there once', () => {
    queryClient.setQueryData(dealQueryKeys.list(''), listOf(makeDeal({ id: 3 })));
    const deal = makeDeal({ id: 4 });
    handlers['deal-updated'](dealEvent(deal, 'created'));
    handlers['deal-updated'](dealEvent(deal, 'created'));
    expect(idsIn(queryClient.getQueryData(dealQueryKeys.list('')))).toEqual([4, 3]);
  });

  it('deleted: the deal leaves every list, and the open detail view reloads', () => {
    queryClient.setQueryData(dealQueryKeys.list(''), listOf(makeDeal({ id: 4 }), makeDeal({ id: 3 })));
    queryClient.setQueryData<Deal[]>(dealQueryKeys.mine(), [makeDeal({ id: 4 })]);
    queryClient.setQueryData<Deal[]>(dealQueryKeys.dealmaker(), [makeDeal({ id: 4 })]);
    queryClient.setQueryData(dealQueryKeys.detail(4), makeDeal({ id: 4 }));
    queryClient.setQueryData(messageKeys.ofDeal(4), { pages: [], pageParams: [] });

    handlers['deal-updated'](dealEvent({ id: 4 }, 'deleted'));
    expect(idsIn(queryClient.getQueryData(dealQueryKeys.list('')))).toEqual([3]);
    expect(queryClient.getQueryData(dealQueryKeys.mine())).toEqual([]);
    expect(queryClient.getQueryData(dealQueryKeys.dealmaker())).toEqual([]);
    // Nobody looks at it: the cached copy is dropped rather than reloaded.
    expect(queryClient.getQueryData(dealQueryKeys.detail(4))).toBeUndefined();
    expect(queryClient.getQueryData(messageKeys.ofDeal(4))).toBeUndefined();
  });

  it("left: the counterpart is gone everywhere, the viewer's own bid is kept", () => {
    const before = makeDeal({ id: 4, dealer_joined: 'bob', my_bid: { id: 70, price: 900 } });
    queryClient.setQueryData(dealQueryKeys.list(''), listOf(before));
    queryClient.setQueryData(dealQueryKeys.detail(4), before);

    // Broadcasts carry public fields only: my_bid is always null in them.
    handlers['deal-updated'](dealEvent({ ...before, dealer_joined: null, my_bid: null }, 'left'));
    const inList = queryClient.getQueryData<DealListData>(dealQueryKeys.list(''))?.pages[0]?.deals[0];
    expect(inList).toMatchObject({ dealer_joined: null, my_bid: { id: 70, price: 900 } });
    expect(queryClient.getQueryData<Deal>(dealQueryKeys.detail(4))).toMatchObject({
      dealer_joined: null,
      my_bid: { id: 70, price: 900 },
    });
  });

  it('left by the viewer in another tab: the deal leaves their My Deals', () => {
    const before = makeDeal({ id: 4, dealer_joined: 'dave' });
    queryClient.setQueryData<Deal[]>(dealQueryKeys.mine(), [before]);
    handlers['deal-updated'](dealEvent({ ...before, dealer_joined: null }, 'left'));
    expect(queryClient.getQueryData(dealQueryKeys.mine())).toEqual([]);
  });

  it('finalized: the new dealmaker gets it in the dealmaker panel; bids, requests and escrow reload', () => {
    queryClient.setQueryData<Deal[]>(dealQueryKeys.dealmaker(), []);
    queryClient.setQueryData(dealQueryKeys.bids(4), []);
    queryClient.setQueryData(dealmakerRequestKeys.ofDeal(4), []);
    queryClient.setQueryData(escrowQueryKey(4), null);

    handlers['deal-updated'](
      dealEvent(makeDeal({ id: 4, dealer_joined: 'bob', dealmaker: 'dave' }), 'finalized'),
    );
    expect(queryClient.getQueryData<Deal[]>(dealQueryKeys.dealmaker())?.map((d) => d.id)).toEqual([4]);
    expect(invalidated(dealQueryKeys.bids(4))).toBe(true);
    expect(invalidated(dealmakerRequestKeys.ofDeal(4))).toBe(true);
    expect(invalidated(escrowQueryKey(4))).toBe(true);
  });
});

describe('bid-updated', () => {
  it("reloads the deal's bids and the deal", () => {
    queryClient.setQueryData(dealQueryKeys.detail(4), makeDeal({ id: 4 }));
    queryClient.setQueryData(dealQueryKeys.bids(4), []);
    handlers['bid-updated']({ dealId: 4, data: { id: 70 }, updateType: 'selected' });
    expect(invalidated(dealQueryKeys.bids(4))).toBe(true);
    expect(invalidated(dealQueryKeys.detail(4))).toBe(true);
  });

  it("keeps the viewer's own bid in step when they bid or delete it in another tab", () => {
    queryClient.setQueryData(dealQueryKeys.list(''), listOf(makeDeal({ id: 4 })));
    const bid = { id: 70, dealId: 4, dealmaker: 'dave', price: 900, timestamp: '2025-01-01T00:00:00.000Z' };
    handlers['bid-updated']({ dealId: 4, data: bid, updateType: 'created' });
    const deal = () => queryClient.getQueryData<DealListData>(dealQueryKeys.list(''))?.pages[0]?.deals[0];
    expect(deal()?.my_bid).toEqual({ id: 70, price: 900 });

    handlers['bid-updated']({ dealId: 4, data: { id: 71 }, updateType: 'deleted' });
    expect(deal()?.my_bid).toEqual({ id: 70, price: 900 });
    handlers['bid-updated']({ dealId: 4, data: { id: 70 }, updateType: 'deleted' });
    expect(deal()?.my_bid).toBeNull();
  });

  it("leaves someone else's bid out of the viewer's own", () => {
    queryClient.setQueryData(dealQueryKeys.detail(4), makeDeal({ id: 4 }));
    const bid = { id: 70, dealId: 4, dealmaker: 'erin', price: 900, timestamp: '2025-01-01T00:00:00.000Z' };
    handlers['bid-updated']({ dealId: 4, data: bid, updateType: 'created' });
    expect(queryClient.getQueryData<Deal>(dealQueryKeys.detail(4))?.my_bid).toBeNull();
  });
});

describe('other deal events', () => {
  it('dealmaker-request-updated reloads the sent and the incoming requests', () => {
    queryClient.setQueryData(dealmakerRequestKeys.ofDeal(4), []);
    queryClient.setQueryData(dealmakerRequestKeys.incoming(), []);
    handlers['dealmaker-request-updated']({ dealId: 4, data: { id: 1 }, updateType: 'accepted' });
    expect(invalidated(dealmakerRequestKeys.ofDeal(4))).toBe(true);
    expect(invalidated(dealmakerRequestKeys.incoming())).toBe(true);
  });

  it('escrow-updated shows the new escrow at once and reloads it, the deal and the wallet', async () => {
    const deal = makeDeal({ id: 4, dealer_joined: 'dave', dealmaker: 'erin', escrow_paid: true });
    fetchMock.mockResolvedValue(new Response(JSON.stringify(deal), { status: 200 }));
    const status: EscrowStatusResponse = { escrowExists: true, escrow: null, deal, expiresAt: null };
    queryClient.setQueryData(escrowQueryKey(4), status);
    queryClient.setQueryData(milestonesQueryKey(4), {
      milestones: [],
      proposals: [],
      canPlan: false,
      released: 0,
    });
    queryClient.setQueryData(walletKeys.summary(), { balance: 1, totalDeposited: 1, totalWithdrawn: 0 });
    queryClient.setQueryData(walletKeys.transactions(), { pages: [], pageParams: [] });
    queryClient.setQueryData<Deal[]>(dealQueryKeys.mine(), [{ ...deal, escrow_paid: false }]);

    const escrow = {
      amount: 100,
      status: 'pending' as const,
      creatorPaid: true,
      counterpartPaid: false,
      creatorAmount: 50,
      counterpartAmount: 50,
      expiresAt: null,
    };
    handlers['escrow-updated']({ dealId: 4, data: escrow, updateType: 'updated' });
    expect(queryClient.getQueryData<EscrowStatusResponse>(escrowQueryKey(4))?.escrow).toEqual(escrow);
    expect(invalidated(escrowQueryKey(4))).toBe(true);
    // A settlement moves the milestones without a milestone event of its own.
    expect(invalidated(milestonesQueryKey(4))).toBe(true);
    expect(invalidated(walletKeys.summary())).toBe(true);
    expect(invalidated(walletKeys.transactions())).toBe(true);
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/deals/4');
    await vi.waitFor(() =>
      expect(queryClient.getQueryData<Deal[]>(dealQueryKeys.mine())?.[0]?.escrow_paid).toBe(true),
    );
  });

  it("progress-updated and dispute-updated reload that deal's lists", () => {
    queryClient.setQueryData(progressQueryKey(4), []);
    queryClient.setQueryData(disputesQueryKey(4), []);
    queryClient.setQueryData(progressQueryKey(5), []);
    const item = { id: 1, dealId: 4 } as ServerEvents['progress-updated']['data'];
    handlers['progress-updated']({
      dealId: 4,
      data: item,
      updateType: 'created',
      progressData: makeDeal({ id: 4 }),
    });
    const dispute = { id: 1, dealId: 4 } as ServerEvents['dispute-updated']['data'];
    handlers['dispute-updated']({ dealId: 4, data: dispute, updateType: 'created' });
    expect(invalidated(progressQueryKey(4))).toBe(true);
    expect(invalidated(disputesQueryKey(4))).toBe(true);
    expect(invalidated(progressQueryKey(5))).toBe(false);
  });
});

describe('message-updated', () => {
  const message = (id: number, senderId: number): Message => ({
    id,
    dealId: 4,
    content: 'Hello',
    createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, id)).toISOString(),
    senderId,
    sender: { id: senderId, username: `user${senderId}`, full_name: '' },
    senderUsername: `user${senderId}`,
    clientId: null,
  });
  const history = (): MessagePages => ({
    pages: [{ messages: [message(1, 2)], hasMore: false }],
    pageParams: [undefined],
  });
  const shown = () =>
    queryClient
      .getQueryData<MessagePages>(messageKeys.ofDeal(4))
      ?.pages.flatMap((page) => page.messages.map((m) => m.id));

  it("adds someone else's message to the deal's history once", () => {
    queryClient.setQueryData(messageKeys.ofDeal(4), history());
    const event = { dealId: 4, messageData: message(2, 3), updateType: 'sent' as const };
    handlers['message-updated'](event);
    handlers['message-updated'](event);
    expect(shown()).toEqual([1, 2]);
  });

  it("ignores the viewer's own messages", () => {
    queryClient.setQueryData(messageKeys.ofDeal(4), history());
    handlers['message-updated']({ dealId: 4, messageData: message(2, 9), updateType: 'sent' });
    expect(shown()).toEqual([1]);
  });

  it("counts someone else's message on the deal's unread badge, not the viewer's own", () => {
    queryClient.setQueryData(messageKeys.unread(), { deals: [] });
    handlers['message-updated']({ dealId: 4, messageData: message(2, 9), updateType: 'sent' });
    expect(invalidated(messageKeys.unread())).toBe(false);
    handlers['message-updated']({ dealId: 4, messageData: message(3, 3), updateType: 'sent' });
    expect(invalidated(messageKeys.unread())).toBe(true);
  });
});

describe('messages-read', () => {
  it('moves the reader’s mark forward at once, so "Seen by" follows', () => {
    queryClient.setQueryData(messageKeys.readsOfDeal(4), [{ userId: 3, username: 'erin', lastReadId: 2 }]);
    handlers['messages-read']({ dealId: 4, userId: 3, username: 'erin', lastReadId: 7 });
    expect(queryClient.getQueryData(messageKeys.readsOfDeal(4))).toEqual([
      { userId: 3, username: 'erin', lastReadId: 7 },
    ]);
    handlers['messages-read']({ dealId: 4, userId: 3, username: 'erin', lastReadId: 5 });
    expect(queryClient.getQueryData(messageKeys.readsOfDeal(4))).toEqual([
      { userId: 3, username: 'erin', lastReadId: 7 },
    ]);
  });
});

describe('notification', () => {
  const notice = (fields: Pick<NotificationEvent, 'message' | 'kind'>): NotificationEvent => ({
    id: 1,
    dealId: 4,
    count: 1,
    createdAt: '2025-01-01T00:00:00.000Z',
    unreadCount: 1,
    ...fields,
  });

  it('shows a toast for 3 seconds, and reloads the wallet when money moved', () => {
    queryClient.setQueryData(walletKeys.summary(), { balance: 1, totalDeposited: 1, totalWithdrawn: 0 });
    handlers.notification(notice({ message: 'Someone joined your deal.', kind: 'deal-joined' }));
    expect(toast).toHaveBeenCalledWith('Someone joined your deal.', { duration: 3000 });
    expect(invalidated(walletKeys.summary())).toBe(false);

    handlers.notification(notice({ message: 'You received $10.00.', kind: 'payment-received' }));
    expect(invalidated(walletKeys.summary())).toBe(true);
  });

  it('sets the bell’s count from the event, and reloads the open list', () => {
    queryClient.setQueryData(notificationKeys.unreadCount(), 2);
    queryClient.setQueryData(notificationKeys.list(), { pages: [], pageParams: [] });
    handlers.notification({ ...notice({ message: 'Hi', kind: 'message' }), unreadCount: 5 });
    expect(queryClient.getQueryData(notificationKeys.unreadCount())).toBe(5);
    expect(invalidated(notificationKeys.list())).toBe(true);
  });
});

describe('discovery', () => {
  const notice = (fields: Pick<NotificationEvent, 'message' | 'kind' | 'dealId'>): NotificationEvent => ({
    id: 1,
    count: 1,
    createdAt: '2025-01-01T00:00:00.000Z',
    unreadCount: 1,
    ...fields,
  });
  const myBid = (id: number, dealId: number) => ({
    id,
    price: 10,
    proposal: null,
    deliveryDays: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    deal: { id: dealId, title: 'Deal', status: 'open', budget: 100 },
    selectedByCreator: false,
    selectedByCounterpart: false,
    outcome: 'pending',
  });

  it('raises no toast for a message of the chat in front of the viewer, and one for any other chat', () => {
    handlers.notification(notice({ message: 'New message on deal 8', kind: 'message', dealId: 8 }));
    expect(toast).not.toHaveBeenCalled();
    handlers.notification(notice({ message: 'New message on deal 9', kind: 'message', dealId: 9 }));
    expect(toast).toHaveBeenCalledWith('New message on deal 9', { duration: 3000 });
    // Only chat messages are left out: other news about that deal still shows.
    handlers.notification(notice({ message: 'Someone joined', kind: 'deal-joined', dealId: 8 }));
    expect(toast).toHaveBeenCalledWith('Someone joined', { duration: 3000 });
  });

  it('asks the saved searches again on a new match, with its toast', () => {
    queryClient.setQueryData(savedSearchKeys.all, []);
    handlers.notification(
      notice({ message: 'A new deal matches “tea”', kind: 'saved-search-match', dealId: 12 }),
    );
    expect(invalidated(savedSearchKeys.all)).toBe(true);
    expect(toast).toHaveBeenCalledWith('A new deal matches “tea”', { duration: 3000 });
  });

  it('asks My Bids again when an event concerns one of its deals, and only then', () => {
    queryClient.setQueryData(myBidKeys.all, { pages: [[myBid(1, 5)]], pageParams: [undefined] });
    handlers['deal-updated'](dealEvent(makeDeal({ id: 6 }), 'updated'));
    expect(invalidated(myBidKeys.all)).toBe(false);
    handlers['deal-updated'](dealEvent(makeDeal({ id: 5, dealer_joined: 'bob' }), 'finalized'));
    expect(invalidated(myBidKeys.all)).toBe(true);

    queryClient.setQueryData(myBidKeys.all, { pages: [[myBid(1, 5)]], pageParams: [undefined] });
    handlers['bid-updated']({ dealId: 5, data: { id: 1, dealFinalized: false }, updateType: 'selected' });
    expect(invalidated(myBidKeys.all)).toBe(true);

    queryClient.setQueryData(myBidKeys.all, { pages: [[myBid(1, 5)]], pageParams: [undefined] });
    handlers.notification(notice({ message: 'Your bid was selected', kind: 'bid-selected', dealId: 5 }));
    expect(invalidated(myBidKeys.all)).toBe(true);
  });

  it('counts the searches on screen again when a deal changes', () => {
    const key = dealQueryKeys.count({ q: 'tea', status: [] });
    queryClient.setQueryData(key, { count: 1, more: false });
    handlers['deal-updated'](dealEvent(makeDeal({ id: 6 }), 'created'));
    expect(invalidated(key)).toBe(true);
  });
});

describe('attachLiveUpdates', () => {
  it('listens to every event, and stops listening when detached', () => {
    const listeners = new Map<string, unknown>();
    const socket = {
      on: (event: string, listener: unknown) => listeners.set(event, listener),
      off: (event: string, listener: unknown) => {
        if (listeners.get(event) === listener) listeners.delete(event);
      },
    } as unknown as RealtimeSocket;
    const detach = attachLiveUpdates(socket, handlers);
    expect([...listeners.keys()].sort()).toEqual(Object.keys(handlers).sort());
    expect(listeners.get('deal-updated')).toBe(handlers['deal-updated']);
    detach();
    expect(listeners.size).toBe(0);
  });
});
