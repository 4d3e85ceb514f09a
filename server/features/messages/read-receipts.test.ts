import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Deal } from '../../../contract/deals';
import type { Message, UnreadMessages } from '../../../contract/messages';
import { assignDealmakerByRequest, dealWithDealers, signUpMany } from '../../test/deal-fixtures';
import { dealNotFound, onlyParticipants, signInFirst, unknownId } from '../../test/expected-errors';
import { type SignedUpUser, startTestServer, type TestServer } from '../../test/harness';
import { recordEvents } from '../../test/recorded-events';
import { quietPeriod, TestClients } from '../../test/socket-client';

let server: TestServer;
let clients: TestClients;
let recorder: ReturnType<typeof recordEvents>;
let alice: SignedUpUser;
let bob: SignedUpUser;
let mia: SignedUpUser;
let carol: SignedUpUser;

beforeAll(async () => {
  server = await startTestServer();
  clients = new TestClients(server.url);
  [alice, bob, mia, carol] = await signUpMany(server, 4);
  recorder = recordEvents(server);
});
afterEach(() => clients.closeAll());
afterAll(() => server.close());

const userId = (user: SignedUpUser) => user.user.id as number;

/** A deal of alice (creator), bob (counterpart) and mia (dealmaker). */
async function threeWayDeal(): Promise<Deal> {
  const deal = await dealWithDealers(server, alice, bob);
  return assignDealmakerByRequest(server, alice, deal.id, mia);
}

