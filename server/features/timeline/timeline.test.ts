import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../../contract/messages';
import type { TimelineItem } from '../../../contract/timeline';
import { dealEvents } from '../../db/schema';
import {
  assignDealmakerByRequest,
  createDeal,
  isoTimestamp,
  joinDeal,
  placeBid,
  selectBid,
  signUpMany,
} from '../../test/deal-fixtures';
import { dealNotFound, onlyParticipants, signInFirst, unknownId } from '../../test/expected-errors';
import { ok, type SignedUpUser, startTestServer, type TestServer } from '../../test/harness';
import { deposit, markFinished, payHalf, refundHalf } from '../../test/money-fixtures';

let server: TestServer;
let creator: SignedUpUser;
let counterpart: SignedUpUser;
let dealmaker: SignedUpUser;
let outsider: SignedUpUser;

beforeAll(async () => {
  server = await startTestServer();
  [creator, counterpart, dealmaker, outsider] = await signUpMany(server, 4);
});
afterAll(() => server.close());

const timelineOf = (user: SignedUpUser | null, dealId: number | string, query = '') =>
  server.get<{ items: TimelineItem[] }>(`/api/deals/${dealId}/timeline${query}`, { token: user?.token });

const say = async (user: SignedUpUser, dealId: number, content: string) =>
  (await ok(
    server.post('/api/messages/send', { token: user.token, body: { dealId, content } }),
    201,
  )) as Message;

/** The timeline as (type, kind or content, actor), oldest first. */
async function storyOf(dealId: number) {
  const { items } = (await timelineOf(creator, dealId, '?limit=100')).body;
  return items
    .slice()
    .reverse()
    .map((item) =>
      item.type === 'event'
        ? `${item.kind} (${item.actor?.username ?? 'server'}): ${item.message}`
        : `message (${item.senderUsername}): ${item.content}`,
    );
}

