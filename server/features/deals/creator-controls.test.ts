/**
 * Deals a creator controls: editing a deal before it has a dealmaker (PATCH /api/deals/{id}), deals
 * posted with joinPolicy 'approval' whose creator accepts who joins (join requests), and removing a
 * counterpart while no escrow money is paid (DELETE /api/deals/{id}/counterpart).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { JoinRequest } from '../../../contract/deal-changes';
import type { Deal } from '../../../contract/deals';
import { dealJoinRequests, deals } from '../../db/schema';
import {
  assignDealmakerByRequest,
  createDeal,
  dealCan,
  dealWithDealers,
  isoTimestamp,
  joinDeal,
  markCompletedInDb,
  payCreatorHalfInDb,
  placeBid,
  selectBid,
  signUpMany,
} from '../../test/deal-fixtures';
import { dealNotFound, invalid, signInFirst, unknownId } from '../../test/expected-errors';
import { type SignedUpUser, startTestServer, type TestServer } from '../../test/harness';
import { domainEvents, noticesIn, recordEvents } from '../../test/recorded-events';

const conflict = (message: string) => ({ message, code: 'CONFLICT' });
const forbidden = (message: string) => ({ message, code: 'FORBIDDEN' });
const notFound = (message: string) => ({ message, code: 'NOT_FOUND' });

let server: TestServer;
let alice: SignedUpUser;
let bob: SignedUpUser;
let carol: SignedUpUser;
let dave: SignedUpUser;
let recorder: ReturnType<typeof recordEvents>;

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob, carol, dave] = await signUpMany(server, 4);
  recorder = recordEvents(server);
});
beforeEach(() => {
  recorder.take();
});
afterAll(() => server.close());

const getDeal = (id: number, user: SignedUpUser) =>
  server.get<Deal>(`/api/deals/${id}`, { token: user.token });
const dealRow = async (id: number) => (await server.db.select().from(deals).where(eq(deals.id, id)))[0]!;
const edit = (id: number, user: SignedUpUser, body: unknown) =>
  server.patch<Deal>(`/api/deals/${id}`, { token: user.token, body });

describe('PATCH /api/deals/{id}', () => {
  it('changes the fields sent, tells the counterpart and the bidders of a new budget, and broadcasts the deal', async () => {
    const deal = await dealWithDealers(server, alice, bob);
    await placeBid(server, carol, deal.id, 400);
    recorder.take();

    const response = await edit(deal.id, alice, { title: '  Office move, 2 floors ', budget: '1250.50' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({
      id: deal.id,
      title: 'Office move, 2 floors',
      description: deal.description,
      budget: 1250.5,
      timeline: deal.timeline,
    });
    expect(response.body.can).toEqual(
      dealCan({ delete: true, edit: true, selectBid: true, requestDealmaker: true, removeCounterpart: true }),
    );
    expect(await getDeal(deal.id, carol)).toMatchObject({
      body: { title: 'Office move, 2 floors', budget: 1250.5 },
    });
    expect((await dealRow(deal.id)).budgetCents).toBe(125_050);

    const recorded = recorder.take();
    const { can: _can, ...fields } = response.body;
    expect(domainEvents(recorded)).toEqual([
      {
        audience: { dealWatchers: [deal.id], originalClients: true },
        event: 'deal-updated',
        payload: { dealId: deal.id, data: { ...fields, my_bid: null }, updateType: 'updated' },
      },
    ]);
    const budget = `the budget from $1,000.00 to $1,250.50`;
    expect(noticesIn(recorded)).toEqual([
      {
        to: bob.user.id,
        kind: 'deal-edited',
        dealId: deal.id,
        message: `${alice.username} changed the title and the budget of "Office move, 2 floors".`,
      },
      {
        to: carol.user.id,
        kind: 'deal-edited',
        dealId: deal.id,
        message: `${alice.username} changed ${budget} of "Office move, 2 floors", which you bid on.`,
      },
    ]);
    const timeline = await server.get(`/api/deals/${deal.id}/timeline`, { token: alice.token });
    expect(timeline.body.items.map((item: { message?: string }) => item.message)).toContain(
      `${alice.username} changed ${budget}.`,
    );
  });

  it('keeps the bids and the selections, and a search finds the new title', async () => {
    const deal = await dealWithDealers(server, alice, bob);
    const bidId = await placeBid(server, carol, deal.id, 400);
    await selectBid(server, alice, deal.id, bidId);
    const word = `retitled${Date.now()}`;
    expect((await edit(deal.id, alice, { title: `A ${word} deal` })).status).toBe(200);
    const bids = await server.get(`/api/bidding/deal/${deal.id}`, { token: alice.token });
    expect(bids.body.map((bid: { id: number }) => bid.id)).toEqual([bidId]);
    expect((await getDeal(deal.id, alice)).body.selected_bid_by_creator).toBe(bidId);
    const found = await server.get(`/api/deals/all/${word}`, { token: dave.token });
    expect(found.body.map((d: Deal) => d.id)).toEqual([deal.id]);
  });

  it('answers the deal unchanged, and tells nobody, when nothing differs', async () => {
    const deal = await createDeal(server, alice);
    recorder.take();
    const response = await edit(deal.id, alice, { title: deal.title, budget: deal.budget });
    expect(response.status).toBe(200);
    expect(response.body.updatedAt).toBe(deal.updatedAt);
    expect(domainEvents(recorder.take())).toEqual([]);
  });

  it('refuses anyone but the creator, and changes nothing', async () => {
    const deal = await dealWithDealers(server, alice, bob);
    for (const user of [bob, carol]) {
      const response = await edit(deal.id, user, { title: 'Mine now' });
      expect(response.status).toBe(403);
      expect(response.body).toEqual(forbidden('Only the creator can edit this deal.'));
    }
    expect((await dealRow(deal.id)).title).toBe(deal.title);
  });

  it('refuses once the deal has a dealmaker, or is completed', async () => {
    const staffed = await dealWithDealers(server, alice, bob);
    await assignDealmakerByRequest(server, alice, staffed.id, carol);
    const response = await edit(staffed.id, alice, { budget: 1 });
    expect(response.status).toBe(409);
    expect(response.body).toEqual(conflict('This deal has its dealmaker: it can no longer be edited.'));
    expect((await dealRow(staffed.id)).budgetCents).toBe(100_000);

    const done = await createDeal(server, alice);
    await markCompletedInDb(server, done.id);
    const late = await edit(done.id, alice, { title: 'Late' });
    expect(late.status).toBe(409);
    expect(late.body).toEqual(conflict('This deal is already completed.'));
  });

  it('checks each field as creation does, and refuses an empty change', async () => {
    const deal = await createDeal(server, alice);
    const cases: Array<[unknown, object]> = [
      [{}, invalid('body', 'Nothing to change: send a title, description, budget or timeline')],
      [{ title: '   ' }, invalid('title', 'Title is required')],
      [{ budget: 0 }, invalid('budget', 'Amount must be between $0.01 and $1,000,000,000.00')],
      [{ budget: 'ten' }, invalid('budget', 'Amount must be a positive number with at most 2 decimals')],
      [{ timeline: 'x'.repeat(201) }, invalid('timeline', 'Timeline must be at most 200 characters')],
    ];
    for (const [body, error] of cases) {
      const response = await edit(deal.id, alice, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body, JSON.stringify(body)).toEqual(error);
    }
    expect(await dealRow(deal.id)).toMatchObject({ title: deal.title, budgetCents: 100_000 });
  });

  it('answers 404 for an unknown deal and 401 without a session', async () => {
    expect((await edit(unknownId, alice, { title: 'x' })).body).toEqual(dealNotFound);
    const anonymous = await server.patch(`/api/deals/1`, { body: { title: 'x' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(signInFirst);
  });
});

describe('DELETE /api/deals/{id}/counterpart', () => {
  const remove = (id: number, user: SignedUpUser) =>
    server.delete<Deal>(`/api/deals/${id}/counterpart`, { token: user.token });

  it('removes the counterpart with their choices, tells them, and the deal is open to join again', async () => {
    const deal = await dealWithDealers(server, alice, bob);
    const bidId = await placeBid(server, carol, deal.id, 300);
    await selectBid(server, bob, deal.id, bidId);
    recorder.take();

    const response = await remove(deal.id, alice);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ dealer_joined: null, selected_bid_by_dealer: null });
    expect(response.body.can).toEqual(
      dealCan({ delete: true, edit: true, selectBid: true, requestDealmaker: true }),
    );
    const recorded = recorder.take();
    expect(noticesIn(recorded)).toEqual([
      {
        to: bob.user.id,
        kind: 'counterpart-removed',
        dealId: deal.id,
        message: `${alice.username} removed you from the deal "${deal.title}".`,
      },
    ]);
    expect(
      domainEvents(recorded).map((e) => [e.event, (e.payload as { updateType: string }).updateType]),
    ).toEqual([['deal-updated', 'left']]);
    expect((await getDeal(deal.id, dave)).body.can).toEqual(dealCan({ join: true, bid: true }));
    expect((await server.get(`/api/messages/deal/${deal.id}`, { token: bob.token })).status).toBe(403);
  });

  it('refuses anyone but the creator, a deal without counterpart, a paid escrow and a completed deal', async () => {
    const deal = await dealWithDealers(server, alice, bob);
    for (const user of [bob, carol]) {
      const response = await remove(deal.id, user);
      expect(response.status).toBe(403);
      expect(response.body).toEqual(forbidden('Only the creator can remove the counterpart of this deal.'));
    }

    const alone = await createDeal(server, alice);
    expect((await remove(alone.id, alice)).body).toEqual(conflict('This deal has no counterpart to remove.'));

    const paid = await dealWithDealers(server, alice, bob);
    await payCreatorHalfInDb(server, paid.id);
    const refused = await remove(paid.id, alice);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual(conflict('Cannot remove the counterpart - escrow payment made'));
    expect((await dealRow(paid.id)).counterpartId).toBe(bob.user.id);

    const done = await dealWithDealers(server, alice, bob);
    await markCompletedInDb(server, done.id);
    expect((await remove(done.id, alice)).body).toEqual(
      conflict('This deal is completed: its counterpart cannot be removed.'),
    );
    expect((await dealRow(deal.id)).counterpartId).toBe(bob.user.id);
  });
});

describe("deals posted with joinPolicy 'approval'", () => {
  const ask = (id: number, user: SignedUpUser, message?: string) =>
    server.post<JoinRequest>(`/api/deals/${id}/join-requests`, {
      token: user.token,
      body: message === undefined ? {} : { message },
    });
  const decide = (id: number, requestId: number, user: SignedUpUser, decision: 'accept' | 'decline') =>
    server.post(`/api/deals/${id}/join-requests/${requestId}/${decision}`, { token: user.token });
  const approvalDeal = () => createDeal(server, alice, { joinPolicy: 'approval' });

  it('is posted with its policy, and the spec’s deals stay open', async () => {
    const open = await createDeal(server, alice);
    expect(open.joinPolicy).toBe('open');
    const deal = await approvalDeal();
    expect(deal.joinPolicy).toBe('approval');
    expect((await getDeal(deal.id, bob)).body.can).toEqual(dealCan({ askToJoin: true, bid: true }));
    const bad = await server.post('/api/deals/create-deal', {
      token: alice.token,
      body: { title: 't', description: 'd', budget: 1, timeline: 't', joinPolicy: 'closed' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(invalid('joinPolicy', "Join policy must be 'open' or 'approval'"));
  });

  it('refuses joining directly, and asking to join an open deal', async () => {
    const deal = await approvalDeal();
    const join = await server.put(`/api/deals/join-deal-as-dealer/${deal.id}`, { token: bob.token });
    expect(join.status).toBe(409);
    expect(join.body).toEqual(conflict("This deal's creator accepts who joins it: ask to join instead."));
    const open = await createDeal(server, alice);
    expect((await ask(open.id, bob)).body).toEqual(conflict('Anyone may join this deal: join it directly.'));
    expect((await ask(deal.id, alice)).body).toEqual(
      conflict('You created this deal, so you cannot join it as its counterpart.'),
    );
  });

  it('asks once; the creator sees every request and the requester their own', async () => {
    const deal = await approvalDeal();
    recorder.take();
    const asked = await ask(deal.id, bob, 'I run logistics in Lyon');
    expect(asked.status, JSON.stringify(asked.body)).toBe(201);
    expect(asked.body).toEqual({
      id: expect.any(Number),
      dealId: deal.id,
      requester: { username: bob.username, full_name: bob.full_name },
      message: 'I run logistics in Lyon',
      status: 'pending',
      createdAt: isoTimestamp,
      decidedAt: null,
    });
    const recorded = recorder.take();
    expect(noticesIn(recorded)).toEqual([
      {
        to: alice.user.id,
        kind: 'join-requested',
        dealId: deal.id,
        message: `${bob.username} asks to join your deal "${deal.title}" as its counterpart: "I run logistics in Lyon"`,
      },
    ]);
    expect(domainEvents(recorded)).toEqual([
      {
        audience: { users: [alice.user.id, bob.user.id] },
        event: 'join-request-updated',
        payload: { dealId: deal.id, data: asked.body, updateType: 'created' },
      },
    ]);
    const again = await ask(deal.id, bob);
    expect(again.status).toBe(409);
    expect(again.body).toEqual(
      conflict('You have already asked to join this deal: its creator has not answered yet.'),
    );
    const byCarol = await ask(deal.id, carol);
    expect(byCarol.status).toBe(201);

    const forCreator = await server.get(`/api/deals/${deal.id}/join-requests`, { token: alice.token });
    expect(forCreator.body.map((r: JoinRequest) => r.id)).toEqual([byCarol.body.id, asked.body.id]);
    const forBob = await server.get(`/api/deals/${deal.id}/join-requests`, { token: bob.token });
    expect(forBob.body).toEqual([asked.body]);
    expect((await server.get(`/api/deals/${deal.id}/join-requests`, { token: dave.token })).body).toEqual([]);
  });

  it('accepting makes the requester the counterpart and declines the others', async () => {
    const deal = await approvalDeal();
    const byBob = (await ask(deal.id, bob)).body;
    const byCarol = (await ask(deal.id, carol)).body;
    recorder.take();

    const accepted = await decide(deal.id, byBob.id, alice, 'accept');
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.message).toBe(`${bob.username} is now the counterpart of this deal.`);
    expect(accepted.body.request).toMatchObject({
      id: byBob.id,
      status: 'accepted',
      decidedAt: isoTimestamp,
    });
    expect(accepted.body.deal).toMatchObject({ id: deal.id, dealer_joined: bob.username });
    const recorded = recorder.take();
    expect(noticesIn(recorded)).toEqual([
      {
        to: bob.user.id,
        kind: 'join-accepted',
        dealId: deal.id,
        message: `${alice.username} accepted you as the counterpart of "${deal.title}".`,
      },
      {
        to: carol.user.id,
        kind: 'join-declined',
        dealId: deal.id,
        message: `"${deal.title}" found its counterpart: your request to join it was declined.`,
      },
    ]);
    const rows = await server.db.select().from(dealJoinRequests).where(eq(dealJoinRequests.dealId, deal.id));
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({
      [byBob.id]: 'accepted',
      [byCarol.id]: 'declined',
    });
    const late = await decide(deal.id, byCarol.id, alice, 'accept');
    expect(late.status).toBe(409);
    expect(late.body).toEqual(conflict('This request was already declined.'));
    expect((await getDeal(deal.id, bob)).body.can.leave).toBe(true);
  });

  it('declining tells the requester, who may ask again', async () => {
    const deal = await approvalDeal();
    const request = (await ask(deal.id, bob)).body;
    recorder.take();
    const declined = await decide(deal.id, request.id, alice, 'decline');
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({ message: 'Request declined.', request: { status: 'declined' } });
    expect(noticesIn(recorder.take())).toEqual([
      {
        to: bob.user.id,
        kind: 'join-declined',
        dealId: deal.id,
        message: `${alice.username} declined your request to join "${deal.title}".`,
      },
    ]);
    expect((await getDeal(deal.id, alice)).body.dealer_joined).toBeNull();
    expect((await ask(deal.id, bob)).status).toBe(201);
  });

  it('refuses deciding to anyone but the creator, and requests of another deal or unknown', async () => {
    const deal = await approvalDeal();
    const other = await approvalDeal();
    const request = (await ask(deal.id, bob)).body;
    for (const user of [bob, carol]) {
      const response = await decide(deal.id, request.id, user, 'accept');
      expect(response.status).toBe(403);
      expect(response.body).toEqual(forbidden('Only the creator of this deal can decide who joins it.'));
    }
    expect((await decide(other.id, request.id, alice, 'accept')).body).toEqual(
      notFound('Join request not found.'),
    );
    expect((await decide(deal.id, unknownId, alice, 'decline')).body).toEqual(
      notFound('Join request not found.'),
    );
    expect((await decide(unknownId, request.id, alice, 'decline')).body).toEqual(dealNotFound);
    const badId = await server.post(`/api/deals/${deal.id}/join-requests/abc/accept`, { token: alice.token });
    expect(badId.status).toBe(400);
    expect((await getDeal(deal.id, alice)).body.dealer_joined).toBeNull();
  });

  it('refuses accepting a requester who bid meanwhile, or once someone joined', async () => {
    const deal = await approvalDeal();
    const request = (await ask(deal.id, bob)).body;
    await placeBid(server, bob, deal.id, 100);
    const withBid = await decide(deal.id, request.id, alice, 'accept');
    expect(withBid.status).toBe(409);
    expect(withBid.body).toEqual(
      conflict('This user has a bid on this deal: it must be deleted before they can join.'),
    );
    const byCarol = (await ask(deal.id, carol)).body;
    expect((await decide(deal.id, byCarol.id, alice, 'accept')).status).toBe(200);
    const byDave = await ask(deal.id, dave);
    expect(byDave.body).toEqual(conflict('Someone has already joined this deal.'));
  });

  it('refuses a message that is too long', async () => {
    const deal = await approvalDeal();
    const response = await ask(deal.id, bob, 'x'.repeat(1001));
    expect(response.status).toBe(400);
    expect(response.body).toEqual(invalid('message', 'Message must be at most 1000 characters'));
  });

  it('two requests at once by the same user: one is stored', async () => {
    const deal = await approvalDeal();
    const answers = await Promise.all([ask(deal.id, dave), ask(deal.id, dave)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const rows = await server.db.select().from(dealJoinRequests).where(eq(dealJoinRequests.dealId, deal.id));
    expect(rows).toHaveLength(1);
  });

  it('an open deal joined the spec’s way is unchanged', async () => {
    const deal = await createDeal(server, alice);
    const joined = await joinDeal(server, bob, deal.id);
    expect(joined.dealer_joined).toBe(bob.username);
  });
});
