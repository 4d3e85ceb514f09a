import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bid, Deal } from '../../../contract/deals';
import { bids, dealmakerRequests, deals } from '../../db/schema';
import {
  assignDealmakerByRequest,
  createDeal,
  dealCan,
  dealWithDealers,
  isoTimestamp,
  markCompletedInDb,
  placeBid,
  selectBid,
  sendRequest,
  signUpMany,
} from '../../test/deal-fixtures';
import { dealNotFound, invalid, signInFirst } from '../../test/expected-errors';
import { type SignedUpUser, startTestServer, type TestServer } from '../../test/harness';

const bidNotFound = { message: 'Bid not found.', code: 'NOT_FOUND' };
const conflict = (message: string) => ({ message, code: 'CONFLICT' });
const forbidden = (message: string) => ({ message, code: 'FORBIDDEN' });
const dealersCannotBid = forbidden('Dealers of a deal cannot bid on it.');
const bidsClosed = conflict('This deal already has its dealmaker; bids are closed.');
const completed = conflict('This deal is already completed.');
const alreadyBid = conflict('You have already bid on this deal. Update your bid instead.');
const onlyBidder = forbidden('Only the bidder can change or delete this bid.');
const onlyDealersSelect = forbidden('Only the dealers of this deal can select a bid.');

const badPrices = [
  [0, 'Amount must be between $0.01 and $1,000,000,000.00'],
  [-5, 'Amount must be a positive number with at most 2 decimals'],
  [1.005, 'Amount must be a positive number with at most 2 decimals'],
  [1_000_000_000.01, 'Amount must be between $0.01 and $1,000,000,000.00'],
  ['1e3', 'Amount must be a positive number with at most 2 decimals'],
  ['17.005', 'Amount must be a positive number with at most 2 decimals'],
  [null, 'Amount must be a number'],
  [true, 'Amount must be a number'],
] as const;

let server: TestServer;
let creator: SignedUpUser;
let counterpart: SignedUpUser;
let bidder: SignedUpUser;
let otherBidder: SignedUpUser;
let outsider: SignedUpUser;

beforeAll(async () => {
  server = await startTestServer();
  [creator, counterpart, bidder, otherBidder, outsider] = await signUpMany(server, 5);
});
afterAll(() => server.close());

const createBid = (user: SignedUpUser, body: unknown) =>
  server.post('/api/bidding/create', { token: user.token, body });
const updateBid = (user: SignedUpUser, bidId: number, body: unknown) =>
  server.put<Bid>(`/api/bidding/${bidId}`, { token: user.token, body });
const deleteBid = (user: SignedUpUser, bidId: number) =>
  server.delete(`/api/bidding/${bidId}`, { token: user.token });
const listBids = (user: SignedUpUser, dealId: number) =>
  server.get<Bid[]>(`/api/bidding/deal/${dealId}`, { token: user.token });
/** Selects (or unselects) a bid; a success's body is the answer's `deal` (the answer is `{ message, deal }`). */
const select = async (user: SignedUpUser, dealId: number, bidId: number) => {
  const response = await server.put(`/api/bid-management/select-bid/${dealId}/${bidId}`, {
    token: user.token,
  });
  return response.status === 200 ? { ...response, body: response.body.deal as Deal } : response;
};
const getDeal = async (id: number, user = creator) =>
  (await server.get<Deal>(`/api/deals/${id}`, { token: user.token })).body;
const bidRows = (dealId: number) => server.db.select().from(bids).where(eq(bids.dealId, dealId));

