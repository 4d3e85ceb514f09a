import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Deal } from '../../../contract/deals';
import { emailedNotificationKinds, type NotificationList } from '../../../contract/notifications';
import type { ServerEvents } from '../../../contract/realtime';
import {
  createDeal,
  isoTimestamp,
  joinDeal,
  placeBid,
  selectBid,
  sendRequest,
  signUpMany,
} from '../../test/deal-fixtures';
import { signInFirst } from '../../test/expected-errors';
import { ok, type SignedUpUser, startTestServer, type TestServer } from '../../test/harness';
import { deposit, markFinished, payHalf, refundHalf } from '../../test/money-fixtures';
import { noticesIn, recordEvents } from '../../test/recorded-events';
import { quietPeriod, TestClients } from '../../test/socket-client';

let server: TestServer;
let clients: TestClients;
let recorder: ReturnType<typeof recordEvents>;
let creator: SignedUpUser;
let counterpart: SignedUpUser;
let dealmaker: SignedUpUser;
let bidder: SignedUpUser;
let outsider: SignedUpUser;

beforeAll(async () => {
  server = await startTestServer();
  clients = new TestClients(server.url);
  [creator, counterpart, dealmaker, bidder, outsider] = await signUpMany(server, 5);
  recorder = recordEvents(server);
});
afterEach(() => clients.closeAll());
afterAll(() => server.close());

const inbox = (user: SignedUpUser, query = '') =>
  server.get<NotificationList>(`/api/notifications${query}`, { token: user.token });
const markRead = (user: SignedUpUser, body: unknown) =>
  server.post<{ unreadCount: number }>('/api/notifications/read', { token: user.token, body });
const id = (user: SignedUpUser) => user.user.id as number;

/** Runs a step and answers the notifications it produced, as (recipient, kind, message). */
async function noticesOf(step: () => Promise<unknown>) {
  recorder.take();
  await step();
  return noticesIn(recorder.take()).map(({ to, kind, message }) => ({ to, kind, message }));
}

