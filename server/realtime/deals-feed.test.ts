import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Deal } from '../../contract/deals';
import type { ServerEvents } from '../../contract/realtime';
import { createDeal, joinDeal, signUpMany } from '../test/deal-fixtures';
import { type SignedUpUser, startTestServer, type TestServer } from '../test/harness';
import { quietPeriod, type TestClient, TestClients } from '../test/socket-client';

/**
 * Who hears of deal changes (docs/decisions/0030-deal-feeds.md): a client that says `feeds: true` in its
 * handshake hears only what it subscribed to (the deals feed, coalesced; the deals it watches, at once);
 * one that does not (the original client) hears every deal-updated.
 */

let server: TestServer;
let clients: TestClients;
let alice: SignedUpUser;
let bob: SignedUpUser;
let carol: SignedUpUser;

beforeAll(async () => {
  server = await startTestServer({
    config: {
      // Twenty deals at once, and their events, stay within the limits on purpose.
      socketEventLimits: {
        perSocket: { burst: 1_000, perSecond: 1_000 },
        perUser: { burst: 1_000, perSecond: 1_000 },
      },
      ...(process.env.REDIS_URL
        ? { redisUrl: process.env.REDIS_URL, redisPrefix: `dealmaker-test-${randomUUID()}` }
        : {}),
    },
  });
  clients = new TestClients(server.url);
  [alice, bob, carol] = await signUpMany(server, 3);
});
afterEach(() => clients.closeAll());
afterAll(() => server.close());

/** A connected tab of the web app: it says it understands feeds. */
const feedClient = (user: SignedUpUser) =>
  clients.create({ auth: { token: user.token, feeds: true } }).connect();

async function subscribe(client: TestClient) {
  expect(await client.socket.timeout(5_000).emitWithAck('deals-feed:subscribe')).toEqual({ ok: true });
}

async function watch(client: TestClient, dealId: number | string) {
  return client.socket.timeout(5_000).emitWithAck('watch-deal', dealId);
}