describe('GET /api/deals/{dealId}/timeline', () => {
  it('records every state change with the chat, in the order it happened', async () => {
    const deal = await createDeal(server, creator, { title: 'Mill sale', budget: 200 });
    await joinDeal(server, counterpart, deal.id);
    await say(counterpart, deal.id, 'Hello!');
    await assignDealmakerByRequest(server, creator, deal.id, dealmaker);
    await deposit(server, creator, 200);
    await deposit(server, counterpart, 200);
    await ok(payHalf(server, creator, deal.id));
    await ok(refundHalf(server, creator, deal.id));
    await ok(payHalf(server, creator, deal.id));
    await ok(payHalf(server, counterpart, deal.id));
    const item = (await ok(
      server.post('/api/progress', {
        token: dealmaker.token,
        body: { dealId: deal.id, title: 'Inspect', description: '' },
      }),
      201,
    )) as { id: number };
    for (const status of ['in_progress', 'completed']) {
      await ok(server.put(`/api/progress/${item.id}/status`, { token: dealmaker.token, body: { status } }));
    }
    const dispute = (await ok(
      server.post('/api/disputes', {
        token: counterpart.token,
        body: { dealId: deal.id, title: 'Paperwork', description: 'Missing deed.' },
      }),
      201,
    )) as { id: number };
    await say(dealmaker, deal.id, 'Deed attached.');
    await ok(
      server.put(`/api/disputes/${dispute.id}/resolve`, {
        token: dealmaker.token,
        body: { resolution: 'Deed sent.' },
      }),
    );
    await ok(markFinished(server, creator, deal.id));
    await ok(markFinished(server, counterpart, deal.id));
    await ok(
      server.post('/api/reviews', {
        token: counterpart.token,
        body: { dealId: deal.id, reviewedUsername: dealmaker.username, rating: 4 },
      }),
      201,
    );

    const c = creator.username;
    const p = counterpart.username;
    const m = dealmaker.username;
    expect(await storyOf(deal.id)).toEqual([
      `created (${c}): ${c} posted the deal.`,
      `joined (${p}): ${p} joined as the counterpart.`,
      `message (${p}): Hello!`,
      `request-accepted (${m}): ${m} accepted the request and is the dealmaker.`,
      `half-paid (${c}): ${c} paid their half ($100.00) into escrow.`,
      `half-refunded (${c}): ${c} took their half ($100.00) back from escrow.`,
      `half-paid (${c}): ${c} paid their half ($100.00) into escrow.`,
      `half-paid (${p}): ${p} paid their half ($100.00) into escrow.`,
      `locked (${p}): Both halves are paid: $200.00 is locked in escrow until the deal is completed.`,
      `progress-added (${m}): The dealmaker added step 1 "Inspect".`,
      `progress-moved (${m}): Step 1 "Inspect" moved from pending to in progress.`,
      `progress-moved (${m}): Step 1 "Inspect" moved from in progress to completed.`,
      `dispute-raised (${p}): ${p} raised a dispute: Paperwork`,
      `message (${m}): Deed attached.`,
      `dispute-resolved (${m}): The dealmaker resolved the dispute "Paperwork": Deed sent.`,
      `marked-finished (${c}): ${c} marked the deal as finished.`,
      `marked-finished (${p}): ${p} marked the deal as finished.`,
      `completed (${p}): Both dealers marked the deal as finished: it is completed.`,
      `paid-out (server): The escrow of $200.00 was released to ${m}.`,
      `review-left (${p}): ${p} reviewed ${m}.`,
    ]);
    // The spec's history call keeps answering messages only.
    const history = (await server.get<Message[]>(`/api/messages/deal/${deal.id}`, { token: creator.token }))
      .body;
    expect(history.map((message) => message.content)).toEqual(['Hello!', 'Deed attached.']);
  });

  it('answers each entry in its full shape', async () => {
    const deal = await createDeal(server, creator);
    await joinDeal(server, counterpart, deal.id);
    const message = await say(creator, deal.id, 'Welcome');
    const { items } = (await timelineOf(counterpart, deal.id)).body;
    expect(items).toEqual([
      { type: 'message', ...message },
      {
        type: 'event',
        id: expect.any(Number),
        kind: 'joined',
        actor: { username: counterpart.username, full_name: counterpart.full_name },
        message: `${counterpart.username} joined as the counterpart.`,
        createdAt: isoTimestamp,
      },
      {
        type: 'event',
        id: expect.any(Number),
        kind: 'created',
        actor: { username: creator.username, full_name: creator.full_name },
        message: `${creator.username} posted the deal.`,
        createdAt: isoTimestamp,
      },
    ]);
  });

  it('records bid selections and the finalization', async () => {
    const deal = await createDeal(server, creator);
    await joinDeal(server, counterpart, deal.id);
    const bidId = await placeBid(server, dealmaker, deal.id, 400);
    await selectBid(server, creator, deal.id, bidId);
    await selectBid(server, creator, deal.id, bidId);
    await selectBid(server, creator, deal.id, bidId);
    await selectBid(server, counterpart, deal.id, bidId);
    const c = creator.username;
    const p = counterpart.username;
    const m = dealmaker.username;
    expect((await storyOf(deal.id)).slice(2)).toEqual([
      `bid-selected (${c}): ${c} selected ${m}'s bid of $400.00.`,
      `bid-selected (${c}): ${c} withdrew their selection of ${m}'s bid.`,
      `bid-selected (${c}): ${c} selected ${m}'s bid of $400.00.`,
      `bid-selected (${p}): ${p} selected ${m}'s bid of $400.00.`,
      `finalized (${p}): The deal is finalized: ${m} is its dealmaker for $400.00.`,
    ]);
  });

  it('pages newest first with limit and before', async () => {
    const deal = await createDeal(server, creator);
    await joinDeal(server, counterpart, deal.id);
    for (let index = 1; index <= 4; index++) await say(creator, deal.id, `m${index}`);
    const all = (await timelineOf(creator, deal.id)).body.items;
    expect(all).toHaveLength(6);
    const ids = all.map((item) => item.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const page = (await timelineOf(creator, deal.id, `?limit=3&before=${ids[2]}`)).body.items;
    expect(page.map((item) => item.id)).toEqual(ids.slice(3, 6));
  });

  it('answers the entries after an id oldest first with after, page after page', async () => {
    const deal = await createDeal(server, creator);
    await joinDeal(server, counterpart, deal.id);
    for (let index = 1; index <= 3; index++) await say(creator, deal.id, `a${index}`);
    const newestFirst = (await timelineOf(creator, deal.id)).body.items;
    const ids = newestFirst.map((item) => item.id).reverse();
    expect(ids).toHaveLength(5);

    // Everything after the creation entry, oldest first, in two pages of 2 and one of 0.
    const first = (await timelineOf(creator, deal.id, `?after=${ids[0]}&limit=2`)).body.items;
    expect(first.map((item) => item.id)).toEqual(ids.slice(1, 3));
    const second = (await timelineOf(counterpart, deal.id, `?after=${ids[2]}&limit=2`)).body.items;
    expect(second.map((item) => item.id)).toEqual(ids.slice(3, 5));
    expect(second).toEqual(newestFirst.slice(0, 2).reverse());
    expect((await timelineOf(creator, deal.id, `?after=${ids[4]}`)).body.items).toEqual([]);

    const both = await timelineOf(creator, deal.id, `?after=${ids[0]}&before=${ids[4]}`);
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringContaining('Ask for entries before an id or after one, not both'),
    });
    const stranger = await timelineOf(outsider, deal.id, `?after=${ids[0]}`);
    expect(stranger.status).toBe(403);
    expect(stranger.body).toEqual(onlyParticipants);
  });

  it('is for the participants only', async () => {
    const deal = await createDeal(server, creator);
    await joinDeal(server, counterpart, deal.id);
    for (const user of [creator, counterpart]) {
      const r = await timelineOf(user, deal.id);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const stranger = await timelineOf(outsider, deal.id);
    expect(stranger.status).toBe(403);
    expect(stranger.body).toEqual(onlyParticipants);
    const unknown = await timelineOf(creator, unknownId);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(dealNotFound);
    const anonymous = await timelineOf(null, deal.id);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(signInFirst);
    for (const [dealId, query] of [
      ['abc', ''],
      [deal.id, '?limit=0'],
      [deal.id, '?before=x'],
      [deal.id, '?after=-1'],
      [deal.id, '?after=1.5'],
    ] as const) {
      const response = await timelineOf(creator, dealId, query);
      expect(response.status, `${dealId}${query}`).toBe(400);
      expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
  });
});

describe("the deal's record", () => {
  it('is never changed nor deleted, but goes with its deal', async () => {
    const deal = await createDeal(server, creator);
    const [entry] = await server.db.select().from(dealEvents).where(eq(dealEvents.dealId, deal.id));
    for (const statement of [
      sql`update deal_events set message = 'rewritten' where id = ${entry!.id}`,
      sql`delete from deal_events where id = ${entry!.id}`,
      sql`truncate deal_events`,
    ]) {
      const refusal = await server.db.execute(statement).then(
        () => 'accepted',
        (error: Error & { cause?: Error }) => (error.cause ?? error).message,
      );
      // The server's role may not TRUNCATE any table (docs/decisions/0021-restricted-database-role.md); the
      // trigger refuses row changes to anyone, the owner included.
      expect(refusal).toMatch(
        /^(deal_events are never changed or deleted \((UPDATE|DELETE)\)|permission denied for table deal_events)$/,
      );
    }
    expect(await server.db.select().from(dealEvents).where(eq(dealEvents.id, entry!.id))).toEqual([entry]);
    await ok(server.delete(`/api/deals/delete-deal/${deal.id}`, { token: creator.token }));
    expect(await server.db.select().from(dealEvents).where(eq(dealEvents.dealId, deal.id))).toEqual([]);
  });
});