describe('POST /api/bidding/create', () => {
  it('places a bid and answers 201 with its shape', async () => {
    const deal = await createDeal(server, creator);
    const response = await createBid(bidder, { dealId: deal.id, price: 250.75 });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      dealId: deal.id,
      dealmaker: bidder.username,
      price: 250.75,
      timestamp: isoTimestamp,
      proposal: null,
      deliveryDays: null,
    });
    const [row] = await bidRows(deal.id);
    expect(row).toMatchObject({ id: response.body.id, priceCents: 25075 });
    expect((await getDeal(deal.id, bidder)).my_bid).toEqual({ id: response.body.id, price: 250.75 });
  });

  it('refuses the dealers of the deal', async () => {
    const deal = await dealWithDealers(server, creator, counterpart);
    for (const dealer of [creator, counterpart]) {
      const response = await createBid(dealer, { dealId: deal.id, price: 10 });
      expect(response.status).toBe(403);
      expect(response.body).toEqual(dealersCannotBid);
    }
    expect(await bidRows(deal.id)).toEqual([]);
  });

  it('refuses a deal that has its dealmaker', async () => {
    const deal = await createDeal(server, creator);
    await assignDealmakerByRequest(server, creator, deal.id, otherBidder);
    for (const user of [bidder, otherBidder]) {
      const response = await createBid(user, { dealId: deal.id, price: 10 });
      expect(response.status).toBe(409);
      expect(response.body).toEqual(bidsClosed);
    }
  });

  it('refuses a completed deal', async () => {
    const deal = await createDeal(server, creator);
    await markCompletedInDb(server, deal.id);
    const response = await createBid(bidder, { dealId: deal.id, price: 10 });
    expect(response.status).toBe(409);
    expect(response.body).toEqual(completed);
  });

  it('refuses a second bid by the same user', async () => {
    const deal = await createDeal(server, creator);
    await placeBid(server, bidder, deal.id, 100);
    const response = await createBid(bidder, { dealId: deal.id, price: 90 });
    expect(response.status).toBe(409);
    expect(response.body).toEqual(alreadyBid);
    expect((await bidRows(deal.id)).map((b) => b.priceCents)).toEqual([10000]);
  });

  it.each(badPrices)('refuses the price %j', async (price, message) => {
    const deal = await createDeal(server, creator);
    const response = await createBid(bidder, { dealId: deal.id, price });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(invalid('price', message));
  });

  it('refuses a bid without a price or a deal id', async () => {
    const deal = await createDeal(server, creator);
    const noPrice = await createBid(bidder, { dealId: deal.id });
    expect(noPrice.status).toBe(400);
    expect(noPrice.body).toEqual(invalid('price', 'Amount must be a number'));
    const noDeal = await createBid(bidder, { price: 10 });
    expect(noDeal.status).toBe(400);
    expect(noDeal.body).toEqual(invalid('dealId', 'dealId is required'));
    for (const dealId of [0, 1.5, '1', 2_147_483_648]) {
      const response = await createBid(bidder, { dealId, price: 10 });
      expect(response.status, String(dealId)).toBe(400);
      expect(Object.keys(response.body.fieldErrors)).toEqual(['dealId']);
    }
  });

  it('answers 404 for an unknown deal and 401 without a token', async () => {
    const unknown = await createBid(bidder, { dealId: 999999, price: 10 });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(dealNotFound);
    const anonymous = await server.post('/api/bidding/create', { body: { dealId: 1, price: 10 } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(signInFirst);
  });
});

