import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deal, DealmakerRequest, IncomingRequest } from '../../../contract/deals';
import { bids, dealmakerRequests, deals } from '../../db/schema';
import {
  assignDealmakerByRequest,
  createDeal,
  dealCan,
  dealWithDealers,
  isoTimestamp,
  joinDeal,
  markCompletedInDb,
  placeBid,
  selectBid,
  sendRequest,
  signUpMany,
} from '../../test/deal-fixtures';
import { dealNotFound, signInFirst } from '../../test/expected-errors';
import { type SignedUpUser, signUp, startTestServer, type TestServer } from '../../test/harness';

const requestNotFound = { message: 'Request not found.', code: 'NOT_FOUND' };
const conflict = (message: string) => ({ message, code: 'CONFLICT' });
const forbidden = (message: string) => ({ message, code: 'FORBIDDEN' });
const defaultMessage = 'I would like to request you to be a dealmaker for my deal.';
const hasDealmaker = conflict('This deal already has a dealmaker.');
const dealerCannotBeDealmaker = conflict('A dealer of this deal cannot be its dealmaker.');
const alreadySent = conflict('A request has already been sent to this user for this deal.');

let server: TestServer;
let creator: SignedUpUser;
let counterpart: SignedUpUser;
let maker: SignedUpUser;
let otherMaker: SignedUpUser;
let outsider: SignedUpUser;

beforeAll(async () => {
  server = await startTestServer();
  [creator, counterpart, maker, otherMaker, outsider] = await signUpMany(server, 5);
});
afterAll(() => server.close());

const send = (user: SignedUpUser, body: Record<string, unknown>) =>
  server.post<DealmakerRequest>('/api/request-dealmaker/send-request', { token: user.token, body });
const listOfDeal = (user: SignedUpUser, dealId: number) =>
  server.get<DealmakerRequest[]>(`/api/request-dealmaker/${dealId}`, { token: user.token });
const incoming = (user: SignedUpUser) =>
  server.get<IncomingRequest[]>('/api/request-dealmaker/my-requests', { token: user.token });
const accept = (user: SignedUpUser, id: number) =>
  server.post<{ message: string; deal: Deal }>(`/api/request-dealmaker/accept/${id}`, { token: user.token });
const reject = (user: SignedUpUser, id: number) =>
  server.post<{ message: string; request: DealmakerRequest }>(`/api/request-dealmaker/reject/${id}`, {
    token: user.token,
  });
const cancel = (user: SignedUpUser, id: number) =>
  server.delete(`/api/request-dealmaker/cancel/${id}`, { token: user.token });
const getDeal = async (id: number) =>
  (await server.get<Deal>(`/api/deals/${id}`, { token: creator.token })).body;
const requestRows = (dealId: number) =>
  server.db.select().from(dealmakerRequests).where(eq(dealmakerRequests.dealId, dealId));

