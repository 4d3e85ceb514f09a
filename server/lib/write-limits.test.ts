import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Config, ConfigError, loadConfig } from '../config';
import type { Database } from '../db/client';
import { bids, dealmakerRequests, deals, messages, notifications, settlementProposals } from '../db/schema';
import { createDeal, joinDeal, placeBid, sendRequest, signUpMany } from '../test/deal-fixtures';
import { type ApiResponse, ok, type SignedUpUser, startTestServer, type TestServer } from '../test/harness';
import { dealWithDealmaker, deposit, payHalf } from '../test/money-fixtures';
import { createTestDatabase } from '../test/test-database';
import { RateLimits } from './rate-limits';

// The per-user write limits (contract/limits.ts, docs/decisions/0016-rate-limits.md): one account cannot
// flood the others with deals, bids, chat messages, dealmaker requests or settlement proposals. Each is
// set low here; the harness relaxes them for every other test file.

const perHour = (points: number) => ({ points, seconds: 3600 });
const lowLimits: Config['rateLimits'] = {
  // Every test user registers from 127.0.0.1.
  registrationsPerAddress: perHour(100_000),
  dealsPerUser: perHour(2),
  bidsPerUser: perHour(1),
  messagesPerUser: { points: 3, seconds: 60 },
  dealmakerRequestsPerUser: perHour(1),
  settlementProposalsPerUser: perHour(1),
};

/** A 429 as every limit answers it: the JSON body, and when to try again. */
function expectRefused(response: ApiResponse, message: RegExp, maxSeconds: number) {
  expect(response.status, JSON.stringify(response.body)).toBe(429);
  expect(response.body).toEqual({ message: expect.stringMatching(message), code: 'RATE_LIMITED' });
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
}

const rowsOf = async (server: TestServer, table: PgTable, column: PgColumn, userId: number) => {
  const [row] = await server.db.select({ n: count() }).from(table).where(eq(column, userId));
  return row!.n;
};

describe('per-user write limits', () => {
  let server: TestServer;
  let alice: SignedUpUser;
  let bob: SignedUpUser;
  let carol: SignedUpUser;
  let mia: SignedUpUser;

  beforeAll(async () => {
    server = await startTestServer({ config: { rateLimits: lowLimits } });
    [alice, bob, carol, mia] = await signUpMany(server, 4);
  });
  afterAll(() => server?.close());

  it('refuse a third deal within the hour, store nothing, and leave other users alone', async () => {
    await createDeal(server, carol);
    await createDeal(server, carol);
    const refused = await server.post('/api/deals/create-deal', {
      token: carol.token,
      body: { title: 'One too many', description: 'Flood', budget: 10, timeline: '1 week' },
    });
    expectRefused(refused, /^You are creating deals too quickly\. Please try again in 60 minutes\.$/, 3600);
    expect(await rowsOf(server, deals, deals.creatorId, carol.user.id)).toBe(2);
    await createDeal(server, bob);
  });

  it('refuse a second bid within the hour and store nothing', async () => {
    const [first, second] = [await createDeal(server, alice), await createDeal(server, alice)];
    await placeBid(server, mia, first.id);
    const refused = await server.post('/api/bidding/create', {
      token: mia.token,
      body: { dealId: second.id, price: 400 },
    });
    expectRefused(refused, /^You are placing bids too quickly\. Please try again in 60 minutes\.$/, 3600);
    expect(await rowsOf(server, bids, bids.bidderId, mia.user.id)).toBe(1);
  });

  it('refuse a second dealmaker request within the hour and store nothing', async () => {
    const [first, second] = await Promise.all([createDeal(server, bob), createDeal(server, mia)]);
    await sendRequest(server, bob, first.id, alice);
    await joinDeal(server, bob, second.id);
    const refused = await server.post('/api/request-dealmaker/send-request', {
      token: bob.token,
      body: { dealId: second.id, receiverUsername: carol.username },
    });
    expectRefused(
      refused,
      /^You are sending dealmaker requests too quickly\. Please try again in 60 minutes\.$/,
      3600,
    );
    expect(await rowsOf(server, dealmakerRequests, dealmakerRequests.senderId, bob.user.id)).toBe(1);
  });

  it('refuse a fourth chat message within the minute: nothing stored, nobody notified', async () => {
    const [talker, partner] = await signUpMany(server, 2);
    const deal = await createDeal(server, talker);
    await joinDeal(server, partner, deal.id);
    const send = (content: string) =>
      server.post('/api/messages/send', { token: talker.token, body: { dealId: deal.id, content } });
    for (const content of ['One', 'Two', 'Three']) await ok(send(content), 201);
    const noticed = await rowsOf(server, notifications, notifications.userId, partner.user.id);

    const refused = await send('Four');
    expectRefused(refused, /^You are sending messages too quickly\. Please try again in \d+ seconds\.$/, 60);
    expect(await rowsOf(server, messages, messages.senderId, talker.user.id)).toBe(3);
    expect(await rowsOf(server, notifications, notifications.userId, partner.user.id)).toBe(noticed);
    // The partner still writes.
    await ok(
      server.post('/api/messages/send', {
        token: partner.token,
        body: { dealId: deal.id, content: 'Calm down.' },
      }),
      201,
    );
  });

  it('refuse a second settlement proposal within the hour and store nothing', async () => {
    const [creator, counterpart, dealmaker] = await signUpMany(server, 3);
    for (const dealer of [creator, counterpart]) await deposit(server, dealer, 100);
    const deal = await dealWithDealmaker(server, { creator, counterpart, dealmaker }, 100);
    await ok(payHalf(server, creator, deal.id));
    await ok(payHalf(server, counterpart, deal.id));
    const dispute = await ok<{ id: number }>(
      server.post('/api/disputes', {
        token: creator.token,
        body: { dealId: deal.id, title: 'Late', description: 'Very late.' },
      }),
      201,
    );
    const propose = (user: SignedUpUser, toDealmaker: number) =>
      server.post(`/api/disputes/${dispute.id}/proposals`, { token: user.token, body: { toDealmaker } });
    await ok(propose(counterpart, 10), 201);
    const refused = await propose(counterpart, 20);
    expectRefused(
      refused,
      /^You are proposing settlements too quickly\. Please try again in 60 minutes\.$/,
      3600,
    );
    expect(
      await rowsOf(server, settlementProposals, settlementProposals.proposedById, counterpart.user.id),
    ).toBe(1);
    await ok(propose(dealmaker, 50), 201);
  });
});

