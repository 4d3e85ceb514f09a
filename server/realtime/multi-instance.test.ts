import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../contract/messages';
import type { ServerEvents } from '../../contract/realtime';
import type { Database } from '../db/client';
import { assignDealmakerByRequest, createDeal, joinDeal } from '../test/deal-fixtures';
import { type SignedUpUser, signUp, startTestServer, type TestServer } from '../test/harness';
import { createTestDatabase } from '../test/test-database';
import { quietPeriod, TestClients } from './test-client';

const typingTimeout = 2_000;
/** Typing ended by leave, eviction or shutdown arrives well before it could have expired by itself. */
const soonerThanExpiry = typingTimeout / 2;

/**
 * Two server instances in this process, sharing one PostgreSQL database and one
 * Redis, as several instances behind a load balancer do. PGlite cannot be shared
 * by two servers and the adapter needs a Redis, so this file runs only when both
 * DATABASE_URL and REDIS_URL are set: CI's second server run sets both
 * (.ci/run, "Server suite again on PostgreSQL and Redis").
 */
describe.skipIf(!process.env.DATABASE_URL || !process.env.REDIS_URL)(
  'two instances sharing PostgreSQL and Redis',
  () => {
    let database: Database;
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
        // Channels of their own: other test files on the same Redis never reach these servers.
        redisKey: `dealmaker-test-${randomUUID()}`,
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
      expect(b.all('notification', (e) => e.dealId === deal.id)).toEqual([]);
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
      expect((await b.joinDeal(deal.id)).ok).toBe(false);
    });

    // Last: it closes instance two.
    it('closing one instance disconnects its own sockets only and ends their typing for the others', async () => {
      const deal = await createDeal(one, alice);
      await joinDeal(one, bob, deal.id);
      const a = await inRoom(one, alice, deal.id);
      const aliceOnTwo = await clients.connect(alice.token, instanceTwo().url);
      const b = await inRoom(instanceTwo(), bob, deal.id);
      b.emitRaw('user-typing-start', { dealId: deal.id });
      await a.waitFor('typing-updated', typingOf(deal.id, bob, true));

      const closedOnTwo = aliceOnTwo.disconnection();
      await instanceTwo().close();
      two = undefined;
      await closedOnTwo;
      expect(b.connected).toBe(false);
      await a.waitFor('typing-updated', typingOf(deal.id, bob, false), soonerThanExpiry);
      await quietPeriod();
      expect(a.connected).toBe(true);
      expect(await a.joinDeal(deal.id)).toEqual({ ok: true });
      const message = await sendThrough(one, alice, deal.id, 'Still here');
      await a.waitFor('message-updated', (e) => e.messageData.id === message.id);
    });
  },
);