describe('POST /api/request-dealmaker/send-request', () => {
  it('sends a request and answers 201 with its shape', async () => {
    const deal = await createDeal(server, creator);
    const response = await send(creator, {
      dealId: deal.id,
      receiverUsername: maker.username,
      message: '  Please broker this one.  ',
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      dealId: deal.id,
      message: 'Please broker this one.',
      senderUsername: creator.username,
      receiverUsername: maker.username,
      rejected: false,
      createdAt: isoTimestamp,
    });
  });

  it('uses the default message when none or a blank one is given', async () => {
    const deal = await dealWithDealers(server, creator, counterpart);
    const omitted = await send(creator, { dealId: deal.id, receiverUsername: maker.username });
    expect(omitted.status).toBe(201);
    expect(omitted.body.message).toBe(defaultMessage);
    const blank = await send(counterpart, {
      dealId: deal.id,
      receiverUsername: otherMaker.username,
      message: ' ',
    });
    expect(blank.status).toBe(201);
    expect(blank.body).toMatchObject({ message: defaultMessage, senderUsername: counterpart.username });
  });

  it('finds the receiver whatever the case of the username', async () => {
    const deal = await createDeal(server, creator);
    const response = await send(creator, { dealId: deal.id, receiverUsername: maker.username.toUpperCase() });
    expect(response.status).toBe(201);
    expect(response.body.receiverUsername).toBe(maker.username);
  });

  it('refuses anyone but a dealer of the deal', async () => {
    const deal = await dealWithDealers(server, creator, counterpart);
    await placeBid(server, otherMaker, deal.id);
    for (const user of [outsider, otherMaker, maker]) {
      const response = await send(user, { dealId: deal.id, receiverUsername: maker.username });
      expect(response.status).toBe(403);
      expect(response.body).toEqual(forbidden('Only the dealers of this deal can request a dealmaker.'));
    }
    expect(await requestRows(deal.id)).toEqual([]);
  });

  it('answers 404 for an unknown or unverified receiver', async () => {
    const deal = await createDeal(server, creator);
    const unverified = 'not_verified_yet';
    const registered = await server.post('/api/auth/register', {
      body: { username: unverified, email: 'nv@example.test', password: 'long enough pw', full_name: 'N V' },
    });
    expect(registered.status).toBe(201);
    for (const receiverUsername of ['nobody_by_this_name', unverified]) {
      const response = await send(creator, { dealId: deal.id, receiverUsername });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'User not found', code: 'NOT_FOUND' });
    }
  });

  it('refuses a receiver who is a dealer of the deal', async () => {
    const deal = await dealWithDealers(server, creator, counterpart);
    for (const [sender, receiver] of [
      [creator, counterpart],
      [counterpart, creator],
      [creator, creator],
    ] as const) {
      const response = await send(sender, { dealId: deal.id, receiverUsername: receiver.username });
      expect(response.status).toBe(409);
      expect(response.body).toEqual(dealerCannotBeDealmaker);
    }
  });

  it('refuses a second request to the same user, from either dealer, even after a rejection', async () => {
    const deal = await dealWithDealers(server, creator, counterpart);
    const requestId = await sendRequest(server, creator, deal.id, maker);
    for (const sender of [creator, counterpart]) {
      const response = await send(sender, { dealId: deal.id, receiverUsername: maker.username });
      expect(response.status).toBe(409);
      expect(response.body).toEqual(alreadySent);
    }
    expect((await reject(maker, requestId)).status).toBe(200);
    const afterRejection = await send(creator, { dealId: deal.id, receiverUsername: maker.username });
    expect(afterRejection.status).toBe(409);
    expect(afterRejection.body).toEqual(alreadySent);
    expect(await requestRows(deal.id)).toHaveLength(1);
  });

  it('refuses a deal that has its dealmaker or is completed', async () => {
    const deal = await createDeal(server, creator);
    await assignDealmakerByRequest(server, creator, deal.id, maker);
    const response = await send(creator, { dealId: deal.id, receiverUsername: otherMaker.username });
    expect(response.status).toBe(409);
    expect(response.body).toEqual(hasDealmaker);

    const done = await createDeal(server, creator);
    await markCompletedInDb(server, done.id);
    const late = await send(creator, { dealId: done.id, receiverUsername: otherMaker.username });
    expect(late.status).toBe(409);
    expect(late.body).toEqual(conflict('This deal is already completed.'));
  });

  it('refuses bad input, an unknown deal and a caller without a token', async () => {
    const deal = await createDeal(server, creator);
    const noReceiver = await send(creator, { dealId: deal.id });
    expect(noReceiver.status).toBe(400);
    expect(noReceiver.body).toEqual({
      message: 'receiverUsername is required',
      code: 'VALIDATION_FAILED',
      fieldErrors: { receiverUsername: ['receiverUsername is required'] },
    });
    const blankReceiver = await send(creator, { dealId: deal.id, receiverUsername: '  ' });
    expect(blankReceiver.status).toBe(400);
    expect(blankReceiver.body.message).toBe('receiverUsername is required');
    const noDeal = await send(creator, { receiverUsername: maker.username });
    expect(noDeal.status).toBe(400);
    expect(noDeal.body.message).toBe('dealId is required');
    const hugeDealId = await send(creator, { dealId: 2_147_483_648, receiverUsername: maker.username });
    expect(hugeDealId.status).toBe(400);
    const longMessage = await send(creator, {
      dealId: deal.id,
      receiverUsername: maker.username,
      message: 'm'.repeat(1001),
    });
    expect(longMessage.status).toBe(400);
    expect(longMessage.body).toEqual({
      message: 'Message must be at most 1000 characters',
      code: 'VALIDATION_FAILED',
      fieldErrors: { message: ['Message must be at most 1000 characters'] },
    });
    const nulInName = await send(creator, { dealId: deal.id, receiverUsername: 'a\u0000b' });
    expect(nulInName.status).toBe(400);
    expect(nulInName.body.message).toBe('receiverUsername contains an invalid character');
    const nulInMessage = await send(creator, {
      dealId: deal.id,
      receiverUsername: maker.username,
      message: 'hi\u0000',
    });
    expect(nulInMessage.status).toBe(400);
    expect(nulInMessage.body.message).toBe('Message contains an invalid character');
    const unknownDeal = await send(creator, { dealId: 999999, receiverUsername: maker.username });
    expect(unknownDeal.status).toBe(404);
    expect(unknownDeal.body).toEqual(dealNotFound);
    const anonymous = await server.post('/api/request-dealmaker/send-request', {
      body: { dealId: deal.id, receiverUsername: maker.username },
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(signInFirst);
    expect(await requestRows(deal.id)).toEqual([]);
  });
});