/** With REDIS_URL the counts live in Redis: every instance refuses the same user at the same count. */
describe.skipIf(!process.env.REDIS_URL)('per-user write limits across instances', () => {
  let database: Database;
  let one: TestServer;
  let two: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = {
      redisUrl: process.env.REDIS_URL,
      redisPrefix: `dealmaker-test-${randomUUID()}`,
      rateLimits: lowLimits,
    };
    [one, two] = await Promise.all([
      startTestServer({ database, keepDatabase: true, config }),
      startTestServer({ database, keepDatabase: true, config }),
    ]);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await database?.close();
  });

  it('count chat messages on both', async () => {
    const [talker] = await signUpMany(one, 1);
    const deal = await createDeal(one, talker);
    const send = (server: TestServer, content: string) =>
      server.post('/api/messages/send', { token: talker.token, body: { dealId: deal.id, content } });
    await ok(send(one, 'One'), 201);
    await ok(send(two, 'Two'), 201);
    await ok(send(one, 'Three'), 201);
    expectRefused(await send(two, 'Four'), /^You are sending messages too quickly\./, 60);
    expectRefused(await send(one, 'Five'), /^You are sending messages too quickly\./, 60);
    expect(await rowsOf(one, messages, messages.senderId, talker.user.id)).toBe(3);
  });
});

describe('RATE_LIMITS', () => {
  it('replaces some limits from the environment (the benchmarks lift the chat limit), and refuses nonsense', () => {
    const rule = { points: 1_000_000, seconds: 60 };
    expect(loadConfig({ RATE_LIMITS: JSON.stringify({ messagesPerUser: rule }) }).rateLimits).toEqual({
      messagesPerUser: rule,
    });
    expect(loadConfig({}).rateLimits).toBeUndefined();
    for (const text of ['messagesPerUser=5', '{"messagesPerUser":{"points":0,"seconds":60}}', '[1]']) {
      expect(() => loadConfig({ RATE_LIMITS: text }), text).toThrow(ConfigError);
    }
    const misspelt = loadConfig({ RATE_LIMITS: JSON.stringify({ messagesPerUsr: rule }) }).rateLimits;
    expect(() => new RateLimits({ rules: misspelt })).toThrow('Unknown rate limits: messagesPerUsr.');
  });
});