describe('who is told what: a deal from posting to review', () => {
  it('tells each user concerned, never the actor, never an outsider', async () => {
    let deal: Deal = await createDeal(server, creator, { title: 'Harbour crane', budget: 1000 });
    const title = deal.title;

    expect(await noticesOf(() => joinDeal(server, counterpart, deal.id))).toEqual([
      {
        to: id(creator),
        kind: 'deal-joined',
        message: `${counterpart.username} joined your deal "${title}".`,
      },
    ]);

    let makerBid = 0;
    expect(
      await noticesOf(async () => {
        makerBid = await placeBid(server, dealmaker, deal.id, 900);
      }),
    ).toEqual([
      {
        to: id(creator),
        kind: 'bid-created',
        message: `${dealmaker.username} bid $900.00 on your deal "${title}".`,
      },
      {
        to: id(counterpart),
        kind: 'bid-created',
        message: `${dealmaker.username} bid $900.00 on your deal "${title}".`,
      },
    ]);
    await placeBid(server, bidder, deal.id, 950);

    expect(await noticesOf(() => selectBid(server, creator, deal.id, makerBid))).toEqual([
      {
        to: id(counterpart),
        kind: 'selection-changed',
        message: `${creator.username} selected ${dealmaker.username}'s bid of $900.00 on "${title}".`,
      },
    ]);

    expect(
      await noticesOf(async () => {
        deal = await selectBid(server, counterpart, deal.id, makerBid);
      }),
    ).toEqual([
      {
        to: id(dealmaker),
        kind: 'bid-selected',
        message: `Your bid on "${title}" was selected: you are now its dealmaker.`,
      },
      {
        to: id(creator),
        kind: 'deal-finalized',
        message: `"${title}" is finalized with ${dealmaker.username} as dealmaker for $900.00.`,
      },
      {
        to: id(bidder),
        kind: 'deal-closed',
        message: `"${title}" found its dealmaker; your bid or request on it was closed.`,
      },
    ]);

    await deposit(server, creator, 1000);
    await deposit(server, counterpart, 1000);
    expect(await noticesOf(() => ok(payHalf(server, creator, deal.id)))).toEqual([
      {
        to: id(counterpart),
        kind: 'escrow-paid',
        message: `${creator.username} paid their half ($450.00) into the escrow of "${title}": yours is awaited.`,
      },
    ]);
    expect(await noticesOf(() => ok(refundHalf(server, creator, deal.id)))).toEqual([
      {
        to: id(counterpart),
        kind: 'escrow-refunded',
        message: `${creator.username} took their half ($450.00) back from the escrow of "${title}".`,
      },
    ]);
    await ok(payHalf(server, creator, deal.id));
    const locked = `Both halves are paid: $900.00 is locked in escrow for "${title}" until the deal is completed.`;
    expect(await noticesOf(() => ok(payHalf(server, counterpart, deal.id)))).toEqual([
      { to: id(creator), kind: 'escrow-locked', message: locked },
      { to: id(dealmaker), kind: 'escrow-locked', message: locked },
    ]);

    const added = `The dealmaker added step 1 "Survey" to "${title}".`;
    let itemId = 0;
    expect(
      await noticesOf(async () => {
        const item = await ok(
          server.post('/api/progress', {
            token: dealmaker.token,
            body: { dealId: deal.id, title: 'Survey', description: '' },
          }),
          201,
        );
        itemId = (item as { id: number }).id;
      }),
    ).toEqual([
      { to: id(creator), kind: 'progress-added', message: added },
      { to: id(counterpart), kind: 'progress-added', message: added },
    ]);
    const moved = `Step 1 "Survey" of "${title}" is now in progress.`;
    expect(
      await noticesOf(() =>
        ok(
          server.put(`/api/progress/${itemId}/status`, {
            token: dealmaker.token,
            body: { status: 'in_progress' },
          }),
        ),
      ),
    ).toEqual([
      { to: id(creator), kind: 'progress-moved', message: moved },
      { to: id(counterpart), kind: 'progress-moved', message: moved },
    ]);

    let disputeId = 0;
    const raised = `${creator.username} raised a dispute on "${title}": Late survey`;
    expect(
      await noticesOf(async () => {
        const dispute = await ok(
          server.post('/api/disputes', {
            token: creator.token,
            body: { dealId: deal.id, title: 'Late survey', description: 'Two days late.' },
          }),
          201,
        );
        disputeId = (dispute as { id: number }).id;
      }),
    ).toEqual([
      { to: id(counterpart), kind: 'dispute-raised', message: raised },
      { to: id(dealmaker), kind: 'dispute-raised', message: raised },
    ]);
    const resolved = `The dispute "Late survey" on "${title}" was resolved.`;
    expect(
      await noticesOf(() =>
        ok(
          server.put(`/api/disputes/${disputeId}/resolve`, {
            token: dealmaker.token,
            body: { resolution: 'Survey delivered.' },
          }),
        ),
      ),
    ).toEqual([
      { to: id(creator), kind: 'dispute-resolved', message: resolved },
      { to: id(counterpart), kind: 'dispute-resolved', message: resolved },
    ]);

    expect(await noticesOf(() => ok(markFinished(server, creator, deal.id)))).toEqual([
      {
        to: id(counterpart),
        kind: 'deal-marked-finished',
        message: `${creator.username} marked "${title}" as finished. Mark it too to release the escrow.`,
      },
    ]);
    expect(await noticesOf(() => ok(markFinished(server, counterpart, deal.id)))).toEqual([
      {
        to: id(creator),
        kind: 'escrow-released',
        message: `"${title}" is completed: the escrow of $900.00 was released to the dealmaker.`,
      },
      { to: id(dealmaker), kind: 'payment-received', message: `You received $900.00 for "${title}".` },
    ]);

    expect(
      await noticesOf(() =>
        ok(
          server.post('/api/reviews', {
            token: creator.token,
            body: { dealId: deal.id, reviewedUsername: dealmaker.username, rating: 5, comment: 'Great' },
          }),
          201,
        ),
      ),
    ).toEqual([
      {
        to: id(dealmaker),
        kind: 'review-received',
        message: `${creator.username} left you a 5-star review for "${title}".`,
      },
    ]);

    // Everything above is stored, newest first, with its actor; the two bids within the hour are one
    // entry that counts them and tells of the latest.
    const stored = (await inbox(creator)).body;
    expect(stored.notifications.map((notification) => [notification.kind, notification.count])).toEqual([
      ['escrow-released', 1],
      ['dispute-resolved', 1],
      ['progress-moved', 1],
      ['progress-added', 1],
      ['escrow-locked', 1],
      ['deal-finalized', 1],
      ['bid-created', 2],
      ['deal-joined', 1],
    ]);
    expect(stored.notifications.find((notification) => notification.kind === 'bid-created')).toMatchObject({
      actor: { username: bidder.username },
      message: `${bidder.username} bid $950.00 on your deal "${title}".`,
    });
    expect(stored.notifications[0]).toEqual({
      id: expect.any(Number),
      kind: 'escrow-released',
      dealId: deal.id,
      actor: { username: counterpart.username, full_name: counterpart.full_name },
      message: `"${title}" is completed: the escrow of $900.00 was released to the dealmaker.`,
      count: 1,
      createdAt: isoTimestamp,
      readAt: null,
    });
    expect(stored.unreadCount).toBe(8);
    expect((await inbox(outsider)).body).toEqual({ notifications: [], unreadCount: 0 });
  });

  it('tells of dealmaker requests received, accepted, rejected and cancelled', async () => {
    const deal = await createDeal(server, creator, { title: 'Orchard lease' });
    const title = deal.title;
    let first = 0;
    expect(
      await noticesOf(async () => {
        first = await sendRequest(server, creator, deal.id, bidder);
      }),
    ).toEqual([
      {
        to: id(bidder),
        kind: 'request-received',
        message: `${creator.username} asks you to be the dealmaker of "${title}".`,
      },
    ]);
    expect(
      await noticesOf(() =>
        ok(server.post(`/api/request-dealmaker/reject/${first}`, { token: bidder.token })),
      ),
    ).toEqual([
      {
        to: id(creator),
        kind: 'request-rejected',
        message: `${bidder.username} rejected your dealmaker request for "${title}".`,
      },
    ]);
    const second = await sendRequest(server, creator, deal.id, outsider);
    expect(
      await noticesOf(() =>
        ok(server.delete(`/api/request-dealmaker/cancel/${second}`, { token: creator.token })),
      ),
    ).toEqual([
      {
        to: id(outsider),
        kind: 'request-canceled',
        message: `${creator.username} canceled their dealmaker request for "${title}".`,
      },
    ]);
    await joinDeal(server, counterpart, deal.id);
    const third = await sendRequest(server, creator, deal.id, dealmaker);
    await placeBid(server, bidder, deal.id, 300);
    expect(
      await noticesOf(() =>
        ok(server.post(`/api/request-dealmaker/accept/${third}`, { token: dealmaker.token })),
      ),
    ).toEqual([
      {
        to: id(creator),
        kind: 'request-accepted',
        message: `${dealmaker.username} accepted your request and is now the dealmaker of "${title}".`,
      },
      {
        to: id(counterpart),
        kind: 'request-accepted',
        message: `${dealmaker.username} accepted your request and is now the dealmaker of "${title}".`,
      },
      {
        to: id(bidder),
        kind: 'deal-closed',
        message: `"${title}" found its dealmaker; your bid or request on it was closed.`,
      },
    ]);
  });

  it('tells of a counterpart leaving and a deal deleted, which outlives the deal', async () => {
    const deal = await createDeal(server, creator, { title: 'Warehouse swap' });
    await joinDeal(server, counterpart, deal.id);
    expect(
      await noticesOf(() =>
        ok(server.put(`/api/deals/leave-deal-as-dealer/${deal.id}`, { token: counterpart.token })),
      ),
    ).toEqual([
      { to: id(creator), kind: 'deal-left', message: `The counterpart left your deal "${deal.title}".` },
    ]);
    await joinDeal(server, counterpart, deal.id);
    await placeBid(server, bidder, deal.id, 100);
    const deleted = `The deal "${deal.title}" was deleted by its creator.`;
    expect(
      await noticesOf(() => ok(server.delete(`/api/deals/delete-deal/${deal.id}`, { token: creator.token }))),
    ).toEqual([
      { to: id(counterpart), kind: 'deal-deleted', message: deleted },
      { to: id(bidder), kind: 'deal-deleted', message: deleted },
    ]);
    const [latest] = (await inbox(bidder)).body.notifications;
    expect(latest).toMatchObject({ kind: 'deal-deleted', dealId: null, message: deleted });
  });
});

