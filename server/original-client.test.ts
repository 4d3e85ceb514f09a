/**
 * The server as the original system's own React client uses it: money as
 * numeric strings, event objects read under dealData / bidData / requestData /
 * escrowData / progressData, the select-bid answer read as `response.deal`,
 * and a deal room left and joined again on every render while the other
 * dealer is typing. Written from the shapes that client reads.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ServerEvents } from '../contract/realtime';
import { signUpMany } from './test/deal-fixtures';
import { type SignedUpUser, startTestServer, type TestServer } from './test/harness';
import { TestClients } from './test/socket-client';

let server: TestServer;
let clients: TestClients;
let creator: SignedUpUser;
let counterpart: SignedUpUser;
let bidder: SignedUpUser;
let requested: SignedUpUser;

const rejoinGrace = 600;

beforeAll(async () => {
  server = await startTestServer({ config: { typingTimeoutMs: 5_000, typingRejoinGraceMs: rejoinGrace } });
  clients = new TestClients(server.url);
  [creator, counterpart, bidder, requested] = await signUpMany(server, 4);
});
afterEach(() => clients.closeAll());
afterAll(() => server.close());

/** The original client's payloads: the object under its own name beside `data`. */
type Named<K extends string> = { dealId: number; updateType: string; data: { id: number } } & Record<
  K,
  Record<string, unknown> & { id: number }
>;