async function edit(user: SignedUpUser, dealId: number, title: string) {
  const response = await server.patch<Deal>(`/api/deals/${dealId}`, { token: user.token, body: { title } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

const changedIds = (messages: Array<ServerEvents['deals-feed']>) =>
  messages.flatMap((message) => message.changes.map((change) => change.dealId));

describe('deal changes and feeds', () => {
  it('tells a feed-aware tab that subscribed to nothing of no deal, whoever changes it', async () => {
    const tab = await feedClient(carol);
    const deal = await createDeal(server, alice);
    await joinDeal(server, bob, deal.id);
    await edit(alice, deal.id, 'Another title');
    expect((await server.delete(`/api/deals/delete-deal/${deal.id}`, { token: alice.token })).status).toBe(
      200,
    );
    // The feed's second would have passed.
    await quietPeriod(1_300);
    expect(tab.all('deal-updated')).toEqual([]);
    expect(tab.all('deals-feed')).toEqual([]);
  });

  it('gives a feed subscriber a burst of 20 changes in at most two messages, each deal once in its latest state', async () => {
    const tab = await feedClient(carol);
    await subscribe(tab);
    const original = await feedClient(carol);
    const deals = await Promise.all(Array.from({ length: 10 }, () => createDeal(server, alice)));
    await Promise.all(deals.map((deal, i) => edit(alice, deal.id, `Edited deal ${i}`)));

    const ids = deals.map((deal) => deal.id);
    await expect.poll(() => new Set(changedIds(tab.all('deals-feed'))).size, { timeout: 5_000 }).toBe(10);
    await quietPeriod(1_300);
    const messages = tab.all('deals-feed');
    expect(messages.length).toBeGreaterThanOrEqual(1);
    expect(messages.length).toBeLessThanOrEqual(2);
    // Each message holds a deal once; the last word on each deal is its edit.
    for (const message of messages) {
      const inMessage = message.changes.map((change) => change.dealId);
      expect(new Set(inMessage).size).toBe(inMessage.length);
    }
    const latest = new Map(messages.flatMap((message) => message.changes.map((c) => [c.dealId, c] as const)));
    expect([...latest.keys()].sort()).toEqual([...ids].sort());
    for (const [i, deal] of deals.entries()) {
      expect(latest.get(deal.id)).toMatchObject({
        dealId: deal.id,
        updateType: 'updated',
        data: { id: deal.id, title: `Edited deal ${i}`, my_bid: null },
      });
    }
    // Messages of the feed are at least a second apart.
    const times = tab.received.filter((entry) => entry.event === 'deals-feed').map((entry) => entry.at);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(950);
    // The same tab is not the original client: no deal-updated at all.
    expect(tab.all('deal-updated')).toEqual([]);
    // A feed-aware tab that did not subscribe heard nothing of them either.
    expect(original.all('deals-feed')).toEqual([]);
  });

  it('gives the original client (no feed handshake) every deal-updated at once, as before', async () => {
    const original = await clients.connect(carol.token);
    const deal = await createDeal(server, alice);
    await joinDeal(server, bob, deal.id);
    await edit(alice, deal.id, 'Edited once');
    await original.waitFor('deal-updated', (e) => e.dealId === deal.id && e.updateType === 'updated');
    expect(original.all('deal-updated', (e) => e.dealId === deal.id).map((e) => e.updateType)).toEqual([
      'created',
      'joined',
      'updated',
    ]);
    expect(original.all('deals-feed')).toEqual([]);
  });

  it('stops the feed when the tab unsubscribes', async () => {
    const tab = await feedClient(carol);
    await subscribe(tab);
    const first = await createDeal(server, alice);
    await tab.waitFor('deals-feed', (message) => changedIds([message]).includes(first.id), 3_000);
    tab.emitRaw('deals-feed:unsubscribe');
    await quietPeriod();
    tab.clear();
    await createDeal(server, alice);
    await quietPeriod(1_300);
    expect(tab.all('deals-feed')).toEqual([]);
  });

  it('tells a tab watching a deal of that deal at once, and of no other, until it stops watching', async () => {
    const watched = await createDeal(server, alice);
    const other = await createDeal(server, alice);
    const tab = await feedClient(carol);
    expect(await watch(tab, watched.id)).toEqual({ ok: true });
    expect(await watch(tab, 'not a deal')).toEqual({ ok: false, message: 'Invalid deal id.' });

    await edit(alice, other.id, 'Not watched');
    await edit(alice, watched.id, 'Watched');
    const event = await tab.waitFor('deal-updated', (e) => e.dealId === watched.id, 1_000);
    expect(event).toMatchObject({ dealId: watched.id, updateType: 'updated', data: { title: 'Watched' } });
    await quietPeriod();
    expect(tab.all('deal-updated').map((e) => e.dealId)).toEqual([watched.id]);

    tab.emitRaw('unwatch-deal', watched.id);
    await quietPeriod();
    await edit(alice, watched.id, 'No longer watched');
    await quietPeriod();
    expect(tab.all('deal-updated').map((e) => e.dealId)).toEqual([watched.id]);
  });

  it('keeps at most 20 watched deals per socket, letting the oldest go', async () => {
    const deals = await Promise.all(Array.from({ length: 21 }, () => createDeal(server, alice)));
    const tab = await feedClient(carol);
    for (const deal of deals) expect(await watch(tab, deal.id)).toEqual({ ok: true });
    await edit(alice, deals[0]!.id, 'Oldest, let go');
    await edit(alice, deals[20]!.id, 'Newest, watched');
    await tab.waitFor('deal-updated', (e) => e.dealId === deals[20]!.id);
    await quietPeriod();
    expect(tab.all('deal-updated').map((e) => e.dealId)).toEqual([deals[20]!.id]);
  });
});
