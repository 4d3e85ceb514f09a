import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Deal } from '../../../contract/deals';
import type { ErrorBody } from '../../../contract/errors';
import { maxId } from '../../../contract/fields';
import type { Message } from '../../../contract/messages';
import { poolOf } from '../../db/driver';
import { queryNamed, registeredStatements } from '../../db/prepared';
import {
  assignDealmakerByRequest,
  createDeal,
  dealWithDealers,
  isoTimestamp,
  signUpMany,
} from '../../test/deal-fixtures';
import { dealNotFound, invalid, signInFirst } from '../../test/expected-errors';
import { type ApiResponse, type SignedUpUser, startTestServer, type TestServer } from '../../test/harness';
import { quietPeriod, TestClients } from '../../test/socket-client';
import { testAdminUrl, withDatabase } from '../../test/test-database';
import { type ChatSendOutcome, ChatSends } from './chat-sends';
import { presentMessage } from './messages.presenter';

const participantsOnly = { message: 'Only the participants of this deal can do this.', code: 'FORBIDDEN' };

let server: TestServer;
let clients: TestClients;
let alice: SignedUpUser;
let bob: SignedUpUser;
let carol: SignedUpUser;
let mia: SignedUpUser;
/** alice created it, bob joined it, mia is its dealmaker; carol is an outsider. */
let deal: Deal;

beforeAll(async () => {
  server = await startTestServer();
  clients = new TestClients(server.url);
  [alice, bob, carol, mia] = await signUpMany(server, 4);
  deal = await dealWithDealers(server, alice, bob);
  await assignDealmakerByRequest(server, alice, deal.id, mia);
});
afterEach(() => clients.closeAll());
afterAll(() => server.close());

const userId = (user: SignedUpUser) => user.user.id as number;
/** The body of a refused call. */
const errorOf = (response: ApiResponse<unknown>) => response.body as ErrorBody;
const send = (user: SignedUpUser | null, body: unknown) =>
  server.post<Message>('/api/messages/send', { token: user?.token, body });
const history = (user: SignedUpUser | null, dealId: number, query = '') =>
  server.get<Message[]>(`/api/messages/deal/${dealId}${query}`, { token: user?.token });

const contents = (messages: Message[]) => messages.map((message) => message.content);