describe('PUT and DELETE /api/bidding/{id}', () => {
  it('lets the bidder change the price', async () => {
    const deal = await createDeal(server, creator);
    const bidId = await placeBid(server, bidder, deal.id, 100);
    const response = await updateBid(bidder, bidId, { price: 80.5 });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: bidId,
      dealId: deal.id,
      dealmaker: bidder.username,
      price: 80.5,
      timestamp: isoTimestamp,
      proposal: null,
      deliveryDays: null,
    });
    expect((await bidRows(deal.id))[0]!.priceCents).toBe(8050);
  });

  it('lets the bidder delete the bid', async () => {
    const deal = await createDeal(server, creator);
    const bidId = await placeBid(server, bidder, deal.id, 100);
    const response = await deleteBid(bidder, bidId);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Bid deleted successfully!' });
    expect(await bidRows(deal.id)).toEqual([]);
    expect((await getDeal(deal.id, bidder)).my_bid).toBeNull();
    // The bidder may bid again afterwards.
    await placeBid(server, bidder, deal.id, 120);
  });

  it('refuses anyone but the bidder', async () => {
    const deal = await dealWithDealers(server, creator, counterpart);
    const bidId = await placeBid(server, bidder, deal.id, 100);
    for (const user of [creator, counterpart, otherBidder]) {
      const update = await updateBid(user, bidId, { price: 1 });
      expect(update.status).toBe(403);
      expect(update.body).toEqual(onlyBidder);
      const remove = await deleteBid(user, bidId);
      expect(remove.status).toBe(403);
      expect(remove.body).toEqual(onlyBidder);
    }
    expect((await bidRows(deal.id)).map((b) => b.priceCents)).toEqual([10000]);
  });

  it('refuses changes once the deal has its dealmaker', async () => {
    // The winner's bid stays after a finalization, and can no longer change.
    const deal = await dealWithDealers(server, creator, counterpart);
    const winning = await placeBid(server, bidder, deal.id, 70);
    await selectBid(server, creator, deal.id, winning);
    await selectBid(server, counterpart, deal.id, winning);
    const update = await updateBid(bidder, winning, { price: 1 });
    expect(update.status).toBe(409);
    expect(update.body).toEqual(bidsClosed);
    const remove = await deleteBid(bidder, winning);
    expect(remove.status).toBe(409);
    expect(remove.body).toEqual(bidsClosed);
    expect((await bidRows(deal.id)).map((b) => b.priceCents)).toEqual([7000]);

    // A requested dealmaker closes the deal's bids: they are gone.
    const requested = await createDeal(server, creator);
    const closedBid = await placeBid(server, bidder, requested.id, 100);
    await assignDealmakerByRequest(server, creator, requested.id, otherBidder);
    expect(await bidRows(requested.id)).toEqual([]);
    for (const response of [
      await updateBid(bidder, closedBid, { price: 1 }),
      await deleteBid(bidder, closedBid),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual(bidNotFound);
    }
  });

  it("clears the dealers' selections of a changed or deleted bid, and only of that bid", async () => {
    const deal = await dealWithDealers(server, creator, counterpart);
    const first = await placeBid(server, bidder, deal.id, 100);
    const second = await placeBid(server, otherBidder, deal.id, 200);
    await selectBid(server, creator, deal.id, first);
    await selectBid(server, counterpart, deal.id, second);

    expect((await updateBid(otherBidder, second, { price: 150 })).status).toBe(200);
    expect(await getDeal(deal.id)).toMatchObject({
      selected_bid_by_creator: first,
      selected_bid_by_dealer: null,
    });

    await selectBid(server, counterpart, deal.id, second);
    expect((await updateBid(bidder, first, { price: 100 })).status).toBe(200);
    expect(await getDeal(deal.id)).toMatchObject({
      selected_bid_by_creator: null,
      selected_bid_by_dealer: second,
    });

    expect((await deleteBid(otherBidder, second)).status).toBe(200);
    expect(await getDeal(deal.id)).toMatchObject({
      selected_bid_by_creator: null,
      selected_bid_by_dealer: null,
    });
    expect((await getDeal(deal.id)).dealmaker).toBeNull();
  });

  it.each(badPrices)('refuses the new price %j', async (price, message) => {
    const deal = await createDeal(server, creator);
    const bidId = await placeBid(server, bidder, deal.id, 100);
    const response = await updateBid(bidder, bidId, { price });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(invalid('price', message));
  });

  it('answers 404 for an unknown bid, 400 for a bad id and 401 without a token', async () => {
    for (const response of [await updateBid(bidder, 999999, { price: 1 }), await deleteBid(bidder, 999999)]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual(bidNotFound);
    }
    expect((await updateBid(bidder, 'x' as unknown as number, { price: 1 })).status).toBe(400);
    expect((await deleteBid(bidder, 0)).status).toBe(400);
    const anonymous = await server.put('/api/bidding/1', { body: { price: 1 } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(signInFirst);
    expect((await server.delete('/api/bidding/1')).status).toBe(401);
  });
});

describe('GET /api/bidding/deal/{dealId}', () => {
  it('shows the dealers every bid, a bidder their own and anyone else nothing', async () => {
    const deal = await dealWithDealers(server, creator, counterpart);
    const first = await placeBid(server, bidder, deal.id, 100);
    const second = await placeBid(server, otherBidder, deal.id, 99.99);
    const bare = { timestamp: isoTimestamp, proposal: null, deliveryDays: null };
    const expected = [
      { id: second, dealId: deal.id, dealmaker: otherBidder.username, price: 99.99, ...bare },
      { id: first, dealId: deal.id, dealmaker: bidder.username, price: 100, ...bare },
    ];
    // The dealers also see each bidder's record and whether the price is above the budget (1000 here).
    const newcomer = { averageRating: null, reviews: 0, completedDeals: 0 };
    for (const dealer of [creator, counterpart]) {
      const response = await listBids(dealer, deal.id);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(
        expected.map((bid) => ({ ...bid, aboveBudget: false, bidder: newcomer })),
      );
    }
    expect((await listBids(bidder, deal.id)).body).toEqual([expected[1]]);
    expect((await listBids(otherBidder, deal.id)).body).toEqual([expected[0]]);
    const outsiders = await listBids(outsider, deal.id);
    expect(outsiders.status).toBe(200);
    expect(outsiders.body).toEqual([]);
  });

  it('answers 404 for an unknown deal, 400 for a bad id and 401 without a token', async () => {
    const unknown = await listBids(creator, 999999);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(dealNotFound);
    expect((await server.get('/api/bidding/deal/abc', { token: creator.token })).status).toBe(400);
    const anonymous = await server.get('/api/bidding/deal/1');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(signInFirst);
  });
});

describe('PUT /api/bid-management/select-bid/{dealId}/{bidId}', () => {
  it('answers what happened and the deal as it is now, under `deal`', async () => {
    const deal = await dealWithDealers(server, creator, counterpart);
    const bidId = await placeBid(server, bidder, deal.id, 150);
    const url = `/api/bid-management/select-bid/${deal.id}/${bidId}`;
    const selected = await server.put(url, { token: creator.token });
    expect(selected.status).toBe(200);
    expect(selected.body).toEqual({
      message: 'Bid selected.',
      deal: expect.objectContaining({ id: deal.id, selected_bid_by_creator: bidId, dealmaker: null }),
    });
    const unselected = await server.put(url, { token: creator.token });
    expect(unselected.body).toEqual({
      message: 'Bid unselected.',
      deal: expect.objectContaining({ id: deal.id, selected_bid_by_creator: null }),
    });
    await server.put(url, { token: creator.token });
    const finalized = await server.put(url, { token: counterpart.token });
    expect(finalized.body).toEqual({
      message: `Both dealers selected this bid: the deal is finalized with ${bidder.username} as its dealmaker.`,
      deal: expect.objectContaining({ id: deal.id, dealmaker: bidder.username, budget: 150 }),
    });
  });

  it("records the creator's and the counterpart's own selections", async () => {
    const deal = await dealWithDealers(server, creator, counterpart);
    const first = await placeBid(server, bidder, deal.id, 100);
    const second = await placeBid(server, otherBidder, deal.id, 200);
    const third = await placeBid(server, outsider, deal.id, 300);

    const byCreator = await select(creator, deal.id, first);
    expect(byCreator.status).toBe(200);
    expect(byCreator.body).toEqual({
      ...deal,
      dealer_joined: counterpart.username,
      updatedAt: isoTimestamp,
      selected_bid_by_creator: first,
      selected_bid_by_dealer: null,
      // The deal was read before its counterpart joined: now the creator may also remove them.
      can: { ...deal.can, removeCounterpart: true },
    });
    const byCounterpart = await select(counterpart, deal.id, second);
    expect(byCounterpart.status).toBe(200);
    expect(byCounterpart.body).toMatchObject({
      selected_bid_by_creator: first,
      selected_bid_by_dealer: second,
    });
    // Choosing another bid replaces the dealer's own choice only.
    const changed = await select(creator, deal.id, third);
    expect(changed.body).toMatchObject({
      selected_bid_by_creator: third,
      selected_bid_by_dealer: second,
      dealmaker: null,
      budget: deal.budget,
    });
    expect((await bidRows(deal.id)).length).toBe(3);
  });

  it('unselects on a second click', async () => {
    const deal = await dealWithDealers(server, creator, counterpart);
    const bidId = await placeBid(server, bidder, deal.id, 100);
    expect((await select(counterpart, deal.id, bidId)).body.selected_bid_by_dealer).toBe(bidId);
    const again = await select(counterpart, deal.id, bidId);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ selected_bid_by_creator: null, selected_bid_by_dealer: null });
    expect((await select(creator, deal.id, bidId)).body.selected_bid_by_creator).toBe(bidId);
    expect((await select(creator, deal.id, bidId)).body.selected_bid_by_creator).toBeNull();
    expect(await getDeal(deal.id)).toMatchObject({ dealmaker: null, budget: deal.budget });
  });

  it('finalizes the deal when both dealers choose the same bid', async () => {
    const deal = await dealWithDealers(server, creator, counterpart);
    const winning = await placeBid(server, bidder, deal.id, 432.1);
    const losing = await placeBid(server, otherBidder, deal.id, 300);
    const [requested, rejecting] = await signUpMany(server, 2);
    await sendRequest(server, creator, deal.id, requested);
    const rejectedId = await sendRequest(server, counterpart, deal.id, rejecting);
    const rejected = await server.post(`/api/request-dealmaker/reject/${rejectedId}`, {
      token: rejecting.token,
    });
    expect(rejected.status).toBe(200);

    await selectBid(server, counterpart, deal.id, losing);
    await selectBid(server, creator, deal.id, winning);
    const response = await select(counterpart, deal.id, winning);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ...deal,
      dealer_joined: counterpart.username,
      updatedAt: isoTimestamp,
      dealmaker: bidder.username,
      budget: 432.1,
      selected_bid_by_creator: winning,
      selected_bid_by_dealer: winning,
      can: dealCan({ leave: true, payEscrow: true, markFinished: true, raiseDispute: true }),
    });
    expect((await getDeal(deal.id, outsider)).dealmaker).toBe(bidder.username);
    expect((await server.db.select().from(deals).where(eq(deals.id, deal.id)))[0]!.budgetCents).toBe(43210);
    expect((await bidRows(deal.id)).map((b) => b.id)).toEqual([winning]);
    // Pending requests go; the rejected one stays as history.
    const requests = await server.db
      .select()
      .from(dealmakerRequests)
      .where(eq(dealmakerRequests.dealId, deal.id));
    expect(requests.map((r) => ({ id: r.id, rejected: r.rejected }))).toEqual([
      { id: rejectedId, rejected: true },
    ]);

    const asMaker = await server.get<Deal[]>('/api/deals/dealmaker-deals', { token: bidder.token });
    expect(asMaker.body.map((d) => d.id)).toContain(deal.id);
    expect((await listBids(bidder, deal.id)).body.map((b) => b.id)).toEqual([winning]);

    // Selecting (or unselecting) after finalization is refused.
    for (const [dealer, bidId] of [
      [creator, winning],
      [counterpart, winning],
      [creator, losing],
    ] as const) {
      const after = await select(dealer, deal.id, bidId);
      expect(after.status).toBe(409);
      expect(after.body).toEqual(bidsClosed);
    }
    expect(await getDeal(deal.id)).toMatchObject({ dealmaker: bidder.username, budget: 432.1 });
  });

  it("never finalizes on the creator's selection alone when nobody has joined", async () => {
    const deal = await createDeal(server, creator);
    const bidId = await placeBid(server, bidder, deal.id, 50);
    const response = await select(creator, deal.id, bidId);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      selected_bid_by_creator: bidId,
      selected_bid_by_dealer: null,
      dealmaker: null,
      dealer_joined: null,
      budget: deal.budget,
    });
    expect((await bidRows(deal.id)).map((b) => b.id)).toEqual([bidId]);
  });

  it('refuses anyone who is not a dealer of the deal', async () => {
    const deal = await dealWithDealers(server, creator, counterpart);
    const bidId = await placeBid(server, bidder, deal.id, 50);
    for (const user of [bidder, outsider]) {
      const response = await select(user, deal.id, bidId);
      expect(response.status).toBe(403);
      expect(response.body).toEqual(onlyDealersSelect);
    }
    // Nor the dealmaker, once there is one.
    const withMaker = await createDeal(server, creator);
    await assignDealmakerByRequest(server, creator, withMaker.id, otherBidder);
    const response = await select(otherBidder, withMaker.id, bidId);
    expect(response.status).toBe(403);
    expect(response.body).toEqual(onlyDealersSelect);
  });

  it('answers 404 for a bid of another deal or an unknown bid or deal', async () => {
    const deal = await dealWithDealers(server, creator, counterpart);
    const other = await createDeal(server, creator);
    const foreignBid = await placeBid(server, bidder, other.id, 50);
    for (const bidId of [foreignBid, 999999]) {
      const response = await select(creator, deal.id, bidId);
      expect(response.status).toBe(404);
      expect(response.body).toEqual(bidNotFound);
    }
    const unknownDeal = await select(creator, 999999, foreignBid);
    expect(unknownDeal.status).toBe(404);
    expect(unknownDeal.body).toEqual(dealNotFound);
    expect(await getDeal(deal.id)).toMatchObject({ selected_bid_by_creator: null });
  });

  it('refuses a completed deal, bad ids and a caller without a token', async () => {
    const deal = await dealWithDealers(server, creator, counterpart);
    const bidId = await placeBid(server, bidder, deal.id, 50);
    await markCompletedInDb(server, deal.id);
    const response = await select(creator, deal.id, bidId);
    expect(response.status).toBe(409);
    expect(response.body).toEqual(completed);
    const badId = await server.put(`/api/bid-management/select-bid/${deal.id}/abc`, { token: creator.token });
    expect(badId.status).toBe(400);
    const anonymous = await server.put(`/api/bid-management/select-bid/${deal.id}/${bidId}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(signInFirst);
  });
});
