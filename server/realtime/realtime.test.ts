import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Deal } from '../../contract/deals';
import type { Message } from '../../contract/messages';
import type { ServerEvents } from '../../contract/realtime';
import { assignDealmakerByRequest, createDeal, joinDeal, placeBid, signUpMany } from '../test/deal-fixtures';
import { type SignedUpUser, startTestServer, type TestServer } from '../test/harness';
import { type ConnectOptions, quietPeriod, type TestClient, TestClients } from '../test/socket-client';
import { typingTimeoutMs } from './typing';

const jwtSecret = 'realtime-tests-secret-0123456789-abcdef';
/** Shortened for these tests (the default is typingTimeoutMs). */
const typingTimeout = 2_000;
/**
 * A typing indicator ended by stop, leave or disconnect must end well before it
 * could have expired by itself: waits for those use this timeout.
 */
const soonerThanExpiry = typingTimeout / 2;
/** How long typing outlives the typist's own leave-deal-room here (shortened like the timeout). */
const rejoinGrace = 400;
/** In CORS_ORIGINS here: a partner site trusted with the cookie. */
const partnerOrigin = 'https://partner.example.test';

let server: TestServer;
let clients: TestClients;
let alice: SignedUpUser;
let bob: SignedUpUser;
let carol: SignedUpUser;
let dave: SignedUpUser;
let mia: SignedUpUser;

beforeAll(async () => {
  server = await startTestServer({
    config: {
      jwtSecret,
      typingTimeoutMs: typingTimeout,
      typingRejoinGraceMs: rejoinGrace,
      corsOrigins: [partnerOrigin],
      // The malformed-events test sends hundreds of events at once on purpose: the limits, which would
      // drop them, are tested in event-limits.test.ts.
      socketEventLimits: {
        perSocket: { burst: 100_000, perSecond: 100_000 },
        perUser: { burst: 100_000, perSecond: 100_000 },
      },
      // With REDIS_URL (CI's second server run) the same tests go through the Redis adapter, under a
      // prefix of their own so that parallel test files sharing the Redis never see each other's events.
      ...(process.env.REDIS_URL
        ? { redisUrl: process.env.REDIS_URL, redisPrefix: `dealmaker-test-${randomUUID()}` }
        : {}),
    },
  });
  clients = new TestClients(server.url);
  [alice, bob, carol, dave, mia] = await signUpMany(server, 5);
});
afterEach(() => clients.closeAll());
afterAll(() => server.close());

