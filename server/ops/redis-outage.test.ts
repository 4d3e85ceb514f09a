import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../contract/messages';
import type { Database } from '../db/client';
import { assignDealmakerByRequest, createDeal, joinDeal } from '../test/deal-fixtures';
import { type SignedUpUser, signUp, startTestServer, type TestServer } from '../test/harness';
import { startOwnRedis } from '../test/own-redis';
import { TestClients } from '../test/socket-client';
import { createTestDatabase } from '../test/test-database';

/**
 * Redis goes away under two instances and comes back: HTTP goes on (sign-in included), chat still
 * reaches the sockets of the instance it was sent on, rate limits still hold (per instance, in memory),
 * /api/ready says "degraded" but stays 200, and once Redis is back everything heals without a restart:
 * events cross instances again, counters are shared again.
 */
let redis: Awaited<ReturnType<typeof startOwnRedis>>;
let database: Database;
let one: TestServer;
let two: TestServer;
let clients: TestClients;
let alice: SignedUpUser;
let bob: SignedUpUser;
let dealId: number;

beforeAll(async () => {
  redis = await startOwnRedis();
  database = await createTestDatabase();
  const config = {
    redisUrl: redis.url,
    redisPrefix: `dealmaker-test-${randomUUID()}`,
    // Three wrong passwords per account and address, then 429: low, to see the limit hold.
    rateLimits: { signInFailuresPerUserAndAddress: { points: 3, seconds: 900 } },
  };
  [one, two] = await Promise.all([
    startTestServer({ database, keepDatabase: true, config }),
    startTestServer({ database, keepDatabase: true, config }),
  ]);
  clients = new TestClients(one.url);
  alice = await signUp(one);
  bob = await signUp(two);
  const dealmaker = await signUp(one);
  const deal = await createDeal(one, alice);
  await joinDeal(two, bob, deal.id);
  await assignDealmakerByRequest(one, alice, deal.id, dealmaker);
  dealId = deal.id;
}, 120_000);

afterAll(async () => {
  clients?.closeAll();
  await one?.close();
  await two?.close();
  await database?.close();
  await redis?.stop();
});

async function send(server: TestServer, user: SignedUpUser, content: string) {
  const response = await server.post<Message>('/api/messages/send', {
    token: user.token,
    body: { dealId, content },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

const wrongPassword = (server: TestServer, user: SignedUpUser) =>
  server.post('/api/auth/login', { body: { username: user.username, password: 'not the password' } });

describe('Redis going away and coming back', () => {
  it('keeps HTTP, sign-in, local realtime and the limits working, and heals by itself', async () => {
    const onOne = await clients.connect(alice.token, one.url);
    const onTwo = await clients.connect(bob.token, two.url);
    const before = await send(one, alice, 'Before the outage');
    await onTwo.waitFor('message-updated', (e) => e.messageData.id === before.id);
    expect((await one.get('/api/ready')).body).toEqual({
      status: 'ready',
      checks: { database: 'up', migrations: 'done', redis: 'up', instance: 'serving' },
    });

    await redis.stop();
    await sleep(500);

    // Ready, but degraded: the load balancer keeps the instance.
    const ready = await one.get('/api/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'degraded',
      checks: { database: 'up', migrations: 'done', redis: 'down', instance: 'serving' },
    });
    // Sign-in answers, and at once.
    const started = Date.now();
    const signIn = await two.post('/api/auth/login', {
      body: { username: bob.username, password: bob.password },
    });
    expect(signIn.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2_000);
    // A message reaches the sockets of the instance it was sent on (alice's own socket is on one).
    const during = await send(one, alice, 'During the outage');
    await onOne.waitFor('message-updated', (e) => e.messageData.id === during.id);
    // The limits hold, counted in each instance's memory: the fourth wrong password on one is refused.
    for (let attempt = 0; attempt < 3; attempt++) expect((await wrongPassword(one, alice)).status).toBe(401);
    const refused = await wrongPassword(one, alice);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');

    await redis.start();
    // Healed without a restart: ready again, and events cross instances again.
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && (await one.get('/api/ready')).body.status !== 'ready') await sleep(100);
    const healedIn = 10_000 - (deadline - Date.now());
    expect((await one.get('/api/ready')).body.status).toBe('ready');
    expect((await two.get('/api/ready')).body.status).toBe('ready');
    // The subscriptions are made again as the clients reconnect: a message crosses within seconds.
    let crossed: Message | undefined;
    for (let attempt = 0; attempt < 20 && !crossed; attempt++) {
      const after = await send(one, alice, `After the outage ${attempt}`);
      crossed = await onTwo
        .waitFor('message-updated', (e) => e.messageData.id === after.id, 500)
        .then((event) => event.messageData)
        .catch(() => undefined);
    }
    expect(crossed?.content).toMatch(/^After the outage/);
    // Counters are shared again (Redis is empty after its restart): three failures on one, then two refuses.
    for (let attempt = 0; attempt < 3; attempt++) expect((await wrongPassword(one, bob)).status).toBe(401);
    expect((await wrongPassword(two, bob)).status).toBe(429);
    console.log(`redis outage: ready again ${healedIn} ms after Redis came back`);
  }, 120_000);
});