async function sent(user: SignedUpUser, dealId: number, content: string, clientId?: string) {
  const response = await send(user, { dealId, content, ...(clientId ? { clientId } : {}) });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

describe('POST /api/messages/send', () => {
  it('stores the message and answers 201 with its full shape', async () => {
    const response = await send(alice, { dealId: deal.id, content: 'Hello Bob' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      dealId: deal.id,
      content: 'Hello Bob',
      createdAt: isoTimestamp,
      senderId: userId(alice),
      sender: { id: userId(alice), username: alice.username, full_name: alice.full_name },
      senderUsername: alice.username,
      clientId: null,
    });
    const stored = await history(alice, deal.id);
    expect(stored.body.at(-1)).toEqual(response.body);
  });

  it('lets every participant send: creator, counterpart and dealmaker', async () => {
    for (const user of [alice, bob, mia]) {
      const message = await sent(user, deal.id, `From ${user.username}`);
      expect(message).toMatchObject({ senderId: userId(user), senderUsername: user.username });
    }
  });

  it('trims the content', async () => {
    const message = await sent(bob, deal.id, '  \n\t Trimmed on both sides \t\n ');
    expect(message.content).toBe('Trimmed on both sides');
  });

  it('refuses empty and whitespace-only content with 400', async () => {
    for (const content of ['', ' ', '   \n\t  ', '\u00a0\u2003']) {
      const response = await send(alice, { dealId: deal.id, content });
      expect(response.status, JSON.stringify(content)).toBe(400);
      expect(response.body).toEqual(invalid('content', 'Message cannot be empty'));
    }
  });

  it('takes 1000 characters and refuses 1001 with 400', async () => {
    const longest = 'x'.repeat(1000);
    expect((await sent(alice, deal.id, longest)).content).toBe(longest);
    expect((await sent(alice, deal.id, `   ${longest}   `)).content).toBe(longest);
    const response = await send(alice, { dealId: deal.id, content: 'x'.repeat(1001) });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(invalid('content', 'Message must be at most 1000 characters'));
  });

  it('refuses a malformed body with 400', async () => {
    const bodies = [
      { dealId: deal.id },
      { dealId: deal.id, content: 42 },
      { dealId: deal.id, content: ['hi'] },
      { content: 'no deal' },
      { dealId: 'abc', content: 'hi' },
      { dealId: String(deal.id), content: 'hi' },
      { dealId: 0, content: 'hi' },
      { dealId: -1, content: 'hi' },
      { dealId: 1.5, content: 'hi' },
      { dealId: 2 ** 31, content: 'hi' },
      [],
      'hi',
    ];
    for (const body of bodies) {
      const response = await send(alice, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(errorOf(response).code).toBe('VALIDATION_FAILED');
    }
  });

  it('refuses a non-participant with 403 and stores nothing', async () => {
    const before = (await history(alice, deal.id)).body.length;
    expect((await send(carol, { dealId: deal.id, content: 'Let me in' })).body).toEqual(participantsOnly);
    expect((await send(carol, { dealId: deal.id, content: 'Let me in' })).status).toBe(403);
    expect((await history(alice, deal.id)).body).toHaveLength(before);
  });

  it('refuses a counterpart who left the deal with 403', async () => {
    const own = await dealWithDealers(server, alice, carol);
    await sent(carol, own.id, 'Before leaving');
    const left = await server.put(`/api/deals/leave-deal-as-dealer/${own.id}`, { token: carol.token });
    expect(left.status).toBe(200);
    const response = await send(carol, { dealId: own.id, content: 'After leaving' });
    expect(response.status).toBe(403);
    expect(response.body).toEqual(participantsOnly);
  });

  it('answers 404 for a deal that does not exist', async () => {
    const response = await send(alice, { dealId: 2_000_000_000, content: 'Anyone?' });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(dealNotFound);
  });

  it('answers 401 without a valid token', async () => {
    const response = await send(null, { dealId: deal.id, content: 'Who am I' });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(signInFirst);
    const forged = await server.post('/api/messages/send', {
      headers: { authorization: 'Bearer not.a.token' },
      body: { dealId: deal.id, content: 'Who am I' },
    });
    expect(forged.status).toBe(401);
    expect(forged.body).toEqual(signInFirst);
  });

  it('stores one message for a clientId sent twice, and both answers carry it', async () => {
    const first = await send(alice, { dealId: deal.id, content: 'Sent once', clientId: 'retry-1' });
    const retry = await send(alice, { dealId: deal.id, content: 'Sent once', clientId: 'retry-1' });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(first.body.clientId).toBe('retry-1');
    expect(retry.body).toEqual(first.body);
    const stored = (await history(alice, deal.id, '?limit=100')).body.filter((m) => m.clientId === 'retry-1');
    expect(stored).toEqual([first.body]);
  });

  it('stores one message when the same clientId arrives several times at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => send(bob, { dealId: deal.id, content: 'Raced', clientId: 'race_1' })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    const stored = (await history(bob, deal.id, '?limit=100')).body.filter((m) => m.clientId === 'race_1');
    expect(stored).toHaveLength(1);
  });

  it('keeps clientIds apart per sender and per deal', async () => {
    const other = await dealWithDealers(server, alice, bob);
    const fromAlice = await sent(alice, deal.id, 'Mine', 'shared-id');
    const fromBob = await sent(bob, deal.id, 'Mine too', 'shared-id');
    const elsewhere = await sent(alice, other.id, 'Other deal', 'shared-id');
    expect(new Set([fromAlice.id, fromBob.id, elsewhere.id]).size).toBe(3);
  });

  it('announces a retried message once', async () => {
    const socket = await clients.connect(bob.token);
    const first = await sent(alice, deal.id, 'Announced once', 'announce-once');
    await sent(alice, deal.id, 'Announced once', 'announce-once');
    await socket.waitFor('message-updated', (event) => event.messageData.id === first.id);
    await quietPeriod();
    expect(
      socket.all('message-updated', (event) => event.messageData.clientId === 'announce-once'),
    ).toHaveLength(1);
  });

  it('answers sends racing the deal’s deletion with 201 or 404, never an error, and keeps none of them', async () => {
    for (let round = 0; round < 5; round++) {
      const doomed = await dealWithDealers(server, alice, bob);
      const sends = Array.from({ length: 10 }, (_, i) =>
        send(i % 2 ? bob : alice, { dealId: doomed.id, content: `racing ${i}` }),
      );
      const deletion = server.delete(`/api/deals/delete-deal/${doomed.id}`, { token: alice.token });
      const answers = await Promise.all(sends);
      expect((await deletion).status).toBe(200);
      for (const answer of answers) {
        expect([201, 404], JSON.stringify(answer.body)).toContain(answer.status);
        if (answer.status === 404) expect(answer.body).toEqual(dealNotFound);
      }
      expect((await history(alice, doomed.id)).status).toBe(404);
    }
  });

  it('answers a counterpart’s sends racing their leave with 201 or 403, and stores exactly the accepted ones', async () => {
    const own = await dealWithDealers(server, alice, carol);
    const sends = Array.from({ length: 10 }, (_, i) =>
      send(carol, { dealId: own.id, content: `leaving ${i}` }),
    );
    const leave = server.put(`/api/deals/leave-deal-as-dealer/${own.id}`, { token: carol.token });
    const answers = await Promise.all(sends);
    expect((await leave).status).toBe(200);
    for (const answer of answers) {
      expect([201, 403], JSON.stringify(answer.body)).toContain(answer.status);
    }
    const stored = (await history(alice, own.id)).body.map((message) => message.id).sort((x, y) => x - y);
    const accepted = answers.filter((answer) => answer.status === 201).map((answer) => answer.body.id);
    expect(stored).toEqual(accepted.sort((x, y) => x - y));
  });

  it("stores the message and its recipients' chat notification together, and delivers it live", async () => {
    const own = await dealWithDealers(server, alice, bob);
    const inbox = async () =>
      (
        await server.get<{
          notifications: Array<{ id: number; kind: string; dealId: number | null }>;
          unreadCount: number;
        }>('/api/notifications', { token: bob.token })
      ).body;
    const before = await inbox();
    const socket = await clients.connect(bob.token);
    const message = await sent(alice, own.id, 'With its notice');
    const live = await socket.waitFor('notification', (event) => event.dealId === own.id);
    const after = await inbox();
    expect(live).toEqual({
      id: expect.any(Number),
      kind: 'message',
      dealId: own.id,
      message: `${alice.username} sent you a message on "${own.title}".`,
      count: 1,
      createdAt: isoTimestamp,
      unreadCount: before.unreadCount + 1,
    });
    expect(after.unreadCount).toBe(before.unreadCount + 1);
    expect(after.notifications[0]).toMatchObject({ id: live.id, kind: 'message', dealId: own.id });
    // A second message of the same burst adds nothing: the notice tells of the first unread message.
    socket.clear();
    await sent(alice, own.id, 'Same burst');
    await quietPeriod();
    expect(socket.all('notification')).toEqual([]);
    expect((await inbox()).unreadCount).toBe(after.unreadCount);
    expect((await history(bob, own.id)).body.map((entry) => entry.id)).toContain(message.id);
  });

  it('keeps and answers a message whose live event fails to go out', async () => {
    const detach = server.app.services.events.attach({
      publish() {
        throw new Error('socket layer down');
      },
      leaveDeal() {},
    });
    let message: Message;
    try {
      message = await sent(alice, deal.id, 'Stored without the socket layer');
    } finally {
      detach();
    }
    expect((await history(bob, deal.id)).body.at(-1)).toEqual(message);
  });

  it('refuses a malformed clientId with 400', async () => {
    for (const clientId of ['', 'has space', 'x'.repeat(65), 'ünïcode', 'semi;colon', 42, null]) {
      const response = await send(alice, { dealId: deal.id, content: 'hi', clientId });
      expect(response.status, JSON.stringify(clientId)).toBe(400);
      expect(errorOf(response).code).toBe('VALIDATION_FAILED');
      expect(errorOf(response).fieldErrors).toHaveProperty('clientId');
    }
    expect((await sent(alice, deal.id, 'hi', 'A-z_0-9')).clientId).toBe('A-z_0-9');
    expect((await sent(alice, deal.id, 'hi', 'x'.repeat(64))).clientId).toBe('x'.repeat(64));
  });
});

describe('a sender’s messages sent at once', () => {
  const sender = () => ({ id: userId(alice), username: alice.username });
  /** A deal of alice (creator) and bob, as the policy check saw it, and a fresh gathering of sends. */
  async function setUp() {
    const own = await dealWithDealers(server, alice, bob);
    const seen = await server.app.services.dealAccess.find(own.id);
    const sends = new ChatSends({ db: server.db, notifications: server.app.services.notifications });
    const add = (content: string, clientId: string | null = null, deal = seen) =>
      sends.add({ deal, sender: sender(), message: { content, clientId } });
    return { own, seen, add };
  }
  const storedOf = (outcome: ChatSendOutcome) => (outcome.status === 'stored' ? outcome.message : undefined);
  const storedTimes = async (dealId: number) =>
    (
      await poolOf(server.db).query<{ created_at: Date }>(
        'select created_at from messages where deal_id = $1 order by id',
        [dealId],
      )
    ).rows.map((row) => row.created_at.getTime());

  it('stores those that wait for the one in flight together, in their order, each answered with its own', async () => {
    const { own, add } = await setUp();
    const outcomes = await Promise.all(['first', 'second', 'third', 'fourth'].map((content) => add(content)));
    const messages = outcomes.map(storedOf);
    expect(messages.map((message) => message?.content)).toEqual(['first', 'second', 'third', 'fourth']);
    const ids = messages.map((message) => message!.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    // The first went alone; the three that came meanwhile went in one statement (one transaction time).
    const [alone, ...together] = await storedTimes(own.id);
    expect(together).toEqual([together[0], together[0], together[0]]);
    expect(alone).not.toBe(together[0]);
    // Bob is told once, by the first: the others are of the same unread burst.
    expect(outcomes.map((outcome) => (outcome.status === 'stored' ? outcome.notices.length : -1))).toEqual([
      1, 0, 0, 0,
    ]);
    expect((await history(bob, own.id)).body).toEqual(messages.map((message) => presentMessage(message!)));
  });

  it('stores a clientId once, whether it was used before or twice in the same statement', async () => {
    const { own, add } = await setUp();
    const outcomes = await Promise.all([
      add('Once', 'together-1'),
      add('Once, retried', 'together-1'),
      add('Twice at once', 'together-2'),
      add('Twice at once, retried', 'together-2'),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['stored', 'stored', 'stored', 'stored']);
    expect(outcomes.map((outcome) => storedOf(outcome)?.content ?? null)).toEqual([
      'Once',
      null,
      'Twice at once',
      null,
    ]);
    expect(contents((await history(alice, own.id)).body)).toEqual(['Once', 'Twice at once']);
  });

  it('stores a message whose sender saw the deal otherwise by a statement of its own, which finds it changed', async () => {
    const { own, seen, add } = await setUp();
    const outcomes = await Promise.all([
      add('Seen right'),
      add('Seen with an old title', null, { ...seen, title: 'An old title' }),
      add('Seen right too'),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['stored', 'changed', 'stored']);
    expect(contents((await history(alice, own.id)).body)).toEqual(['Seen right', 'Seen right too']);
  });

  it('fails only the messages of a statement that fails, and the next ones are stored', async () => {
    const { own, add } = await setUp();
    const results = await Promise.allSettled([add('first'), add('second'), add('not text \u0000')]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect(storedOf(await add('after'))?.content).toBe('after');
    expect(contents((await history(alice, own.id)).body)).toEqual(['first', 'after']);
  });

  it('answers each of many sent at once over HTTP with its own message, stored once and announced once', async () => {
    const own = await dealWithDealers(server, alice, bob);
    const socket = await clients.connect(bob.token);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        send(alice, {
          dealId: own.id,
          content: `At once ${i}`,
          ...(i % 3 ? {} : { clientId: `at-once-${i}` }),
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    expect(answers.map((answer) => answer.body.content)).toEqual(
      Array.from({ length: 20 }, (_, i) => `At once ${i}`),
    );
    expect(answers.map((answer) => answer.body.clientId)).toEqual(
      Array.from({ length: 20 }, (_, i) => (i % 3 ? null : `at-once-${i}`)),
    );
    const stored = (await history(bob, own.id)).body;
    expect(stored).toEqual([...answers.map((answer) => answer.body)].sort((x, y) => x.id - y.id));
    await socket.waitFor('message-updated', () => socket.all('message-updated').length === 20);
    await quietPeriod();
    expect(
      socket
        .all('message-updated')
        .map((event) => event.messageData.id)
        .sort((x, y) => x - y),
    ).toEqual(stored.map((message) => message.id));
    expect(socket.all('notification', (event) => event.dealId === own.id)).toHaveLength(1);
  });
});

describe('GET /api/messages/deal/{dealId}', () => {
  /** A deal of alice and bob with 60 messages, "message 0" … "message 59". */
  let chat: Deal;
  let all: Message[];

  beforeAll(async () => {
    chat = await dealWithDealers(server, alice, bob);
    all = [];
    for (let i = 0; i < 60; i++) all.push(await sent(i % 2 ? bob : alice, chat.id, `message ${i}`));
  });

  const range = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, index) => `message ${from + index}`);

  it('answers the latest 50 messages, oldest first, each in full', async () => {
    const response = await history(bob, chat.id);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(all.slice(10));
    expect(contents(response.body)).toEqual(range(10, 60));
    const times = response.body.map((message) => message.createdAt);
    expect(times).toEqual([...times].sort());
  });

  it('pages back with the before cursor', async () => {
    const latest = (await history(alice, chat.id)).body;
    const older = await history(alice, chat.id, `?before=${latest[0]!.id}`);
    expect(older.status).toBe(200);
    expect(older.body).toEqual(all.slice(0, 10));
    const oldest = await history(alice, chat.id, `?before=${older.body[0]!.id}`);
    expect(oldest.body).toEqual([]);
    const page = await history(alice, chat.id, `?before=${all[30]!.id}&limit=5`);
    expect(contents(page.body)).toEqual(range(25, 30));
  });

  it('takes a limit from 1 to 100', async () => {
    expect(contents((await history(alice, chat.id, '?limit=1')).body)).toEqual(['message 59']);
    expect(contents((await history(alice, chat.id, '?limit=10')).body)).toEqual(range(50, 60));
    expect((await history(alice, chat.id, '?limit=100')).body).toEqual(all);
  });

  it('refuses a limit or cursor out of bounds with 400', async () => {
    for (const query of [
      '?limit=0',
      '?limit=101',
      '?limit=-1',
      '?limit=abc',
      '?limit=1.5',
      '?before=0',
      '?before=abc',
    ]) {
      const response = await history(alice, chat.id, query);
      expect(response.status, query).toBe(400);
      expect(errorOf(response).code).toBe('VALIDATION_FAILED');
    }
  });

  it('gives every participant the same history and an empty one for a quiet deal', async () => {
    const asAlice = (await history(alice, deal.id, '?limit=100')).body;
    expect((await history(bob, deal.id, '?limit=100')).body).toEqual(asAlice);
    expect((await history(mia, deal.id, '?limit=100')).body).toEqual(asAlice);
    const quiet = await createDeal(server, alice);
    expect((await history(alice, quiet.id)).body).toEqual([]);
  });

  it('refuses a non-participant with 403, an unknown deal with 404, no token with 401', async () => {
    expect((await history(carol, chat.id)).status).toBe(403);
    expect((await history(carol, chat.id)).body).toEqual(participantsOnly);
    expect((await history(mia, chat.id)).status).toBe(403);
    const unknown = await history(alice, 2_000_000_000);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(dealNotFound);
    const anonymous = await history(null, chat.id);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(signInFirst);
    expect((await server.get(`/api/messages/deal/abc`, { token: alice.token })).status).toBe(400);
  });

  it('refuses an outsider and a missing deal the same way on every page, with messages or none', async () => {
    const quiet = await createDeal(server, alice);
    for (const query of ['', `?before=${all[30]!.id}`, `?after=${all[30]!.id}`, '?after=1&limit=1']) {
      for (const dealId of [chat.id, quiet.id]) {
        const refused = await history(carol, dealId, query);
        expect(refused.status, `${dealId}${query}`).toBe(403);
        expect(refused.body).toEqual(participantsOnly);
      }
      const unknown = await history(alice, 2_000_000_000, query);
      expect(unknown.status, query).toBe(404);
      expect(unknown.body).toEqual(dealNotFound);
    }
  });

  it('answers a participant an empty page past either end, and refuses one who left with 403', async () => {
    expect(await history(bob, chat.id, `?after=${all.at(-1)!.id}`)).toMatchObject({ status: 200, body: [] });
    expect(await history(bob, chat.id, `?before=${all[0]!.id}`)).toMatchObject({ status: 200, body: [] });
    const own = await dealWithDealers(server, alice, carol);
    await sent(carol, own.id, 'Before leaving');
    expect((await history(carol, own.id)).body).toHaveLength(1);
    const left = await server.put(`/api/deals/leave-deal-as-dealer/${own.id}`, { token: carol.token });
    expect(left.status).toBe(200);
    const refused = await history(carol, own.id);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(participantsOnly);
    expect(contents((await history(alice, own.id)).body)).toEqual(['Before leaving']);
  });

  it('writes createdAt as the stored time in UTC to the millisecond', async () => {
    const stored = await poolOf(server.db).query<{ id: number; created_at: Date }>(
      'select id, created_at from messages where deal_id = $1 order by id',
      [chat.id],
    );
    expect(all.map((message) => message.createdAt)).toEqual(
      stored.rows.map((row) => row.created_at.toISOString()),
    );
    expect((await history(alice, chat.id, '?limit=100')).body).toEqual(all);
  });
});

describe('the chat statements', () => {
  const statement = (name: string) => {
    const found = registeredStatements().find((candidate) => candidate.name === name);
    if (!found) throw new Error(`no statement ${name}`);
    return found;
  };

  /**
   * PostgreSQL plans a named statement for its values five times, then keeps its generic plan unless
   * that looks dearer than planning each call afresh. Each of these must keep it on a long chat, with
   * PostgreSQL's default page cost (the server's role has 1.1): there, the send was planned again for
   * every message (its notices' unread count costed per guessed recipient) and so was a page of
   * history (`limit $limit` costed as a tenth of the chat).
   */
  it('keep their generic plans on a long chat, whatever the session time zone', async () => {
    // As the owner, on a connection of its own: ANALYZE, and no plan the server's connections made.
    const [{ name }] = (await poolOf(server.db).query<{ name: string }>('select current_database() as name'))
      .rows as [{ name: string }];
    const client = new pg.Client({ connectionString: withDatabase(testAdminUrl(), name) });
    await client.connect();
    try {
      await client.query('begin');
      await client.query(
        `insert into messages (deal_id, sender_id, content)
         select $1, $2, 'Filler ' || n from generate_series(1, 50000) n`,
        [deal.id, userId(alice)],
      );
      await client.query(
        `insert into notifications (user_id, kind, deal_id, actor_id, message)
         select $1, 'deal-updated', $2, $3, 'Filler ' || n from generate_series(1, 5000) n`,
        [userId(carol), deal.id, userId(alice)],
      );
      await client.query('analyze messages, notifications');
      await client.query('set local random_page_cost = 4');
      // A page's times are written in UTC whatever the session's zone (+12:45 or +13:45 here).
      await client.query(`set local timezone = 'Pacific/Chatham'`);
      const [row] = (
        await client.query<{
          creator_id: number;
          counterpart_id: number;
          dealmaker_id: number;
          title: string;
        }>('select creator_id, counterpart_id, dealmaker_id, title from deals where id = $1', [deal.id])
      ).rows;
      const runs = [
        {
          statement: statement('message_send_with_chat_burst'),
          values: {
            dealId: deal.id,
            creatorId: row!.creator_id,
            counterpartId: row!.counterpart_id,
            dealmakerId: row!.dealmaker_id,
            title: row!.title,
            senderId: userId(alice),
            contents: ['Planned once'],
            clientIds: [null],
          },
          part: {
            recipients: [userId(bob), userId(mia)],
            dealId: deal.id,
            actorId: userId(alice),
            message: 'x',
          },
        },
        {
          statement: statement('message_history_older'),
          values: { dealId: deal.id, viewerId: userId(bob), cursor: maxId + 1, limit: 50 },
        },
        {
          statement: statement('message_history_newer'),
          values: { dealId: deal.id, viewerId: userId(mia), cursor: 0, limit: 50 },
        },
      ];
      for (let call = 0; call < 8; call++) {
        for (const run of runs) await queryNamed(client, run.statement, run.values, run.part);
      }
      const older = runs[1]!;
      const page = older.statement.decode(await queryNamed(client, older.statement, older.values));
      const times = await client.query<{ created_at: Date }>(
        'select created_at from messages where deal_id = $1 order by id desc limit 1',
        [deal.id],
      );
      expect(page.at(-1)?.createdAt).toBe(times.rows[0]!.created_at.toISOString());
      const plans = await client.query<{ name: string; generic_plans: string }>(
        'select name, generic_plans from pg_prepared_statements where name = any($1) order by name',
        [runs.map((one) => one.statement.name)],
      );
      expect(plans.rows.map((plan) => plan.name)).toEqual(runs.map((one) => one.statement.name).sort());
      for (const plan of plans.rows) expect(Number(plan.generic_plans), plan.name).toBeGreaterThanOrEqual(3);
    } finally {
      await client.query('rollback');
      await client.end();
    }
  });
});