const userId = (user: SignedUpUser) => user.user.id as number;
const typingUser = (user: SignedUpUser) => ({
  id: userId(user),
  username: user.username,
  full_name: user.full_name,
});
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A token as the server signs them, with the given expiry (seconds) and claims overridden. */
function signToken(
  user: SignedUpUser,
  exp: number,
  claims: Record<string, unknown> = {},
  secret = jwtSecret,
) {
  // The same session (`sid`) as the user's real token: a token is good only while its session is open.
  const { ver, sid } = decodeJwt(user.token);
  return new SignJWT({ id: userId(user), username: user.username, email: user.email, ver, sid, ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(secret));
}

async function sendMessage(user: SignedUpUser, dealId: number, content: string) {
  const response = await server.post<Message>('/api/messages/send', {
    token: user.token,
    body: { dealId, content },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

/** One connected client per user, in the same order. */
const connectEach = <T extends SignedUpUser[]>(...users: T) =>
  Promise.all(users.map((user) => clients.connect(user.token))) as Promise<{ [K in keyof T]: TestClient }>;

/** A deal with alice as creator, bob as counterpart and mia as dealmaker. */
async function fullDeal() {
  const deal = await createDeal(server, alice);
  await joinDeal(server, bob, deal.id);
  await assignDealmakerByRequest(server, alice, deal.id, mia);
  return deal;
}

/** Connects the user and joins the deal's room (asserting the server agreed). */
async function inRoom(user: SignedUpUser, dealId: number) {
  const client = await clients.connect(user.token);
  expect(await client.joinDeal(dealId)).toEqual({ ok: true });
  return client;
}

const ofDeal =
  (dealId: number) =>
  (payload: { dealId?: number | null }): boolean =>
    payload.dealId === dealId;
const typingOf =
  (dealId: number, user: SignedUpUser, isTyping?: boolean) => (payload: ServerEvents['typing-updated']) =>
    payload.dealId === dealId &&
    payload.userInfo.id === userId(user) &&
    (isTyping === undefined || payload.isTyping === isTyping);

async function expectHealthy() {
  expect((await server.get('/api/health')).status).toBe(200);
}

describe('handshake', () => {
  it('refuses a connection without a token', async () => {
    const error = await clients.create().refusal();
    expect(error.message).toBe('unauthorized');
  });

  it('refuses garbage, forged, stale and unknown-user tokens, however they are sent', async () => {
    const attempts: ConnectOptions[] = [
      { auth: { token: 'garbage' } },
      { auth: { token: 12345 } },
      { auth: { token: { nested: true } } },
      { headers: { authorization: 'Bearer not.a.jwt' } },
      { headers: { authorization: alice.token } },
      { headers: { cookie: 'auth_token=%E0%A4%A' } },
      { headers: { cookie: 'other=1; auth_token=' } },
      { token: await signToken(alice, nowSeconds() + 3600, {}, 'another-secret-of-at-least-32-chars!!') },
      { token: await signToken(alice, nowSeconds() + 3600, { id: 2_000_000_000 }) },
      { token: await signToken(alice, nowSeconds() + 3600, { ver: 99 }) },
      { token: await signToken(alice, nowSeconds() + 3600, { id: String(userId(alice)) }) },
    ];
    for (const options of attempts) {
      const error = await clients.create(options).refusal();
      expect(error.message, JSON.stringify(options)).toBe('unauthorized');
    }
    await expectHealthy();
  });

  it('refuses an expired token; the same claims not yet expired are accepted', async () => {
    const expired = await signToken(alice, nowSeconds() - 60);
    expect((await clients.create({ token: expired }).refusal()).message).toBe('unauthorized');
    const valid = await signToken(alice, nowSeconds() + 3600);
    const client = await clients.create({ token: valid }).connect();
    expect(client.connected).toBe(true);
  });

  it('accepts the token in auth.token, the auth_token cookie or the Authorization header, as its user', async () => {
    const deal = await createDeal(server, alice);
    const ways = (user: SignedUpUser): ConnectOptions[] => [
      { auth: { token: user.token } },
      { headers: { cookie: `theme=dark; auth_token=${encodeURIComponent(user.token)}` } },
      { headers: { authorization: `Bearer ${user.token}` } },
    ];
    for (const [index, options] of ways(alice).entries()) {
      const client = await clients.create(options).connect();
      // Only alice may join her deal's room: the socket is hers.
      expect(await client.joinDeal(deal.id), `way ${index}`).toEqual({ ok: true });
    }
    for (const [index, options] of ways(bob).entries()) {
      const client = await clients.create(options).connect();
      expect((await client.joinDeal(deal.id)).ok, `way ${index}`).toBe(false);
    }
  });

  it('refuses a handshake signed in by the cookie alone from a foreign origin, which hears nothing', async () => {
    // A user of this test only: the notification below would count as unread in the others'.
    const [victim] = await signUpMany(server, 1);
    const cookie = `auth_token=${encodeURIComponent(victim.token)}`;
    for (const headers of [
      { cookie, origin: 'https://evil.example.test' } as Record<string, string>,
      { cookie, referer: 'https://evil.example.test/page' },
      { cookie, origin: 'null' },
      // Only a Bearer header replaces the cookie: with any other the cookie still signs the handshake in.
      { cookie, origin: 'https://evil.example.test', authorization: 'Basic YWxpY2U6c2VjcmV0' },
      { cookie, origin: 'https://evil.example.test', authorization: 'Negotiate abc' },
    ]) {
      const client = clients.create({ headers });
      const error = (await client.refusal()) as Error & { data?: unknown };
      expect(error.message, JSON.stringify(headers)).toBe('foreign origin');
      expect(error.data).toEqual({ code: 'FOREIGN_ORIGIN' });
    }
    // The user's private events go on being sent (to their own socket here); none reaches a refused one.
    const watcher = clients.create({ headers: { cookie, origin: 'https://evil.example.test' } });
    await watcher.refusal();
    const own = await clients.connect(victim.token);
    const deal = await createDeal(server, victim);
    await joinDeal(server, bob, deal.id);
    await own.waitFor('notification', ofDeal(deal.id));
    await quietPeriod();
    expect(watcher.received).toEqual([]);
  });

  it('accepts the cookie from the product’s own origin, a CORS origin or no origin, and a token from anywhere', async () => {
    const deal = await createDeal(server, alice);
    const cookie = `auth_token=${encodeURIComponent(alice.token)}`;
    const { origin } = new URL(server.url);
    const evil = 'https://evil.example.test';
    for (const options of [
      { headers: { cookie, origin } },
      { headers: { cookie, referer: `${origin}/deals/${deal.id}` } },
      { headers: { cookie, origin: partnerOrigin } },
      { headers: { cookie } },
      { auth: { token: alice.token }, headers: { cookie, origin: evil } },
      { headers: { authorization: `Bearer ${alice.token}`, origin: evil } },
    ] as ConnectOptions[]) {
      const client = await clients.create(options).connect();
      expect(await client.joinDeal(deal.id), JSON.stringify(options)).toEqual({ ok: true });
    }
  });

  it('disconnects a socket when its token expires, and refuses it afterwards', async () => {
    const exp = nowSeconds() + 2;
    const token = await signToken(alice, exp);
    const client = await clients.create({ token }).connect();
    const reason = await client.disconnection(5_000);
    expect(reason).toBe('io server disconnect');
    expect(Date.now()).toBeGreaterThanOrEqual(exp * 1000 - 50);
    expect((await clients.create({ token }).refusal()).message).toBe('unauthorized');
  });
});

describe('user rooms', () => {
  it('delivers a notification to its user only', async () => {
    const [a, b, c] = await connectEach(alice, bob, carol);
    const deal = await createDeal(server, alice);
    await joinDeal(server, bob, deal.id);
    expect(await a.waitFor('notification', ofDeal(deal.id))).toEqual({
      id: expect.any(Number),
      kind: 'deal-joined',
      dealId: deal.id,
      message: `${bob.username} joined your deal "${deal.title}".`,
      count: 1,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      unreadCount: 1,
    });
    await quietPeriod();
    expect(a.all('notification', ofDeal(deal.id))).toHaveLength(1);
    expect(b.all('notification', ofDeal(deal.id))).toEqual([]);
    expect(c.all('notification', ofDeal(deal.id))).toEqual([]);
  });

  it('ignores join-user-room with someone else’s id', async () => {
    const c = await clients.connect(carol.token);
    c.emitRaw('join-user-room', userId(bob));
    c.emitRaw('join-user-room', String(userId(bob)));
    c.emitRaw('join-user-room', `user:${userId(bob)}`);
    await c.joinDeal(1); // the answer comes after the events above were handled
    const b = await clients.connect(bob.token);
    const deal = await createDeal(server, bob);
    await joinDeal(server, dave, deal.id);
    await placeBid(server, mia, deal.id);
    await b.waitFor('notification', (n) => n.dealId === deal.id && n.kind === 'deal-joined');
    await b.waitFor('notification', (n) => n.dealId === deal.id && n.kind === 'bid-created');
    await b.waitFor('bid-updated', ofDeal(deal.id));
    await quietPeriod();
    expect(c.all('notification', ofDeal(deal.id))).toEqual([]);
    expect(c.all('bid-updated', ofDeal(deal.id))).toEqual([]);
  });
});

describe('deal rooms', () => {
  it('lets each participant join the room and refuses everyone else', async () => {
    const deal = await fullDeal();
    for (const user of [alice, bob, mia]) {
      const client = await clients.connect(user.token);
      expect(await client.joinDeal(deal.id)).toEqual({ ok: true });
      expect(await client.joinDeal(String(deal.id))).toEqual({ ok: true });
    }
    const outsider = await clients.connect(carol.token);
    const refusal = { ok: false, message: 'Only the participants of this deal can join its room.' };
    expect(await outsider.joinDeal(deal.id)).toEqual(refusal);
    expect(await outsider.joinDeal(2_000_000_000)).toEqual(refusal);
    expect(await outsider.joinDeal('abc')).toEqual({ ok: false, message: 'Invalid deal id.' });
  });

  it('never gives a non-participant the deal’s messages or typing', async () => {
    const deal = await createDeal(server, alice);
    await joinDeal(server, bob, deal.id);
    const a = await inRoom(alice, deal.id);
    const b = await inRoom(bob, deal.id);
    const c = await clients.connect(carol.token);
    expect((await c.joinDeal(deal.id)).ok).toBe(false);
    c.emitRaw('user-typing-start', { dealId: deal.id });
    const message = await sendMessage(alice, deal.id, 'Only for the two of us');
    a.emitRaw('user-typing-start', { dealId: deal.id });
    await b.waitFor('message-updated', (m) => m.messageData.id === message.id);
    await b.waitFor('typing-updated', typingOf(deal.id, alice, true));
    await quietPeriod();
    expect(c.all('message-updated')).toEqual([]);
    expect(c.all('typing-updated')).toEqual([]);
    expect(a.all('typing-updated', typingOf(deal.id, carol))).toEqual([]);
    expect(b.all('typing-updated', typingOf(deal.id, carol))).toEqual([]);
  });
});

describe('who receives which event', () => {
  it('sends deal-updated created, joined, left and deleted to every signed-in socket, with public fields', async () => {
    const everyone = await connectEach(alice, bob, carol, carol, dave);
    const expectEveryone = async (updateType: string, data: unknown) => {
      for (const client of everyone) {
        const event = await client.waitFor(
          'deal-updated',
          (e) => e.dealId === deal.id && e.updateType === updateType,
        );
        // The object under `data` (spec §7) and again under `dealData` (the original client's name).
        expect(event).toEqual({ dealId: deal.id, updateType, data, dealData: data });
      }
    };

    // Public fields only: nobody's own bid, and not what the caller may do (`can`).
    const publicOf = ({ can: _can, ...fields }: Deal) => ({ ...fields, my_bid: null });
    const deal = await createDeal(server, alice);
    await expectEveryone('created', publicOf(deal));
    const joined = await joinDeal(server, bob, deal.id);
    await expectEveryone('joined', publicOf(joined));
    const left = await server.put<Deal>(`/api/deals/leave-deal-as-dealer/${deal.id}`, { token: bob.token });
    expect(left.status).toBe(200);
    await expectEveryone('left', publicOf(left.body));
    const deleted = await server.delete(`/api/deals/delete-deal/${deal.id}`, { token: alice.token });
    expect(deleted.status).toBe(200);
    await expectEveryone('deleted', { id: deal.id });

    await quietPeriod();
    for (const client of everyone) {
      const updateTypes = client.all('deal-updated', ofDeal(deal.id)).map((e) => e.updateType);
      expect(updateTypes).toEqual(['created', 'joined', 'left', 'deleted']);
    }
  });

  it('sends bid-updated to the deal’s dealers and the bidder only', async () => {
    const deal = await createDeal(server, alice);
    await joinDeal(server, bob, deal.id);
    const [a, b, c, d, m] = await connectEach(alice, bob, carol, dave, mia);
    const bidId = await placeBid(server, carol, deal.id, 750);
    const updated = await server.put(`/api/bidding/${bidId}`, { token: carol.token, body: { price: 800 } });
    expect(updated.status).toBe(200);
    const bidAt = (price: number) => ({
      id: bidId,
      dealId: deal.id,
      dealmaker: carol.username,
      price,
      timestamp: expect.any(String),
      proposal: null,
      deliveryDays: null,
    });
    for (const client of [a, b, c]) {
      // The object under `data` (spec §7) and again under `bidData` (the original client's name).
      expect(
        await client.waitFor('bid-updated', (e) => e.dealId === deal.id && e.updateType === 'created'),
      ).toEqual({ dealId: deal.id, updateType: 'created', data: bidAt(750), bidData: bidAt(750) });
      expect(
        await client.waitFor('bid-updated', (e) => e.dealId === deal.id && e.updateType === 'updated'),
      ).toEqual({ dealId: deal.id, updateType: 'updated', data: bidAt(800), bidData: bidAt(800) });
    }
    await quietPeriod();
    for (const client of [a, b, c]) expect(client.all('bid-updated', ofDeal(deal.id))).toHaveLength(2);
    expect(d.all('bid-updated')).toEqual([]);
    expect(m.all('bid-updated')).toEqual([]);
  });

  it('sends message-updated to every socket of each participant exactly once, never to an outsider', async () => {
    const deal = await fullDeal();
    // alice: two sockets in the room; bob: outside the room; mia: asked for the room twice.
    const a1 = await inRoom(alice, deal.id);
    const a2 = await inRoom(alice, deal.id);
    const b = await clients.connect(bob.token);
    const m = await inRoom(mia, deal.id);
    expect(await m.joinDeal(deal.id)).toEqual({ ok: true });
    const outsider = await clients.connect(dave.token);
    expect((await outsider.joinDeal(deal.id)).ok).toBe(false);

    const message = await sendMessage(bob, deal.id, 'One copy each');
    for (const client of [a1, a2, b, m]) {
      expect(await client.waitFor('message-updated', (e) => e.messageData.id === message.id)).toEqual({
        dealId: deal.id,
        messageData: message,
        updateType: 'sent',
      });
    }
    await quietPeriod();
    for (const client of [a1, a2, b, m]) expect(client.all('message-updated')).toHaveLength(1);
    expect(outsider.all('message-updated')).toEqual([]);
  });
});

describe('typing', () => {
  let deal: Deal;
  let a: TestClient;
  let b: TestClient;
  let m: TestClient;

  /** A fresh deal with its three participants' sockets in its room. */
  const roomOfThree = async () => {
    deal = await fullDeal();
    [a, b, m] = await Promise.all([inRoom(alice, deal.id), inRoom(bob, deal.id), inRoom(mia, deal.id)]);
  };

  it('keeps the default expiry longer than the client’s 3-second stop delay', () => {
    expect(typingTimeoutMs).toBeGreaterThan(3_000);
  });

  it('tells the room who is typing, always as the socket’s own user, then that they stopped', async () => {
    await roomOfThree();
    // Pretending to be bob changes nothing: the server fills in the socket's user.
    a.emitRaw('user-typing-start', { dealId: deal.id, userInfo: typingUser(bob) });
    a.emitRaw('user-typing-start', {
      dealId: String(deal.id),
      userInfo: { id: 1, username: 'x', full_name: 'x' },
    });
    for (const client of [b, m]) {
      expect(await client.waitFor('typing-updated', typingOf(deal.id, alice, true))).toEqual({
        dealId: deal.id,
        userInfo: typingUser(alice),
        isTyping: true,
      });
    }
    a.emitRaw('user-typing-stop', { dealId: deal.id, userInfo: typingUser(bob) });
    for (const client of [b, m]) {
      expect(
        await client.waitFor('typing-updated', typingOf(deal.id, alice, false), soonerThanExpiry),
      ).toEqual({
        dealId: deal.id,
        userInfo: typingUser(alice),
        isTyping: false,
      });
    }
    await quietPeriod();
    for (const client of [a, b, m]) {
      expect(client.all('typing-updated', (e) => e.userInfo.id !== userId(alice))).toEqual([]);
      // A second start while typing announces nothing new.
      expect(client.all('typing-updated').map((e) => e.isTyping)).toEqual([true, false]);
    }
  });

  it('ends the indicator when the typist disconnects', async () => {
    await roomOfThree();
    b.emitRaw('user-typing-start', { dealId: deal.id });
    await a.waitFor('typing-updated', typingOf(deal.id, bob, true));
    b.close();
    await a.waitFor('typing-updated', typingOf(deal.id, bob, false), soonerThanExpiry);
    await m.waitFor('typing-updated', typingOf(deal.id, bob, false), soonerThanExpiry);
  });

  it('ends the indicator when the typist leaves the room and does not come back, and the room’s events stop reaching it', async () => {
    await roomOfThree();
    b.emitRaw('user-typing-start', { dealId: deal.id });
    await a.waitFor('typing-updated', typingOf(deal.id, bob, true));
    const left = performance.now();
    b.emitRaw('leave-deal-room', deal.id);
    await a.waitFor('typing-updated', typingOf(deal.id, bob, false), soonerThanExpiry);
    // Not at once: a client may leave and rejoin the room on every render (the original system's does).
    expect(performance.now() - left).toBeGreaterThanOrEqual(rejoinGrace - 50);
    a.emitRaw('user-typing-start', { dealId: deal.id });
    await m.waitFor('typing-updated', typingOf(deal.id, alice, true));
    await quietPeriod();
    expect(b.all('typing-updated', typingOf(deal.id, alice))).toEqual([]);
  });

  it('keeps the indicator through a leave and a rejoin within the grace period, and ends it on stop', async () => {
    await roomOfThree();
    b.emitRaw('user-typing-start', { dealId: deal.id });
    await a.waitFor('typing-updated', typingOf(deal.id, bob, true));
    b.emitRaw('leave-deal-room', deal.id);
    expect(await b.joinDeal(deal.id)).toEqual({ ok: true });
    await sleep(rejoinGrace + 200);
    expect(a.all('typing-updated', typingOf(deal.id, bob, false))).toEqual([]);
    b.emitRaw('user-typing-stop', { dealId: deal.id });
    await a.waitFor('typing-updated', typingOf(deal.id, bob, false), soonerThanExpiry);
    expect(a.all('typing-updated', typingOf(deal.id, bob)).map((e) => e.isTyping)).toEqual([true, false]);
  });

  it('expires an indicator that never gets its stop', async () => {
    await roomOfThree();
    m.emitRaw('user-typing-start', { dealId: deal.id });
    await a.waitFor('typing-updated', typingOf(deal.id, mia, true));
    const started = performance.now();
    await a.waitFor('typing-updated', typingOf(deal.id, mia, false), typingTimeout + 2_000);
    expect(performance.now() - started).toBeGreaterThanOrEqual(typingTimeout - 100);
  });

  it('ignores typing from a socket that is not in the room', async () => {
    await roomOfThree();
    const bobElsewhere = await clients.connect(bob.token);
    bobElsewhere.emitRaw('user-typing-start', { dealId: deal.id });
    a.emitRaw('user-typing-start', { dealId: deal.id });
    await m.waitFor('typing-updated', typingOf(deal.id, alice, true));
    await quietPeriod();
    expect(m.all('typing-updated', typingOf(deal.id, bob))).toEqual([]);
  });
});

describe('leaving a deal', () => {
  it('takes the counterpart’s sockets out of the deal’s room: no more typing from it, ended typing for it', async () => {
    const deal = await fullDeal();
    const a = await inRoom(alice, deal.id);
    const b = await inRoom(bob, deal.id);
    const m = await inRoom(mia, deal.id);
    b.emitRaw('user-typing-start', { dealId: deal.id });
    await a.waitFor('typing-updated', typingOf(deal.id, bob, true));

    const left = await server.put(`/api/deals/leave-deal-as-dealer/${deal.id}`, { token: bob.token });
    expect(left.status).toBe(200);
    // bob was typing: the others learn that he stopped.
    await a.waitFor('typing-updated', typingOf(deal.id, bob, false), soonerThanExpiry);
    await m.waitFor('typing-updated', typingOf(deal.id, bob, false), soonerThanExpiry);

    a.emitRaw('user-typing-start', { dealId: deal.id });
    await m.waitFor('typing-updated', typingOf(deal.id, alice, true));
    b.emitRaw('user-typing-start', { dealId: deal.id });
    await quietPeriod();
    expect(b.all('typing-updated', typingOf(deal.id, alice))).toEqual([]);
    expect(a.all('typing-updated', typingOf(deal.id, bob))).toHaveLength(2);
    expect(await b.joinDeal(deal.id)).toEqual({
      ok: false,
      message: 'Only the participants of this deal can join its room.',
    });

    // Nor does the chat reach him any more.
    const message = await sendMessage(alice, deal.id, 'After bob left');
    await m.waitFor('message-updated', (e) => e.messageData.id === message.id);
    await quietPeriod();
    expect(b.all('message-updated', (e) => e.messageData.id === message.id)).toEqual([]);
  });
});

describe('malformed client events', () => {
  const clientEvents = [
    'join-user-room',
    'join-deal-room',
    'leave-deal-room',
    'user-typing-start',
    'user-typing-stop',
  ];
  const deep = JSON.parse(`${'['.repeat(200)}1${']'.repeat(200)}`);
  const garbage = (dealId: number): unknown[] => [
    undefined,
    null,
    true,
    false,
    0,
    -1,
    1.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    1e308,
    2 ** 31,
    Number.MAX_SAFE_INTEGER,
    '',
    '   ',
    'abc',
    `${dealId}abc`,
    '1e3',
    '0x10',
    'x'.repeat(100_000),
    [],
    [dealId],
    [dealId, dealId],
    deep,
    {},
    { dealId: null },
    { dealId: 'abc' },
    { dealId: {} },
    { dealId: [dealId] },
    { dealId: true },
    { dealId: 1e308 },
    { dealId: -5 },
    { dealId: `${dealId}.5` },
    { toString: 1, valueOf: 1 },
    { dealId: { toString: 1, valueOf: 1 } },
    { dealId: { toString: 'function () {}', valueOf: null } },
    JSON.parse(`{"__proto__": {"dealId": ${dealId}}}`),
    { constructor: { prototype: { dealId } } },
    Buffer.from('binary payload'),
    { dealId: Buffer.from(String(dealId)) },
  ];

  it('leave the server up and answering and the socket connected; none of them joins, leaves or types', async () => {
    const deal = await createDeal(server, alice);
    await joinDeal(server, bob, deal.id);
    const a = await inRoom(alice, deal.id);
    const b = await inRoom(bob, deal.id);
    for (const event of [...clientEvents, 'no-such-event']) {
      for (const payload of garbage(deal.id)) {
        a.emitRaw(event, payload);
        a.emitRaw(event, payload, payload, payload);
        a.emitRaw(event, { dealId: payload }, 'not-an-acknowledgement');
      }
      // A function in place of the payload becomes the acknowledgement: the payload is missing.
      a.emitRaw(event, () => {});
      a.emitRaw(event);
    }
    // Every malformed id is refused with an answer, not ignored into a hang.
    for (const payload of garbage(deal.id)) {
      expect(await a.socket.timeout(5_000).emitWithAck('join-deal-room', payload as number)).toEqual({
        ok: false,
        message: 'Invalid deal id.',
      });
    }

    await expectHealthy();
    expect(a.connected).toBe(true);
    expect(b.all('typing-updated')).toEqual([]);
    // Still in the room (no garbage made it leave) and still typing as itself.
    a.emitRaw('user-typing-start', { dealId: deal.id });
    await b.waitFor('typing-updated', typingOf(deal.id, alice, true));
    expect(await a.joinDeal(deal.id)).toEqual({ ok: true });
  });

  it('closes only the connection that sends a broken packet', async () => {
    const a = await clients.connect(alice.token);
    const b = await clients.connect(bob.token);
    const closed = a.disconnection();
    // A raw Engine.IO message that is not a valid Socket.IO packet.
    (a.socket.io.engine as unknown as { send(data: string): void }).send('2["join-deal-room", 1');
    await closed;
    await expectHealthy();
    expect(b.connected).toBe(true);
    expect(await b.joinDeal('abc')).toEqual({ ok: false, message: 'Invalid deal id.' });
  });
});

describe('reconnecting', () => {
  it('gives a client that missed messages while disconnected everything exactly once after a refetch', async () => {
    const deal = await createDeal(server, alice);
    await joinDeal(server, bob, deal.id);
    const b = await inRoom(bob, deal.id);
    const live = () => b.all('message-updated', ofDeal(deal.id)).map((e) => e.messageData);

    const before = [await sendMessage(alice, deal.id, 'one'), await sendMessage(bob, deal.id, 'two')];
    await b.waitFor('message-updated', (e) => e.messageData.id === before[1]!.id);

    const closed = b.disconnection();
    b.socket.disconnect();
    await closed;
    const missed = [];
    for (const content of ['three', 'four', 'five']) missed.push(await sendMessage(alice, deal.id, content));

    await b.connect();
    // The user room comes back by itself; the deal room is asked for again, as the web app does.
    expect(await b.joinDeal(deal.id)).toEqual({ ok: true });
    const after = await sendMessage(alice, deal.id, 'six');
    await b.waitFor('message-updated', (e) => e.messageData.id === after.id);
    expect(live().map((message) => message.content)).toEqual(['one', 'two', 'six']);

    const history = await server.get<Message[]>(`/api/messages/deal/${deal.id}`, { token: bob.token });
    expect(history.status).toBe(200);
    const all = [...before, ...missed, after];
    // The server's side of the contract: the history holds every message once, oldest first, each
    // exactly as it was announced live (same id and createdAt), so the client can merge by id.
    expect(history.body).toEqual(all);
    for (const message of live()) expect(history.body).toContainEqual(message);

    // The client's side: merge live and fetched, drop duplicates by id, sort by createdAt.
    const merged = [
      ...new Map([...live(), ...history.body].map((message) => [message.id, message])).values(),
    ].sort((x, y) => x.createdAt.localeCompare(y.createdAt) || x.id - y.id);
    expect(merged).toEqual(all);
  });
});