describe('repeats within the hour', () => {
  it('adds a repeat of one kind on one deal to the unread entry, live, but not to a read one, another deal or an older one', async () => {
    const [a, b, c, d] = await signUpMany(server, 4);
    const deal = await createDeal(server, creator, { title: 'Busy deal' });
    const other = await createDeal(server, creator, { title: 'Quiet deal' });
    const bidsOf = (user: SignedUpUser, dealId: number) =>
      server.post('/api/bidding/create', { token: user.token, body: { dealId, price: 100 } });
    recorder.take();
    const live = () =>
      recorder
        .take()
        .filter((event) => event.event === 'notification' && event.audience.users?.[0] === id(creator))
        .map((event) => {
          const { id: entry, count, message } = event.payload as ServerEvents['notification'];
          return { entry, count, message };
        });

    await ok(bidsOf(a!, deal.id), 201);
    const [first] = live();
    expect(first).toEqual({
      entry: expect.any(Number),
      count: 1,
      message: `${a!.username} bid $100.00 on your deal "Busy deal".`,
    });
    await ok(bidsOf(b!, deal.id), 201);
    // The same entry again, counting two and telling of the latest: the web replaces it in place.
    expect(live()).toEqual([
      { entry: first!.entry, count: 2, message: `${b!.username} bid $100.00 on your deal "Busy deal".` },
    ]);
    const unread = (await inbox(creator)).body.unreadCount;
    await ok(bidsOf(c!, other.id), 201);
    const [elsewhere] = live();
    expect(elsewhere!.entry).not.toBe(first!.entry);
    expect(elsewhere!.count).toBe(1);
    expect((await inbox(creator)).body.unreadCount).toBe(unread + 1);

    // Read, the entry stays as it was; the next bid starts a new one.
    await ok(markRead(creator, { ids: [first!.entry] }));
    await ok(bidsOf(d!, deal.id), 201);
    const [afterRead] = live();
    expect(afterRead!.entry).not.toBe(first!.entry);
    expect(afterRead!.count).toBe(1);

    // An entry more than an hour old is not added to.
    await server.db.execute(
      sql`update notifications set created_at = now() - interval '61 minutes' where id = ${afterRead!.entry}`,
    );
    await ok(bidsOf(outsider, deal.id), 201);
    const [later] = live();
    expect(later!.entry).not.toBe(afterRead!.entry);
    expect(later!.count).toBe(1);
  });
});

