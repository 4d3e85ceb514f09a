import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Message } from '../../contract/messages';
import { createDeal, joinDeal, signUpMany } from '../test/deal-fixtures';
import { type SignedUpUser, startTestServer, type TestServer } from '../test/harness';
import { type TestClient, TestClients } from '../test/socket-client';
import { defaultSocketEventLimits, SocketEventLimiter } from './event-limits';

/**
 * Limits that refill too slowly to matter within a test (one event in 1,000 s), so that every count
 * below is exact: a socket may send 20 events, a user 30 over all their sockets, and a socket is
 * disconnected at its 11th dropped event.
 */
const noRefill = 0.001;
const limits = {
  perSocket: { burst: 20, perSecond: noRefill },
  perUser: { burst: 30, perSecond: noRefill },
  drops: { burst: 10, perSecond: noRefill },
};
const rateLimited = {
  ok: false,
  message: 'Too many events: this one was dropped. Please slow down.',
};
const notParticipant = { ok: false, message: 'Only the participants of this deal can join its room.' };
/** Deal ids nobody has: each join of one is a database lookup unless it is dropped first. */
const absentDealIds = 1_500_000_000;

let server: TestServer;
let clients: TestClients;

beforeAll(async () => {
  server = await startTestServer({ config: { socketEventLimits: limits } });
  clients = new TestClients(server.url);
});
afterEach(() => {
  clients.closeAll();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

type Answer = { ok: boolean; message?: string };

/** Emits join-deal-room for each id, collecting the answers that come back. */
function joinEach(client: TestClient, dealIds: Array<number | string>) {
  const answers: Answer[] = [];
  for (const dealId of dealIds)
    client.socket.emit('join-deal-room', dealId, (answer) => answers.push(answer));
  return answers;
}

const range = (count: number, from = 0) => Array.from({ length: count }, (_, index) => from + index);

describe('a socket that floods the server with events', () => {
  it('is told, then disconnected; its dropped joins never reach the database; everyone else carries on', async () => {
    const [alice, bob, mallory] = await signUpMany(server, 3);
    const deal = await createDeal(server, alice);
    await joinDeal(server, bob, deal.id);
    const bobsSocket = await clients.connect(bob.token);
    const find = vi.spyOn(server.app.services.dealAccess, 'find');

    const flooder = await clients.connect(mallory.token);
    const closed = flooder.disconnection();
    const answers = joinEach(
      flooder,
      range(20_000).map((index) => absentDealIds + index),
    );
    expect(await closed).toBe('io server disconnect');

    // The first 20 were looked up; the next 10 were dropped and answered; the 11th drop disconnected it.
    const floodLookups = find.mock.calls.filter(([dealId]) => dealId >= absentDealIds);
    expect(floodLookups).toHaveLength(limits.perSocket.burst);
    expect(answers.filter((answer) => answer.message === rateLimited.message)).toEqual(
      Array(limits.drops.burst + 1).fill(rateLimited),
    );
    expect(flooder.all('rate-limited')).toEqual(
      Array(limits.drops.burst + 1).fill({ message: rateLimited.message, event: 'join-deal-room' }),
    );

    // Others are served as usual, by the socket and over HTTP.
    expect(await bobsSocket.joinDeal(deal.id)).toEqual({ ok: true });
    const sent = await server.post<Message>('/api/messages/send', {
      token: alice.token,
      body: { dealId: deal.id, content: 'Still here' },
    });
    expect(sent.status).toBe(201);
    expect(await bobsSocket.waitFor('message-updated', (e) => e.messageData.id === sent.body.id)).toEqual({
      dealId: deal.id,
      messageData: sent.body,
      updateType: 'sent',
    });
    expect((await server.get(`/api/deals/${deal.id}`, { token: bob.token })).status).toBe(200);
    expect(bobsSocket.all('rate-limited')).toEqual([]);
    // The flooder may come back (and is limited afresh).
    const again = await clients.connect(mallory.token);
    expect(await again.joinDeal(deal.id)).toEqual(notParticipant);
  });

  it('limits a user over all their sockets: a second socket gets only what the first left', async () => {
    const [user] = await signUpMany(server, 1);
    const first = await clients.connect(user.token);
    const second = await clients.connect(user.token);
    // 'abc' is answered without a lookup: the answers come in the order sent.
    const firstAnswers = joinEach(first, Array(limits.perSocket.burst).fill('abc'));
    expect(await first.joinDeal('abc')).toEqual(rateLimited);
    const secondAnswers = joinEach(second, Array(15).fill('abc'));
    expect(await second.joinDeal('abc')).toEqual(rateLimited);

    const invalid = { ok: false, message: 'Invalid deal id.' };
    expect(firstAnswers).toEqual(Array(limits.perSocket.burst).fill(invalid));
    const leftForSecond = limits.perUser.burst - limits.perSocket.burst;
    expect(secondAnswers).toEqual([
      ...Array(leftForSecond).fill(invalid),
      ...Array(15 - leftForSecond).fill(rateLimited),
    ]);
    // Dropped, not yet flooding: both stay connected.
    expect([first.connected, second.connected]).toEqual([true, true]);
    expect(second.all('rate-limited')).toHaveLength(15 - leftForSecond + 1);
    // Another user is not affected.
    const [other] = await signUpMany(server, 1);
    const otherSocket = await clients.connect(other.token);
    expect(await otherSocket.joinDeal('abc')).toEqual(invalid);
  });

  it('counts every kind of event, known or not', async () => {
    const [user] = await signUpMany(server, 1);
    const client = await clients.connect(user.token);
    for (const index of range(limits.perSocket.burst)) {
      client.emitRaw(index % 2 ? 'user-typing-stop' : 'no-such-event', { dealId: 1 });
    }
    expect(await client.joinDeal(1)).toEqual(rateLimited);
    expect(await client.waitFor('rate-limited')).toEqual({
      message: rateLimited.message,
      event: 'join-deal-room',
    });
  });
});

describe('room checks', () => {
  let alice: SignedUpUser;
  let bob: SignedUpUser;

  beforeAll(async () => {
    [alice, bob] = await signUpMany(server, 2);
  });

  it('asks the database once for a participant joining the same room again and again', async () => {
    const deal = await createDeal(server, alice);
    const find = vi.spyOn(server.app.services.dealAccess, 'find');
    const client = await clients.connect(alice.token);
    for (const _ of range(10)) expect(await client.joinDeal(deal.id)).toEqual({ ok: true });
    expect(find.mock.calls.filter(([dealId]) => dealId === deal.id)).toHaveLength(1);
  });

  it('forgets at once that a user who left a deal may join its room', async () => {
    const deal = await createDeal(server, alice);
    await joinDeal(server, bob, deal.id);
    const client = await clients.connect(bob.token);
    expect(await client.joinDeal(deal.id)).toEqual({ ok: true });
    const left = await server.put(`/api/deals/leave-deal-as-dealer/${deal.id}`, { token: bob.token });
    expect(left.status).toBe(200);
    expect(await client.joinDeal(deal.id)).toEqual(notParticipant);
    // Nor does another of his sockets, nor the same one asking again.
    const another = await clients.connect(bob.token);
    expect(await another.joinDeal(deal.id)).toEqual(notParticipant);
    // Who joins a deal may join its room at once: a refusal is not remembered.
    await joinDeal(server, bob, deal.id);
    expect(await client.joinDeal(deal.id)).toEqual({ ok: true });
  });
});

describe('the limiter', () => {
  it('refills each bucket over time and frees a user’s share when their last socket goes', () => {
    let now = 0;
    const limiter = new SocketEventLimiter(
      {
        perSocket: { burst: 2, perSecond: 1 },
        perUser: { burst: 3, perSecond: 1 },
        drops: { burst: 1, perSecond: 1 },
      },
      () => now,
    );
    const one = limiter.open(7);
    const two = limiter.open(7);
    expect([one.check(), one.check(), one.check()]).toEqual(['accept', 'accept', 'drop']);
    expect([two.check(), two.check()]).toEqual(['accept', 'drop']);
    expect(two.check()).toBe('disconnect');
    now = 1_000;
    expect([one.check(), one.check()]).toEqual(['accept', 'drop']);
    one.release();
    one.release();
    expect(limiter.userCount).toBe(1);
    two.release();
    expect(limiter.userCount).toBe(0);
  });

  it('by default lets a person’s client through and cuts a flood short', () => {
    const limiter = new SocketEventLimiter();
    const allowance = limiter.open(1);
    const verdicts = range(20_000).map(() => allowance.check());
    const accepted = verdicts.filter((verdict) => verdict === 'accept').length;
    expect(accepted).toBeGreaterThanOrEqual(defaultSocketEventLimits.perSocket.burst);
    expect(verdicts.indexOf('disconnect')).toBeLessThan(200);
  });
});