async function say(user: SignedUpUser, dealId: number, content: string) {
  const response = await server.post<Message>('/api/messages/send', {
    token: user.token,
    body: { dealId, content },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}
const unread = (user: SignedUpUser | null) =>
  server.get<UnreadMessages>('/api/messages/unread', { token: user?.token });
const markRead = (user: SignedUpUser | null, dealId: number | string, body: unknown) =>
  server.post<{ unread: number }>(`/api/messages/deal/${dealId}/read`, { token: user?.token, body });
const history = (user: SignedUpUser, dealId: number, query: string) =>
  server.get<Message[]>(`/api/messages/deal/${dealId}${query}`, { token: user.token });

describe('GET /api/messages/unread', () => {
  it("counts others' messages after the read mark, per deal, latest activity first", async () => {
    const [owner, partner, other] = await signUpMany(server, 3);
    const first = await dealWithDealers(server, owner, partner);
    const second = await dealWithDealers(server, owner, other);
    await say(partner, first.id, 'a');
    await say(partner, first.id, 'b');
    await say(owner, first.id, 'mine');
    const last = await say(other, second.id, 'c');
    expect((await unread(owner)).body).toEqual({
      deals: [
        { dealId: second.id, unread: 1, lastMessageAt: last.createdAt },
        { dealId: first.id, unread: 2, lastMessageAt: expect.any(String) },
      ],
    });
    expect((await unread(partner)).body).toEqual({
      deals: [{ dealId: first.id, unread: 1, lastMessageAt: expect.any(String) }],
    });
    expect((await unread(carol)).body).toEqual({ deals: [] });
    expect((await unread(null)).status).toBe(401);
  });
});

describe('POST /api/messages/deal/{dealId}/read', () => {
  it('moves the mark forward only and tells the other participants', async () => {
    const deal = await threeWayDeal();
    const one = await say(alice, deal.id, 'one');
    const two = await say(alice, deal.id, 'two');
    await say(alice, deal.id, 'three');
    recorder.take();

    const read = await markRead(bob, deal.id, { lastReadId: two.id });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ unread: 1 });
    expect(recorder.take()).toEqual([
      {
        audience: { users: [userId(alice), userId(mia)] },
        event: 'messages-read',
        payload: { dealId: deal.id, userId: userId(bob), username: bob.username, lastReadId: two.id },
      },
    ]);

    // A lower id never moves it back, and tells nobody.
    expect((await markRead(bob, deal.id, { lastReadId: one.id })).body).toEqual({ unread: 1 });
    expect((await markRead(bob, deal.id, { lastReadId: two.id })).body).toEqual({ unread: 1 });
    expect(recorder.take()).toEqual([]);
    expect((await unread(bob)).body.deals).toEqual([
      { dealId: deal.id, unread: 1, lastMessageAt: expect.any(String) },
    ]);
  });

  it('never marks past the last message', async () => {
    const deal = await threeWayDeal();
    const only = await say(alice, deal.id, 'hi');
    expect((await markRead(bob, deal.id, { lastReadId: 2_000_000_000 })).body).toEqual({ unread: 0 });
    const payload = recorder.take().find((event) => event.event === 'messages-read')!.payload;
    expect(payload).toMatchObject({ lastReadId: only.id });
    await say(alice, deal.id, 'later');
    expect((await unread(bob)).body.deals.find((entry) => entry.dealId === deal.id)).toEqual({
      dealId: deal.id,
      unread: 1,
      lastMessageAt: expect.any(String),
    });
  });

  it('delivers messages-read to the sender live', async () => {
    const deal = await threeWayDeal();
    const socket = await clients.connect(alice.token);
    const message = await say(alice, deal.id, 'seen?');
    await markRead(mia, deal.id, { lastReadId: message.id });
    expect(await socket.waitFor('messages-read')).toEqual({
      dealId: deal.id,
      userId: userId(mia),
      username: mia.username,
      lastReadId: message.id,
    });
  });

  it('refuses outsiders, unknown deals and bad bodies', async () => {
    const deal = await threeWayDeal();
    const stranger = await markRead(carol, deal.id, { lastReadId: 1 });
    expect(stranger.status).toBe(403);
    expect(stranger.body).toEqual(onlyParticipants);
    const unknown = await markRead(alice, unknownId, { lastReadId: 1 });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(dealNotFound);
    const anonymous = await markRead(null, deal.id, { lastReadId: 1 });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(signInFirst);
    for (const body of [{}, { lastReadId: -1 }, { lastReadId: 'x' }, { lastReadId: 1.5 }]) {
      const response = await markRead(alice, deal.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    expect((await markRead(alice, 'abc', { lastReadId: 1 })).status).toBe(400);
  });
});

describe('GET /api/messages/deal/{dealId}?after=', () => {
  it('answers the messages after an id, oldest first, paged by limit', async () => {
    const deal = await threeWayDeal();
    const sent = [];
    for (let index = 1; index <= 5; index++) sent.push(await say(alice, deal.id, `m${index}`));
    const after = await history(bob, deal.id, `?after=${sent[1]!.id}`);
    expect(after.status).toBe(200);
    expect(after.body).toEqual(sent.slice(2));
    expect((await history(bob, deal.id, `?after=${sent[1]!.id}&limit=2`)).body).toEqual(sent.slice(2, 4));
    expect((await history(bob, deal.id, `?after=${sent[4]!.id}`)).body).toEqual([]);
    const both = await history(bob, deal.id, `?after=1&before=${sent[4]!.id}`);
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('lets a client that lost its socket catch up with no gap and no duplicate', async () => {
    const deal = await threeWayDeal();
    const socket = await clients.connect(bob.token);
    await say(alice, deal.id, 'before the drop');
    const seen = (await socket.waitFor('message-updated')).messageData;
    socket.close();
    const missed = [];
    for (let index = 1; index <= 3; index++) missed.push(await say(alice, deal.id, `missed ${index}`));

    const back = await clients.connect(bob.token);
    const caughtUp = (await history(bob, deal.id, `?after=${seen.id}`)).body;
    const live = await say(mia, deal.id, 'after the return');
    await back.waitFor('message-updated', (event) => event.messageData.id === live.id);
    await quietPeriod();
    const received = [
      seen,
      ...caughtUp,
      ...back.all('message-updated').map((event) => event.messageData),
    ].map((message) => message.content);
    expect(received).toEqual(['before the drop', 'missed 1', 'missed 2', 'missed 3', 'after the return']);
  });
});

describe('GET /api/messages/deal/{dealId}/reads', () => {
  it("answers each participant's read mark, to the participants only", async () => {
    const deal = await threeWayDeal();
    const first = await say(alice, deal.id, 'one');
    const second = await say(bob, deal.id, 'two');
    await markRead(bob, deal.id, { lastReadId: first.id });
    await markRead(mia, deal.id, { lastReadId: second.id });
    const reads = await server.get(`/api/messages/deal/${deal.id}/reads`, { token: alice.token });
    expect(reads.status).toBe(200);
    expect(reads.body).toEqual({
      reads: [
        { userId: userId(bob), username: bob.username, lastReadId: first.id },
        { userId: userId(mia), username: mia.username, lastReadId: second.id },
      ].sort((a, b) => a.userId - b.userId),
    });
    const stranger = await server.get(`/api/messages/deal/${deal.id}/reads`, { token: carol.token });
    expect(stranger.status).toBe(403);
    expect(stranger.body).toEqual(onlyParticipants);
    expect((await server.get(`/api/messages/deal/${deal.id}/reads`)).status).toBe(401);
    expect((await server.get(`/api/messages/deal/${unknownId}/reads`, { token: alice.token })).status).toBe(
      404,
    );
  });
});
