import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../contract/messages';
import type { ServerEvents } from '../../contract/realtime';
import type { Database } from '../db/client';
import { assignDealmakerByRequest, createDeal, joinDeal } from '../test/deal-fixtures';
import { type SignedUpUser, signUp, startTestServer, type TestServer } from '../test/harness';
import { quietPeriod, TestClients } from '../test/socket-client';
import { createTestDatabase } from '../test/test-database';

const typingTimeout = 2_000;
/** Typing ended by leave, eviction or shutdown arrives well before it could have expired by itself. */
const soonerThanExpiry = typingTimeout / 2;

/**
 * Two server instances in this process, sharing one PostgreSQL database and one
 * Redis, as several instances behind a load balancer do. The adapter needs a
 * Redis, so this file runs only when REDIS_URL is set: CI's second server run
 * sets it (.ci/run, "Server suite again on PostgreSQL and Redis").
 */
describe.skipIf(!process.env.REDIS_URL)('two instances sharing PostgreSQL and Redis', () => {
  let database: Database & { url: string };
  let one: TestServer;
  let two: TestServer | undefined;
  let clients: TestClients;
  let alice: SignedUpUser;
  let bob: SignedUpUser;
  let mia: SignedUpUser;

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = {
      redisUrl: process.env.REDIS_URL,
      // A prefix of their own: other test files on the same Redis never reach these servers.
      redisPrefix: `dealmaker-test-${randomUUID()}`,
      typingTimeoutMs: typingTimeout,
    };
    // Both start at once and agree on the JWT secret stored in the shared database.
    [one, two] = await Promise.all([
      startTestServer({ database, keepDatabase: true, config }),
      startTestServer({ database, keepDatabase: true, config }),
    ]);
    clients = new TestClients(one.url);
    alice = await signUp(one);
    bob = await signUp(two);
    mia = await signUp(one);
  });
  afterEach(() => clients.closeAll());
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await database?.close();
  });

  const instanceTwo = () => {
    if (!two) throw new Error('instance two is closed');
    return two;
  };
  const userId = (user: SignedUpUser) => user.user.id as number;
  const typingOf =
    (dealId: number, user: SignedUpUser, isTyping: boolean) => (payload: ServerEvents['typing-updated']) =>
      payload.dealId === dealId && payload.userInfo.id === userId(user) && payload.isTyping === isTyping;

  async function sendThrough(server: TestServer, user: SignedUpUser, dealId: number, content: string) {
    const response = await server.post<Message>('/api/messages/send', {
      token: user.token,
      body: { dealId, content },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body;
  }

  async function inRoom(server: TestServer, user: SignedUpUser, dealId: number) {
    const client = await clients.connect(user.token, server.url);
    expect(await client.joinDeal(dealId)).toEqual({ ok: true });
    return client;
  }

  it('accepts on each instance the tokens the other one issued', async () => {
    expect((await clients.connect(alice.token, instanceTwo().url)).connected).toBe(true);
    expect((await clients.connect(bob.token, one.url)).connected).toBe(true);
  });

  it('carries deal updates, notifications, messages and typing between the instances', async () => {
    const a = await clients.connect(alice.token, one.url);
    const b = await clients.connect(bob.token, instanceTwo().url);

    const deal = await createDeal(one, alice);
    for (const client of [a, b]) {
      await client.waitFor('deal-updated', (e) => e.dealId === deal.id && e.updateType === 'created');
    }
    await joinDeal(instanceTwo(), bob, deal.id);
    await a.waitFor('deal-updated', (e) => e.dealId === deal.id && e.updateType === 'joined');
    await a.waitFor('notification', (e) => e.dealId === deal.id && e.kind === 'deal-joined');
    expect(await a.joinDeal(deal.id)).toEqual({ ok: true });
    expect(await b.joinDeal(deal.id)).toEqual({ ok: true });

    const fromAlice = await sendThrough(one, alice, deal.id, 'Sent on instance one');
    const fromBob = await sendThrough(instanceTwo(), bob, deal.id, 'Sent on instance two');
    for (const client of [a, b]) {
      for (const message of [fromAlice, fromBob]) {
        expect(await client.waitFor('message-updated', (e) => e.messageData.id === message.id)).toEqual({
          dealId: deal.id,
          messageData: message,
          updateType: 'sent',
        });
      }
    }

    a.emitRaw('user-typing-start', { dealId: deal.id });
    expect(await b.waitFor('typing-updated', typingOf(deal.id, alice, true))).toEqual({
      dealId: deal.id,
      userInfo: { id: userId(alice), username: alice.username, full_name: alice.full_name },
      isTyping: true,
    });
    a.emitRaw('user-typing-stop', { dealId: deal.id });
    await b.waitFor('typing-updated', typingOf(deal.id, alice, false), soonerThanExpiry);
    b.emitRaw('user-typing-start', { dealId: deal.id });
    await a.waitFor('typing-updated', typingOf(deal.id, bob, true));

    await quietPeriod();
    for (const client of [a, b]) {
      expect(client.all('message-updated')).toHaveLength(2);
      expect(client.all('deal-updated', (e) => e.dealId === deal.id).map((e) => e.updateType)).toEqual([
        'created',
        'joined',
      ]);
    }
    // Bob is told of Alice's message (one notification for her burst), never of his own join.
    expect(b.all('notification', (e) => e.dealId === deal.id).map((e) => e.kind)).toEqual(['message']);
    expect(a.all('notification', (e) => e.dealId === deal.id).map((e) => e.kind)).toEqual([
      'deal-joined',
      'message',
    ]);
  });

  it('gives feed subscribers and watchers on one instance the deals changed on the other', async () => {
    const tab = await clients.create({ auth: { token: mia.token, feeds: true } }, one.url).connect();
    expect(await tab.socket.timeout(5_000).emitWithAck('deals-feed:subscribe')).toEqual({ ok: true });
    const watcher = await clients.create({ auth: { token: mia.token, feeds: true } }, one.url).connect();
    const deal = await createDeal(instanceTwo(), bob);
    expect(await watcher.socket.timeout(5_000).emitWithAck('watch-deal', deal.id)).toEqual({ ok: true });

    const feed = await tab.waitFor('deals-feed', (message) =>
      message.changes.some((c) => c.dealId === deal.id),
    );
    expect(feed.changes.find((change) => change.dealId === deal.id)).toMatchObject({ updateType: 'created' });
    await joinDeal(instanceTwo(), alice, deal.id);
    const joined = await watcher.waitFor('deal-updated', (e) => e.dealId === deal.id);
    expect(joined).toMatchObject({
      dealId: deal.id,
      updateType: 'joined',
      data: { dealer_joined: alice.username },
    });
    await tab.waitFor('deals-feed', (message) =>
      message.changes.some((c) => c.dealId === deal.id && c.updateType === 'joined'),
    );
    expect(tab.all('deal-updated')).toEqual([]);
  });

  it('takes a leaving counterpart out of the deal room on the other instance', async () => {
    const deal = await createDeal(one, alice);
    await joinDeal(one, bob, deal.id);
    await assignDealmakerByRequest(one, alice, deal.id, mia);
    const a = await inRoom(one, alice, deal.id);
    const m = await inRoom(instanceTwo(), mia, deal.id);
    const b = await inRoom(instanceTwo(), bob, deal.id);
    b.emitRaw('user-typing-start', { dealId: deal.id });
    await a.waitFor('typing-updated', typingOf(deal.id, bob, true));

    // The call goes to instance one; bob's socket lives on instance two.
    const left = await one.put(`/api/deals/leave-deal-as-dealer/${deal.id}`, { token: bob.token });
    expect(left.status).toBe(200);
    await a.waitFor('typing-updated', typingOf(deal.id, bob, false), soonerThanExpiry);
    await m.waitFor('typing-updated', typingOf(deal.id, bob, false), soonerThanExpiry);

    a.emitRaw('user-typing-start', { dealId: deal.id });
    await m.waitFor('typing-updated', typingOf(deal.id, alice, true));
    await quietPeriod();
    expect(b.all('typing-updated', (e) => e.userInfo.id === userId(alice))).toEqual([]);
    // Instance two remembered that bob may join (he joined above): the leave made it forget.
    expect(await b.joinDeal(deal.id)).toEqual({
      ok: false,
      message: 'Only the participants of this deal can join its room.',
    });
  });

  it('ends, within a second, the sockets a password reset on one instance outdates on the other', async () => {
    const user = await signUp(one);
    const onTwo = await clients.connect(user.token, instanceTwo().url);
    const onOne = await clients.connect(user.token, one.url);
    await one.post('/api/auth/reset_password', { body: { email: user.email } });
    const link = one.lastLinkTo(user.email).replace(/^https?:\/\/[^/]+/, '');
    const [closedTwo, closedOne] = [onTwo.disconnection(1_000), onOne.disconnection(1_000)];
    const reset = await one.post(link, { body: { newPassword: 'a brand new passphrase' } });
    expect(reset.status).toBe(200);
    expect(await closedTwo).toBe('io server disconnect');
    expect(await closedOne).toBe('io server disconnect');
    // The other instance refuses the old token at once: the reset reached its cache too.
    expect((await instanceTwo().get('/api/auth/me', { token: user.token })).status).toBe(401);
  });

  it('counts rate limits across the instances', async () => {
    // The registration limit counts per address in Redis: 10 an hour, from the one test address.
    const limited = { rateLimits: { registrationsPerAddress: { points: 3, seconds: 3600 } } };
    const prefix = `dealmaker-test-${randomUUID()}`;
    const [x, y] = await Promise.all([
      startTestServer({
        database,
        keepDatabase: true,
        config: { redisUrl: process.env.REDIS_URL, redisPrefix: prefix, ...limited },
      }),
      startTestServer({
        database,
        keepDatabase: true,
        config: { redisUrl: process.env.REDIS_URL, redisPrefix: prefix, ...limited },
      }),
    ]);
    try {
      const register = (server: TestServer, n: number) =>
        server.post('/api/auth/register', {
          body: {
            username: `limited${n}_${process.pid % 1000}`,
            email: `limited${n}_${process.pid}@example.test`,
            password: 'correct horse battery',
            full_name: 'L',
          },
        });
      expect((await register(x, 1)).status).toBe(201);
      expect((await register(y, 2)).status).toBe(201);
      expect((await register(x, 3)).status).toBe(201);
      const refused = await register(y, 4);
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('RATE_LIMITED');
    } finally {
      await x.close();
      await y.close();
    }
  });

  it('keeps deployments with different REDIS_PREFIX apart on one Redis: no events, no shared limits', async () => {
    const limited = { rateLimits: { registrationsPerAddress: { points: 2, seconds: 3600 } } };
    const [prefixP, prefixQ] = [`dealmaker-test-${randomUUID()}`, `dealmaker-test-${randomUUID()}`];
    const start = (redisPrefix: string) =>
      startTestServer({
        database,
        keepDatabase: true,
        config: { redisUrl: process.env.REDIS_URL, redisPrefix, ...limited },
      });
    const [p, q] = await Promise.all([start(prefixP), start(prefixQ)]);
    try {
      const [owner, partner] = [await signUp(one), await signUp(one)];
      const ownerOnP = await clients.connect(owner.token, p.url);
      const partnerOnQ = await clients.connect(partner.token, q.url);

      const dealOnQ = await createDeal(q, owner);
      await joinDeal(q, partner, dealOnQ.id);
      await partnerOnQ.waitFor('deal-updated', (e) => e.dealId === dealOnQ.id && e.updateType === 'joined');
      const dealOnP = await createDeal(p, owner);
      await ownerOnP.waitFor('deal-updated', (e) => e.dealId === dealOnP.id && e.updateType === 'created');
      await quietPeriod();
      expect(ownerOnP.all('deal-updated', (e) => e.dealId === dealOnQ.id)).toEqual([]);
      expect(ownerOnP.all('notification', (e) => e.dealId === dealOnQ.id)).toEqual([]);
      expect(partnerOnQ.all('deal-updated', (e) => e.dealId === dealOnP.id)).toEqual([]);

      const register = (server: TestServer) => {
        const name = `apart_${randomUUID().slice(0, 8)}`;
        return server.post('/api/auth/register', {
          body: {
            username: name,
            email: `${name}@example.test`,
            password: 'correct horse battery',
            full_name: 'A',
          },
        });
      };
      expect((await register(p)).status).toBe(201);
      expect((await register(p)).status).toBe(201);
      expect((await register(p)).status).toBe(429);
      // The other deployment counts its own: its first two pass, its third is refused.
      expect((await register(q)).status).toBe(201);
      expect((await register(q)).status).toBe(201);
      expect((await register(q)).status).toBe(429);
      const redis = new Redis(process.env.REDIS_URL!);
      try {
        expect(await redis.keys(`${prefixP}:*`)).toContain(
          `${prefixP}:limit:registrationsPerAddress:127.0.0.1`,
        );
      } finally {
        redis.disconnect();
      }
    } finally {
      await p.close();
      await q.close();
    }
  });

  it('delivers stored notifications and read receipts across the instances, and mails only users connected nowhere', async () => {
    const [owner, partner, maker] = [await signUp(one), await signUp(instanceTwo()), await signUp(one)];
    // The owner is connected to instance two only; the calls below run on instance one.
    const ownerSocket = await clients.connect(owner.token, instanceTwo().url);
    const deal = await createDeal(one, owner);
    await joinDeal(one, partner, deal.id);
    const joined = await ownerSocket.waitFor('notification', (e) => e.dealId === deal.id);
    const stored = (await instanceTwo().get('/api/notifications', { token: owner.token })).body;
    expect(joined).toEqual({
      id: stored.notifications[0].id,
      kind: 'deal-joined',
      dealId: deal.id,
      message: `${partner.username} joined your deal "${deal.title}".`,
      count: 1,
      createdAt: stored.notifications[0].createdAt,
      unreadCount: 1,
    });

    // A request to the maker, connected nowhere, is mailed; one to the owner, connected on two, is not.
    const mailsTo = (user: SignedUpUser) =>
      [...one.mails, ...instanceTwo().mails].filter(
        (mail) => mail.to === user.email && mail.subject.startsWith('Dealmaker: '),
      );
    await assignDealmakerByRequest(one, owner, deal.id, maker);
    expect(mailsTo(maker)).toHaveLength(1);
    await one.post('/api/disputes', {
      token: partner.token,
      body: { dealId: deal.id, title: 'Late', description: 'Two days late.' },
    });
    await ownerSocket.waitFor('notification', (e) => e.kind === 'dispute-raised');
    await one.app.services.background.idle();
    expect(mailsTo(owner)).toEqual([]);

    const message = await sendThrough(one, owner, deal.id, 'Read me');
    await instanceTwo().post(`/api/messages/deal/${deal.id}/read`, {
      token: partner.token,
      body: { lastReadId: message.id },
    });
    expect(await ownerSocket.waitFor('messages-read')).toEqual({
      dealId: deal.id,
      userId: userId(partner),
      username: partner.username,
      lastReadId: message.id,
    });
  });

  // Last: it closes instance two.
  it('closing one instance disconnects its own sockets only, ends their typing for the others, and publishes what it answers meanwhile', async () => {
    const deal = await createDeal(one, alice);
    await joinDeal(one, bob, deal.id);
    const a = await inRoom(one, alice, deal.id);
    const aliceOnTwo = await clients.connect(alice.token, instanceTwo().url);
    const b = await inRoom(instanceTwo(), bob, deal.id);
    b.emitRaw('user-typing-start', { dealId: deal.id });
    await a.waitFor('typing-updated', typingOf(deal.id, bob, true));

    // A message in flight on instance two while it closes: its statement waits for the deal's row,
    // held here, until two has closed its sockets (their clients have reconnected elsewhere and caught
    // up by then, so only Redis can tell them).
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM deals WHERE id = $1 FOR UPDATE', [deal.id]);
      const inFlight = sendThrough(instanceTwo(), bob, deal.id, 'Answered while instance two closes');
      await waitUntilWaitingForLock(holder);

      const closedOnTwo = aliceOnTwo.disconnection();
      const closing = instanceTwo().close();
      two = undefined;
      await closedOnTwo;
      expect(b.connected).toBe(false);
      await holder.query('ROLLBACK');
      const answered = await inFlight;
      await closing;
      expect(await a.waitFor('message-updated', (e) => e.messageData.id === answered.id)).toEqual({
        dealId: deal.id,
        messageData: answered,
        updateType: 'sent',
      });
    } finally {
      await holder.end();
    }
    await a.waitFor('typing-updated', typingOf(deal.id, bob, false), soonerThanExpiry);
    await quietPeriod();
    expect(a.connected).toBe(true);
    expect(await a.joinDeal(deal.id)).toEqual({ ok: true });
    const message = await sendThrough(one, alice, deal.id, 'Still here');
    await a.waitFor('message-updated', (e) => e.messageData.id === message.id);
  });
});

/** Until another connection is waiting for a lock `holder` holds. */
async function waitUntilWaitingForLock(holder: pg.Client) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await holder.query<{ waiting: number }>(
      'SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))',
    );
    if (rows[0]!.waiting > 0) return;
    if (Date.now() > deadline) throw new Error('nothing came to wait for the lock within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