describe('chat notifications', () => {
  it('keeps one unread notification per deal and sender burst, and reading the chat reads it', async () => {
    const deal = await createDeal(server, creator, { title: 'Chatty deal' });
    await joinDeal(server, counterpart, deal.id);
    const send = (user: SignedUpUser, content: string) =>
      ok(server.post('/api/messages/send', { token: user.token, body: { dealId: deal.id, content } }), 201);
    const burst = `${creator.username} sent you a message on "${deal.title}".`;
    expect(
      await noticesOf(async () => {
        await send(creator, 'one');
        await send(creator, 'two');
        await send(creator, 'three');
      }),
    ).toEqual([{ to: id(counterpart), kind: 'message', message: burst }]);
    const chatOf = async () =>
      (await inbox(counterpart)).body.notifications.filter(
        (notification) => notification.dealId === deal.id && notification.kind === 'message',
      );
    expect(await chatOf()).toHaveLength(1);

    const last = (await send(counterpart, 'reply')) as { id: number };
    expect(
      (
        await server.post(`/api/messages/deal/${deal.id}/read`, {
          token: counterpart.token,
          body: { lastReadId: last.id },
        })
      ).body,
    ).toEqual({ unread: 0 });
    expect((await chatOf())[0]!.readAt).toEqual(isoTimestamp);

    // After it was read, the next message starts a new burst.
    expect(await noticesOf(() => send(creator, 'four'))).toEqual([
      { to: id(counterpart), kind: 'message', message: burst },
    ]);
    expect(await chatOf()).toHaveLength(2);
  });
});