describe('GET /api/request-dealmaker/{dealId}', () => {
  it("shows the deal's requests, newest first, to its dealers only", async () => {
    const deal = await dealWithDealers(server, creator, counterpart);
    const first = await sendRequest(server, creator, deal.id, maker);
    const second = await sendRequest(server, counterpart, deal.id, otherMaker);
    expect((await reject(maker, first)).status).toBe(200);
    const expected = [
      {
        id: second,
        dealId: deal.id,
        message: defaultMessage,
        senderUsername: counterpart.username,
        receiverUsername: otherMaker.username,
        rejected: false,
        createdAt: isoTimestamp,
      },
      {
        id: first,
        dealId: deal.id,
        message: defaultMessage,
        senderUsername: creator.username,
        receiverUsername: maker.username,
        rejected: true,
        createdAt: isoTimestamp,
      },
    ];
    for (const dealer of [creator, counterpart]) {
      const response = await listOfDeal(dealer, deal.id);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(expected);
    }
    for (const user of [maker, otherMaker, outsider]) {
      const response = await listOfDeal(user, deal.id);
      expect(response.status).toBe(403);
      expect(response.body).toEqual(forbidden('Only the dealers of this deal can see its requests.'));
    }
  });

  it('answers [] for a deal without requests, 404 for an unknown deal, 401 without a token', async () => {
    const deal = await createDeal(server, creator);
    expect((await listOfDeal(creator, deal.id)).body).toEqual([]);
    const unknown = await listOfDeal(creator, 999999);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(dealNotFound);
    expect((await server.get('/api/request-dealmaker/abc', { token: creator.token })).status).toBe(400);
    const anonymous = await server.get(`/api/request-dealmaker/${deal.id}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(signInFirst);
  });
});

describe('GET /api/request-dealmaker/my-requests', () => {
  it('lists the pending requests sent to the caller, each with its deal', async () => {
    const [receiver] = await signUpMany(server, 1);
    const open = await createDeal(server, creator, {
      title: 'Open deal',
      description: 'No one joined',
      budget: 12.5,
    });
    const joined = await dealWithDealers(server, creator, counterpart);
    const rejectedDeal = await createDeal(server, creator);
    const openRequest = await sendRequest(server, creator, open.id, receiver);
    const joinedRequest = await sendRequest(server, counterpart, joined.id, receiver);
    const rejectedRequest = await sendRequest(server, creator, rejectedDeal.id, receiver);
    await sendRequest(server, creator, rejectedDeal.id, maker);
    expect((await reject(receiver, rejectedRequest)).status).toBe(200);

    const response = await incoming(receiver);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      {
        id: joinedRequest,
        dealId: joined.id,
        message: defaultMessage,
        senderUsername: counterpart.username,
        receiverUsername: receiver.username,
        rejected: false,
        createdAt: isoTimestamp,
        deal: {
          title: joined.title,
          description: joined.description,
          budget: joined.budget,
          createdAt: joined.createdAt,
          creator: { username: creator.username },
          joined_user: { username: counterpart.username },
        },
      },
      {
        id: openRequest,
        dealId: open.id,
        message: defaultMessage,
        senderUsername: creator.username,
        receiverUsername: receiver.username,
        rejected: false,
        createdAt: isoTimestamp,
        deal: {
          title: 'Open deal',
          description: 'No one joined',
          budget: 12.5,
          createdAt: open.createdAt,
          creator: { username: creator.username },
          joined_user: null,
        },
      },
    ]);
    // Sent requests are not incoming ones.
    const senders = await incoming(counterpart);
    expect(senders.body).toEqual([]);
    const anonymous = await server.get('/api/request-dealmaker/my-requests');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(signInFirst);
  });
});

describe('POST /api/request-dealmaker/accept/{id}', () => {
  it('makes the receiver the dealmaker, keeps the budget and closes bids and other requests', async () => {
    const [receiver, bidderA, bidderB, pending, rejecting] = await signUpMany(server, 5);
    const deal = await dealWithDealers(server, creator, counterpart);
    const bidA = await placeBid(server, bidderA, deal.id, 10);
    const bidB = await placeBid(server, bidderB, deal.id, 20);
    await selectBid(server, creator, deal.id, bidA);
    await selectBid(server, counterpart, deal.id, bidB);
    const requestId = await sendRequest(server, counterpart, deal.id, receiver);
    await sendRequest(server, creator, deal.id, pending);
    const rejectedId = await sendRequest(server, creator, deal.id, rejecting);
    expect((await reject(rejecting, rejectedId)).status).toBe(200);

    const response = await accept(receiver, requestId);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      message: 'Request accepted. You are now the dealmaker of this deal.',
      deal: {
        ...deal,
        dealer_joined: counterpart.username,
        updatedAt: isoTimestamp,
        dealmaker: receiver.username,
        // The selected bid is gone with the others: no selection points at it.
        selected_bid_by_creator: null,
        selected_bid_by_dealer: null,
        budget: deal.budget,
        can: dealCan({ addProgress: true }),
      },
    });
    expect(await getDeal(deal.id)).toMatchObject({ dealmaker: receiver.username, budget: deal.budget });
    expect(await server.db.select().from(bids).where(eq(bids.dealId, deal.id))).toEqual([]);
    expect((await requestRows(deal.id)).map((r) => ({ id: r.id, rejected: r.rejected }))).toEqual([
      { id: rejectedId, rejected: true },
    ]);
    expect((await incoming(pending)).body).toEqual([]);
    const asMaker = await server.get<Deal[]>('/api/deals/dealmaker-deals', { token: receiver.token });
    expect(asMaker.body.map((d) => d.id)).toEqual([deal.id]);
    // The accepted request is settled: accepting again finds nothing.
    const again = await accept(receiver, requestId);
    expect(again.status).toBe(404);
    expect(again.body).toEqual(requestNotFound);
  });

  it('refuses anyone but the receiver', async () => {
    const deal = await dealWithDealers(server, creator, counterpart);
    const requestId = await sendRequest(server, creator, deal.id, maker);
    for (const user of [creator, counterpart, outsider]) {
      const response = await accept(user, requestId);
      expect(response.status).toBe(403);
      expect(response.body).toEqual(forbidden('Only the user this request was sent to can accept it.'));
    }
    expect((await getDeal(deal.id)).dealmaker).toBeNull();
  });

  it('refuses a rejected request', async () => {
    const deal = await createDeal(server, creator);
    const requestId = await sendRequest(server, creator, deal.id, maker);
    expect((await reject(maker, requestId)).status).toBe(200);
    const response = await accept(maker, requestId);
    expect(response.status).toBe(409);
    expect(response.body).toEqual(conflict('This request was rejected and can no longer be accepted.'));
    expect((await getDeal(deal.id)).dealmaker).toBeNull();
  });

  it('refuses when the deal already has a dealmaker', async () => {
    const deal = await createDeal(server, creator);
    const requestId = await sendRequest(server, creator, deal.id, maker);
    // Set behind the request's back: assigning a dealmaker normally removes pending requests.
    await server.db.update(deals).set({ dealmakerId: otherMaker.user.id }).where(eq(deals.id, deal.id));
    const response = await accept(maker, requestId);
    expect(response.status).toBe(409);
    expect(response.body).toEqual(hasDealmaker);
  });

  it('refuses a receiver who has since joined the deal as its counterpart', async () => {
    const deal = await createDeal(server, creator);
    const requestId = await sendRequest(server, creator, deal.id, maker);
    await joinDeal(server, maker, deal.id);
    const response = await accept(maker, requestId);
    expect(response.status).toBe(409);
    expect(response.body).toEqual(dealerCannotBeDealmaker);
  });

  it('refuses a completed deal', async () => {
    const deal = await createDeal(server, creator);
    const requestId = await sendRequest(server, creator, deal.id, maker);
    await markCompletedInDb(server, deal.id);
    const response = await accept(maker, requestId);
    expect(response.status).toBe(409);
    expect(response.body).toEqual(conflict('This deal is already completed.'));
  });

  it('answers 404 for an unknown request, 400 for a bad id and 401 without a token', async () => {
    const unknown = await accept(maker, 999999);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(requestNotFound);
    expect((await server.post('/api/request-dealmaker/accept/x', { token: maker.token })).status).toBe(400);
    const anonymous = await server.post('/api/request-dealmaker/accept/1');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(signInFirst);
  });
});

describe('POST /api/request-dealmaker/reject/{id}', () => {
  it('lets the receiver reject once', async () => {
    const deal = await createDeal(server, creator);
    const requestId = await sendRequest(server, creator, deal.id, maker);
    const response = await reject(maker, requestId);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      message: 'Request rejected.',
      request: {
        id: requestId,
        dealId: deal.id,
        message: defaultMessage,
        senderUsername: creator.username,
        receiverUsername: maker.username,
        rejected: true,
        createdAt: isoTimestamp,
      },
    });
    expect((await incoming(maker)).body.map((r) => r.id)).not.toContain(requestId);
    const twice = await reject(maker, requestId);
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual(conflict('This request was already rejected.'));
  });

  it('refuses anyone but the receiver', async () => {
    const deal = await dealWithDealers(server, creator, counterpart);
    const requestId = await sendRequest(server, creator, deal.id, maker);
    for (const user of [creator, counterpart, outsider]) {
      const response = await reject(user, requestId);
      expect(response.status).toBe(403);
      expect(response.body).toEqual(forbidden('Only the user this request was sent to can reject it.'));
    }
    expect((await requestRows(deal.id))[0]!.rejected).toBe(false);
  });

  it('answers 404 for an unknown request and 401 without a token', async () => {
    const unknown = await reject(maker, 999999);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(requestNotFound);
    const anonymous = await server.post('/api/request-dealmaker/reject/1');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(signInFirst);
  });
});

describe('DELETE /api/request-dealmaker/cancel/{id}', () => {
  it('lets the sender cancel; the request is gone and may be sent again', async () => {
    const deal = await dealWithDealers(server, creator, counterpart);
    const requestId = await sendRequest(server, counterpart, deal.id, maker);
    const response = await cancel(counterpart, requestId);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Request canceled successfully!' });
    expect(await requestRows(deal.id)).toEqual([]);
    expect((await incoming(maker)).body.map((r) => r.id)).not.toContain(requestId);
    const again = await cancel(counterpart, requestId);
    expect(again.status).toBe(404);
    expect(again.body).toEqual(requestNotFound);
    await sendRequest(server, creator, deal.id, maker);
  });

  it('refuses anyone but the sender, including the other dealer', async () => {
    const deal = await dealWithDealers(server, creator, counterpart);
    const requestId = await sendRequest(server, creator, deal.id, maker);
    for (const user of [counterpart, maker, outsider]) {
      const response = await cancel(user, requestId);
      expect(response.status).toBe(403);
      expect(response.body).toEqual(forbidden('Only the sender can cancel this request.'));
    }
    expect(await requestRows(deal.id)).toHaveLength(1);
  });

  it('refuses a rejected request', async () => {
    const deal = await createDeal(server, creator);
    const requestId = await sendRequest(server, creator, deal.id, maker);
    expect((await reject(maker, requestId)).status).toBe(200);
    const response = await cancel(creator, requestId);
    expect(response.status).toBe(409);
    expect(response.body).toEqual(conflict('This request was rejected and cannot be canceled.'));
    expect(await requestRows(deal.id)).toHaveLength(1);
  });

  it('answers 404 for an unknown request and 401 without a token', async () => {
    const unknown = await cancel(creator, 999999);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(requestNotFound);
    const anonymous = await server.delete('/api/request-dealmaker/cancel/1');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(signInFirst);
  });
});

describe('GET /api/auth/public-info', () => {
  it("offers everyone but the caller and the deal's dealers and dealmaker", async () => {
    const [dealer, joiner, dealmaker, candidate] = await Promise.all(
      ['dealer', 'joiner', 'dealmaker', 'candidate'].map((role) =>
        signUp(server, { full_name: `Okapi ${role}` }),
      ),
    );
    const names = async (user: SignedUpUser, query: string) => {
      const response = await server.get<Array<{ username: string }>>(`/api/auth/public-info?${query}`, {
        token: user.token,
      });
      expect(response.status).toBe(200);
      return response.body.map((u) => u.username).sort();
    };
    const deal = await dealWithDealers(server, dealer!, joiner!);
    expect(await names(dealer!, `keyword=okapi&dealId=${deal.id}`)).toEqual(
      [dealmaker!.username, candidate!.username].sort(),
    );
    await assignDealmakerByRequest(server, dealer!, deal.id, dealmaker!);
    expect(await names(dealer!, `keyword=okapi&dealId=${deal.id}`)).toEqual([candidate!.username]);
    expect(await names(joiner!, `keyword=OKAPI&dealId=${deal.id}`)).toEqual([candidate!.username]);
    // Without a deal only the caller is left out.
    expect(await names(dealer!, 'keyword=okapi')).toEqual(
      [joiner!.username, dealmaker!.username, candidate!.username].sort(),
    );
    expect(await names(dealer!, `keyword=&dealId=${deal.id}`)).not.toContain(dealer!.username);
    expect(await names(candidate!, `keyword=${candidate!.username}`)).toEqual([]);
  });
});