async function depositAsString(user: SignedUpUser, amount: string) {
  const response = await server.post('/api/wallet/deposit', { token: user.token, body: { amount } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

describe('the original client against this server', () => {
  it('creates a deal and bids with money as strings, and reads dealData and bidData from the live events', async () => {
    const watcher = await clients.connect(counterpart.token);
    const created = await server.post('/api/deals/create-deal', {
      token: creator.token,
      body: {
        title: 'Original client deal',
        description: 'From the old app',
        budget: '2000',
        timeline: '2 weeks',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.budget).toBe(2000);
    const dealId = created.body.id as number;

    const dealEvent = (await watcher.waitFor(
      'deal-updated',
      (e) => e.dealId === dealId && e.updateType === 'created',
    )) as unknown as Named<'dealData'>;
    // "Cannot read properties of undefined (reading 'id')" was this line of the old client.
    expect(dealEvent.dealData.id).toBe(dealId);
    expect(dealEvent.dealData).toEqual(dealEvent.data);

    expect(
      (await server.put(`/api/deals/join-deal-as-dealer/${dealId}`, { token: counterpart.token })).status,
    ).toBe(200);
    const bid = await server.post('/api/bidding/create', {
      token: bidder.token,
      body: { dealId, price: '1700' },
    });
    expect(bid.status).toBe(201);
    expect(bid.body.price).toBe(1700);
    const bidEvent = (await watcher.waitFor(
      'bid-updated',
      (e) => e.dealId === dealId && e.updateType === 'created',
    )) as unknown as Named<'bidData'>;
    expect(bidEvent.bidData).toEqual(bidEvent.data);
    expect(bidEvent.bidData.price).toBe(1700);

    const updatedBid = await server.put(`/api/bidding/${bid.body.id}`, {
      token: bidder.token,
      body: { price: '1650.5' },
    });
    expect(updatedBid.body.price).toBe(1650.5);

    // Both dealers select it: the old client reads response.deal, and bidData's finalization fields.
    const byCreator = await server.put(`/api/bid-management/select-bid/${dealId}/${bid.body.id}`, {
      token: creator.token,
    });
    expect(byCreator.body.deal.selected_bid_by_creator).toBe(bid.body.id);
    const byCounterpart = await server.put(`/api/bid-management/select-bid/${dealId}/${bid.body.id}`, {
      token: counterpart.token,
    });
    expect(byCounterpart.status).toBe(200);
    expect(byCounterpart.body.deal).toMatchObject({ id: dealId, dealmaker: bidder.username, budget: 1650.5 });
    const selection = (await watcher.waitFor(
      'bid-updated',
      (e) =>
        e.dealId === dealId &&
        e.updateType === 'selected' &&
        (e.data as { dealFinalized?: boolean }).dealFinalized === true,
    )) as unknown as Named<'bidData'>;
    expect(selection.bidData).toEqual({
      id: bid.body.id,
      dealFinalized: true,
      finalDealmaker: bidder.username,
      finalPrice: 1650.5,
    });
    const notFinalizing = (
      watcher.all(
        'bid-updated',
        (e) => e.dealId === dealId && e.updateType === 'selected',
      ) as unknown as Array<Named<'bidData'>>
    )[0]!;
    expect(notFinalizing.bidData).toEqual({ id: bid.body.id, dealFinalized: false });
  });

  it('deposits, withdraws and pays escrow with string amounts, and reads escrowData, progressData and requestData', async () => {
    await depositAsString(creator, '5000');
    const withdrawn = await server.post('/api/wallet/withdraw', {
      token: creator.token,
      body: { amount: '100.25' },
    });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.wallet.balance).toBe(4899.75);
    await depositAsString(counterpart, '5000.50');

    const deal = await server.post('/api/deals/create-deal', {
      token: creator.token,
      body: { title: 'Requested deal', description: 'Asked directly', budget: '1000.01', timeline: 'soon' },
    });
    const dealId = deal.body.id as number;
    await server.put(`/api/deals/join-deal-as-dealer/${dealId}`, { token: counterpart.token });
    const watcher = await clients.connect(creator.token);
    const sent = await server.post('/api/request-dealmaker/send-request', {
      token: creator.token,
      body: { dealId, receiverUsername: requested.username, message: 'Please' },
    });
    expect(sent.status).toBe(201);
    const requestEvent = (await watcher.waitFor(
      'dealmaker-request-updated',
      (e) => e.dealId === dealId && e.updateType === 'created',
    )) as unknown as Named<'requestData'>;
    expect(requestEvent.requestData).toEqual(requestEvent.data);
    expect(requestEvent.requestData.id).toBe(sent.body.id);
    const accepting = await clients.connect(requested.token);
    expect(
      (await server.post(`/api/request-dealmaker/accept/${sent.body.id}`, { token: requested.token })).status,
    ).toBe(200);
    // The old client sets requestData.dealmaker on the deal in its list: "Bid as Dealmaker" goes at once.
    for (const socket of [watcher, accepting]) {
      const accepted = (await socket.waitFor(
        'dealmaker-request-updated',
        (e) => e.dealId === dealId && e.updateType === 'accepted',
      )) as unknown as Named<'requestData'>;
      expect(accepted.requestData).toEqual({ id: sent.body.id, dealmaker: requested.username });
      expect(accepted.data).toEqual(accepted.requestData);
    }

    expect((await server.post(`/api/wallet/escrow/${dealId}/lock`, { token: creator.token })).status).toBe(
      200,
    );
    const escrowEvent = (await watcher.waitFor(
      'escrow-updated',
      (e) => e.dealId === dealId,
    )) as unknown as Named<'escrowData'>;
    expect(escrowEvent.escrowData).toEqual(escrowEvent.data);
    expect(escrowEvent.escrowData).toMatchObject({
      amount: 1000.01,
      creatorPaid: true,
      creatorAmount: 500.01,
    });

    const item = await server.post('/api/progress', {
      token: requested.token,
      body: { dealId, title: 'Kick-off', description: '' },
    });
    expect(item.status).toBe(201);
    const progressEvent = (await watcher.waitFor(
      'progress-updated',
      (e) => e.dealId === dealId,
    )) as unknown as Named<'progressData'>;
    expect(progressEvent.data).toEqual(item.body);
    // The old client merges progressData into the deal it shows: the deal itself, never the item
    // (whose id took the deal's place and sent the dealmaker's next call to another deal).
    const shown = (await server.get(`/api/deals/${dealId}`, { token: creator.token })).body;
    const { can: _can, ...publicFields } = shown;
    expect(progressEvent.progressData).toEqual({ ...publicFields, my_bid: null });
    expect(progressEvent.progressData.id).toBe(dealId);
  });

  it('keeps the typing indicator while the other dealer leaves and rejoins the room on every render', async () => {
    const deal = await server.post('/api/deals/create-deal', {
      token: creator.token,
      body: { title: 'Typing deal', description: 'd', budget: 10, timeline: 't' },
    });
    const dealId = deal.body.id as number;
    await server.put(`/api/deals/join-deal-as-dealer/${dealId}`, { token: counterpart.token });
    const watcher = await clients.connect(counterpart.token);
    expect(await watcher.joinDeal(dealId)).toEqual({ ok: true });
    const typist = await clients.connect(creator.token);
    expect(await typist.joinDeal(dealId)).toEqual({ ok: true });
    const ofCreator = (isTyping: boolean) => (e: ServerEvents['typing-updated']) =>
      e.dealId === dealId && e.userInfo.username === creator.username && e.isTyping === isTyping;

    typist.emitRaw('user-typing-start', { dealId, userInfo: { id: 0, username: 'x', full_name: 'x' } });
    await watcher.waitFor('typing-updated', ofCreator(true));
    // Three re-renders: leave and join again each time.
    for (let render = 0; render < 3; render++) {
      typist.emitRaw('leave-deal-room', String(dealId));
      expect(await typist.joinDeal(String(dealId))).toEqual({ ok: true });
      await sleep(100);
    }
    await sleep(rejoinGrace + 200);
    expect(watcher.all('typing-updated', ofCreator(false))).toEqual([]);
    typist.emitRaw('user-typing-stop', { dealId });
    await watcher.waitFor('typing-updated', ofCreator(false), 1_000);
    expect(watcher.all('typing-updated', (e) => e.dealId === dealId).map((e) => e.isTyping)).toEqual([
      true,
      false,
    ]);
  });
});