describe('GET /api/notifications', () => {
  it('pages newest first with limit and before', async () => {
    const [owner, joiner] = await signUpMany(server, 2);
    for (let index = 0; index < 5; index++) {
      const deal = await createDeal(server, owner);
      await joinDeal(server, joiner, deal.id);
    }
    const all = (await inbox(owner)).body;
    expect(all.unreadCount).toBe(5);
    const ids = all.notifications.map((notification) => notification.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const first = (await inbox(owner, '?limit=2')).body;
    expect(first.notifications.map((notification) => notification.id)).toEqual(ids.slice(0, 2));
    const second = (await inbox(owner, `?limit=2&before=${ids[1]}`)).body;
    expect(second.notifications.map((notification) => notification.id)).toEqual(ids.slice(2, 4));
    expect(second.unreadCount).toBe(5);
  });

  it('refuses bad paging and strangers', async () => {
    for (const query of ['?limit=0', '?limit=101', '?limit=x', '?before=-1', '?before=1.5']) {
      const response = await inbox(creator, query);
      expect(response.status, query).toBe(400);
      expect(response.body, query).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    const response = await server.get('/api/notifications');
    expect(response.status).toBe(401);
    expect(response.body).toEqual(signInFirst);
  });
});

describe('POST /api/notifications/read', () => {
  it('marks some or all read, idempotently, and answers the unread count', async () => {
    const [owner, joiner] = await signUpMany(server, 2);
    for (let index = 0; index < 3; index++) {
      const deal = await createDeal(server, owner);
      await joinDeal(server, joiner, deal.id);
    }
    const [newest, middle] = (await inbox(owner)).body.notifications;
    expect((await markRead(owner, { ids: [newest!.id] })).body).toEqual({ unreadCount: 2 });
    expect((await markRead(owner, { ids: [newest!.id] })).body).toEqual({ unreadCount: 2 });
    const after = (await inbox(owner)).body.notifications;
    expect(after[0]!.readAt).toEqual(isoTimestamp);
    expect(after[1]!.readAt).toBeNull();
    expect((await markRead(owner, { ids: [middle!.id, newest!.id] })).body).toEqual({ unreadCount: 1 });
    expect((await markRead(owner, { all: true })).body).toEqual({ unreadCount: 0 });
    expect((await markRead(owner, { all: true })).body).toEqual({ unreadCount: 0 });
  });

  it("answers another user's notification exactly as one that does not exist, and changes nothing", async () => {
    const [owner, joiner, stranger] = await signUpMany(server, 3);
    const deal = await createDeal(server, owner);
    await joinDeal(server, joiner, deal.id);
    await joinDeal(server, stranger, (await createDeal(server, joiner)).id);
    const [notification] = (await inbox(owner)).body.notifications;
    const [ownOfJoiner] = (await inbox(joiner)).body.notifications;
    const notFound = { message: 'Notification not found.', code: 'NOT_FOUND' };
    for (const ids of [
      [notification!.id],
      [2_000_000_000],
      // With one of the caller's own: none is marked.
      [ownOfJoiner!.id, notification!.id],
      [ownOfJoiner!.id, 2_000_000_000],
    ]) {
      const response = await markRead(joiner, { ids });
      expect([response.status, response.body], JSON.stringify(ids)).toEqual([404, notFound]);
    }
    expect((await inbox(owner)).body.unreadCount).toBe(1);
    expect((await inbox(joiner)).body.unreadCount).toBe(1);
    // Its own, named twice, is fine.
    expect((await markRead(joiner, { ids: [ownOfJoiner!.id, ownOfJoiner!.id] })).body).toEqual({
      unreadCount: 0,
    });
  });

  it('refuses bad bodies', async () => {
    for (const body of [
      {},
      { ids: [] },
      { ids: ['1'] },
      { ids: [1.5] },
      { all: false },
      { ids: [1], all: true },
    ]) {
      const response = await markRead(creator, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body, JSON.stringify(body)).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    expect((await server.post('/api/notifications/read', { body: { all: true } })).status).toBe(401);
  });
});

describe('the notification event', () => {
  it('carries the stored notification and the new unread count to the user only', async () => {
    const [owner, joiner, watcher] = await signUpMany(server, 3);
    const [ownerSocket, watcherSocket] = [
      await clients.connect(owner.token),
      await clients.connect(watcher.token),
    ];
    const deal = await createDeal(server, owner);
    await joinDeal(server, joiner, deal.id);
    const event = await ownerSocket.waitFor('notification', (payload) => payload.dealId === deal.id);
    const [stored] = (await inbox(owner)).body.notifications;
    expect(event).toEqual({
      id: stored!.id,
      kind: 'deal-joined',
      dealId: deal.id,
      message: stored!.message,
      count: 1,
      createdAt: stored!.createdAt,
      unreadCount: 1,
    });
    await quietPeriod();
    expect(watcherSocket.all('notification')).toEqual([]);
  });
});

describe('mail', () => {
  /** The notification mails to the user (their account's verification mail aside). */
  const mailsTo = (user: SignedUpUser) =>
    server.mails.filter((mail) => mail.to === user.email && mail.subject.startsWith('Dealmaker: '));

  it('mails a user who is not connected, at most once an hour per kind and deal', async () => {
    const [payer, waiting, maker] = await signUpMany(server, 3);
    const deal = await createDeal(server, payer, { budget: 100 });
    await joinDeal(server, waiting, deal.id);
    const requestId = await sendRequest(server, payer, deal.id, maker);
    expect(mailsTo(maker).map((mail) => mail.subject)).toEqual([
      'Dealmaker: A dealer asks you to be their dealmaker',
    ]);
    await ok(server.post(`/api/request-dealmaker/accept/${requestId}`, { token: maker.token }));
    await deposit(server, payer, 100);
    await ok(payHalf(server, payer, deal.id));
    const [mail] = mailsTo(waiting);
    expect(mail).toEqual({
      to: waiting.email,
      subject: 'Dealmaker: The other dealer paid their half: yours is awaited',
      text: expect.stringContaining(
        `${payer.username} paid their half ($50.00) into the escrow of "${deal.title}": yours is awaited.`,
      ),
      link: `${server.app.config.publicUrl}/deals/${deal.id}`,
    });
    expect(mail!.text).toContain('/profile#notifications');
    await ok(refundHalf(server, payer, deal.id));
    await ok(payHalf(server, payer, deal.id));
    expect(mailsTo(waiting)).toHaveLength(1);

    // An hour later the same kind on the same deal is mailed again.
    await server.db.execute(
      sql`update notification_emails_sent set sent_at = sent_at - interval '61 minutes' where user_id = ${id(waiting)}`,
    );
    await ok(refundHalf(server, payer, deal.id));
    await ok(payHalf(server, payer, deal.id));
    expect(mailsTo(waiting)).toHaveLength(2);
    // Kinds that neither need action nor carry money are never mailed.
    expect(mailsTo(payer)).toEqual([]);
  });

  it('does not mail a user who is connected, nor one who turned the kind off', async () => {
    const [sender, online, off] = await signUpMany(server, 3);
    const socket = await clients.connect(online.token);
    const deal = await createDeal(server, sender);
    await sendRequest(server, sender, deal.id, online);
    await socket.waitFor('notification', (payload) => payload.kind === 'request-received');
    expect(mailsTo(online)).toEqual([]);

    await ok(
      server.put('/api/notifications/preferences', {
        token: off.token,
        body: { email: { 'request-received': false } },
      }),
    );
    await sendRequest(server, sender, deal.id, off);
    expect(mailsTo(off)).toEqual([]);
    expect((await inbox(off)).body.unreadCount).toBe(1);
  });
});

describe('notification preferences', () => {
  const everyKindOn = Object.fromEntries(emailedNotificationKinds.map((kind) => [kind, true]));

  it('mails every kind until the user turns one off', async () => {
    const [user] = await signUpMany(server, 1);
    expect((await server.get('/api/notifications/preferences', { token: user.token })).body).toEqual({
      email: everyKindOn,
    });
    const change = await server.put('/api/notifications/preferences', {
      token: user.token,
      body: { email: { 'escrow-paid': false, 'dispute-raised': false } },
    });
    expect(change.status).toBe(200);
    expect(change.body).toEqual({
      email: { ...everyKindOn, 'escrow-paid': false, 'dispute-raised': false },
    });
    await server.put('/api/notifications/preferences', {
      token: user.token,
      body: { email: { 'escrow-paid': true } },
    });
    expect((await server.get('/api/notifications/preferences', { token: user.token })).body).toEqual({
      email: { ...everyKindOn, 'dispute-raised': false },
    });
  });

  it('refuses kinds that are not mailed and bad values', async () => {
    for (const body of [
      {},
      { email: { message: false } },
      { email: { 'escrow-paid': 'no' } },
      { email: 'off' },
    ]) {
      const response = await server.put('/api/notifications/preferences', { token: creator.token, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    expect((await server.get('/api/notifications/preferences')).status).toBe(401);
  });
});
