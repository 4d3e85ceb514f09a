import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deal } from '../../../contract/deals';
import { bids, dealmakerRequests, deals } from '../../db/schema';
import {
  assignDealmakerByRequest,
  createDeal,
  dealCan,
  dealWithDealers,
  isoTimestamp,
  joinDeal,
  markCompletedInDb,
  newDealBody,
  outsiderOfOpenDeal,
  payCreatorHalfInDb,
  placeBid,
  selectBid,
  sendRequest,
  signUpMany,
} from '../../test/deal-fixtures';
import { dealNotFound, invalid, signInFirst } from '../../test/expected-errors';
import { type SignedUpUser, startTestServer, type TestServer } from '../../test/harness';

const conflict = (message: string) => ({ message, code: 'CONFLICT' });
const forbidden = (message: string) => ({ message, code: 'FORBIDDEN' });
const notTwoDecimals = 'Amount must be a positive number with at most 2 decimals';
const outOfRange = 'Amount must be between $0.01 and $1,000,000,000.00';
const notANumber = 'Amount must be a number';

let server: TestServer;
let alice: SignedUpUser;
let bob: SignedUpUser;
let carol: SignedUpUser;
let dave: SignedUpUser;

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob, carol, dave] = await signUpMany(server, 4);
});
afterAll(() => server.close());

const getDeal = (id: number, user: SignedUpUser) =>
  server.get<Deal>(`/api/deals/${id}`, { token: user.token });
const dealRow = async (id: number) => (await server.db.select().from(deals).where(eq(deals.id, id)))[0];

describe('POST /api/deals/create-deal', () => {
  it('creates the deal and answers 201 with its full shape', async () => {
    const response = await server.post('/api/deals/create-deal', {
      token: alice.token,
      body: { title: 'Office move', description: 'Move 40 desks', budget: 100.5, timeline: '3 weeks' },
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      title: 'Office move',
      description: 'Move 40 desks',
      budget: 100.5,
      timeline: '3 weeks',
      createdAt: isoTimestamp,
      updatedAt: isoTimestamp,
      dealer_creator: alice.username,
      dealer_joined: null,
      dealmaker: null,
      is_completed: false,
      completion_date: null,
      completed_by_creator: false,
      completed_by_counterpart: false,
      selected_bid_by_creator: null,
      selected_bid_by_dealer: null,
      escrow_paid: false,
      settled: false,
      joinPolicy: 'open',
      my_bid: null,
      can: dealCan({ delete: true, edit: true, selectBid: true, requestDealmaker: true }),
    });
    expect((await dealRow(response.body.id))!.budgetCents).toBe(10050);
    const again = await getDeal(response.body.id, bob);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...response.body, can: outsiderOfOpenDeal });
  });

  it('trims the texts and keeps amounts exact at both ends of the range', async () => {
    const trimmed = await createDeal(server, alice, {
      title: '  Padded title ',
      description: '\n Padded description\t',
      timeline: ' soon ',
      budget: 0.01,
    });
    expect(trimmed).toMatchObject({
      title: 'Padded title',
      description: 'Padded description',
      timeline: 'soon',
      budget: 0.01,
    });
    const largest = await createDeal(server, alice, { budget: 1_000_000_000 });
    expect(largest.budget).toBe(1_000_000_000);
    const cents = await createDeal(server, alice, { budget: 999_999_999.99 });
    expect(cents.budget).toBe(999_999_999.99);
    expect((await dealRow(cents.id))!.budgetCents).toBe(99_999_999_999);
  });

  it('accepts texts at their maximum lengths', async () => {
    const deal = await createDeal(server, alice, {
      title: 't'.repeat(200),
      description: 'd'.repeat(5000),
      timeline: 'l'.repeat(200),
    });
    expect(deal.title).toHaveLength(200);
    expect(deal.description).toHaveLength(5000);
    expect(deal.timeline).toHaveLength(200);
  });

  it.each([
    ['title', 'Title is required'],
    ['description', 'Description is required'],
    ['timeline', 'Timeline is required'],
    ['budget', notANumber],
  ] as const)('refuses a deal without %s', async (field, message) => {
    const body: Record<string, unknown> = newDealBody();
    delete body[field];
    const response = await server.post('/api/deals/create-deal', { token: alice.token, body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(invalid(field, message));
  });

  it.each([
    ['title', '', 'Title is required'],
    ['title', '   ', 'Title is required'],
    ['description', '', 'Description is required'],
    ['description', ' \n\t ', 'Description is required'],
    ['timeline', '', 'Timeline is required'],
    ['timeline', '  ', 'Timeline is required'],
    ['title', 't'.repeat(201), 'Title must be at most 200 characters'],
    ['description', 'd'.repeat(5001), 'Description must be at most 5000 characters'],
    ['timeline', 'l'.repeat(201), 'Timeline must be at most 200 characters'],
    ['title', 42, 'Title is required'],
    ['title', 'nul\u0000byte', 'Title contains an invalid character'],
    ['description', '\u0000', 'Description contains an invalid character'],
    ['timeline', 'soon\u0000', 'Timeline contains an invalid character'],
  ])('refuses %s %j', async (field, value, message) => {
    const response = await server.post('/api/deals/create-deal', {
      token: alice.token,
      body: newDealBody({ [field]: value }),
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(invalid(field, message));
  });

  it.each([
    ['2000', 2000],
    ['2000.5', 2000.5],
    ['2000.50', 2000.5],
  ])(
    'takes the budget %j as a decimal string, exactly (clients of the original system send strings)',
    async (budget, expected) => {
      const response = await server.post('/api/deals/create-deal', {
        token: alice.token,
        body: { ...newDealBody(), budget },
      });
      expect(response.status).toBe(201);
      expect(response.body.budget).toBe(expected);
    },
  );

  it.each([
    [0, outOfRange],
    [-5, notTwoDecimals],
    [-0.01, notTwoDecimals],
    [1.005, notTwoDecimals],
    [0.001, notTwoDecimals],
    [1e21, notTwoDecimals],
    [1_000_000_000.01, outOfRange],
    [2_000_000_000, outOfRange],
    ['NaN', notTwoDecimals],
    ['1e3', notTwoDecimals],
    [' 12', notTwoDecimals],
    ['12.345', notTwoDecimals],
    ['-5', notTwoDecimals],
    ['abc', notTwoDecimals],
    ['', notTwoDecimals],
    ['0', outOfRange],
    [null, notANumber],
    [true, notANumber],
    [[100], notANumber],
  ])('refuses the budget %j', async (budget, message) => {
    const response = await server.post('/api/deals/create-deal', {
      token: alice.token,
      body: { ...newDealBody(), budget },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(invalid('budget', message));
  });

  it('refuses a request without a body', async () => {
    const response = await server.post('/api/deals/create-deal', { token: alice.token });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: 'Request body is missing.', code: 'VALIDATION_FAILED' });
  });

  it('refuses a caller without a token, and stores nothing', async () => {
    const title = 'Anonymous deal attempt';
    const response = await server.post('/api/deals/create-deal', { body: newDealBody({ title }) });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(signInFirst);
    expect(await server.db.select().from(deals).where(eq(deals.title, title))).toEqual([]);
  });
});

describe('GET /api/deals/all', () => {
  it('lists deals newest first, pages with limit and before', async () => {
    const first = await createDeal(server, alice);
    const second = await createDeal(server, bob);
    const third = await createDeal(server, carol);
    const page = await server.get<Deal[]>('/api/deals/all?limit=3', { token: dave.token });
    expect(page.status).toBe(200);
    expect(page.body.map((d) => d.id)).toEqual([third.id, second.id, first.id]);
    expect(page.body[0]).toEqual({ ...third, updatedAt: isoTimestamp, can: outsiderOfOpenDeal });

    const older = await server.get<Deal[]>(`/api/deals/all?limit=2&before=${third.id}`, {
      token: dave.token,
    });
    expect(older.status).toBe(200);
    expect(older.body.map((d) => d.id)).toEqual([second.id, first.id]);

    const all = await server.get<Deal[]>('/api/deals/all', { token: dave.token });
    const ids = all.body.map((d) => d.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(ids.slice(0, 3)).toEqual([third.id, second.id, first.id]);
    expect(all.body.every((d) => d.escrow_paid === false)).toBe(true);
  });

  it('answers at most 50 deals by default and at most limit', async () => {
    const dealsNow = await server.db.select({ id: deals.id }).from(deals);
    for (let i = dealsNow.length; i < 52; i++) await createDeal(server, alice);
    const byDefault = await server.get<Deal[]>('/api/deals/all', { token: alice.token });
    expect(byDefault.body).toHaveLength(50);
    const most = await server.get<Deal[]>('/api/deals/all?limit=100', { token: alice.token });
    expect(most.body.length).toBeGreaterThanOrEqual(52);
    const one = await server.get<Deal[]>('/api/deals/all?limit=1', { token: alice.token });
    expect(one.body).toHaveLength(1);
    expect(one.body[0]!.id).toBe(byDefault.body[0]!.id);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['before=0', 'before'],
    ['before=-3', 'before'],
    ['before=abc', 'before'],
    ['before=3000000000', 'before'],
  ])('refuses the query %s with 400', async (query, field) => {
    const response = await server.get(`/api/deals/all?${query}`, { token: alice.token });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(response.body.fieldErrors)).toEqual([field]);
  });

  it('shows each viewer their own bid only (my_bid)', async () => {
    const deal = await createDeal(server, alice, { title: 'Bid visibility check' });
    const bidId = await placeBid(server, carol, deal.id, 321.45);
    const list = async (user: SignedUpUser) =>
      (await server.get<Deal[]>('/api/deals/all/Bid visibility check', { token: user.token })).body;
    expect((await list(carol))[0]!.my_bid).toEqual({ id: bidId, price: 321.45 });
    expect((await list(dave))[0]!.my_bid).toBeNull();
    expect((await list(alice))[0]!.my_bid).toBeNull();
    expect((await getDeal(deal.id, carol)).body.my_bid).toEqual({ id: bidId, price: 321.45 });
    expect((await getDeal(deal.id, dave)).body.my_bid).toBeNull();
  });

  it('refuses a caller without a token', async () => {
    const response = await server.get('/api/deals/all');
    expect(response.status).toBe(401);
    expect(response.body).toEqual(signInFirst);
  });
});

describe('GET /api/deals/all/{keyword}', () => {
  const search = async (keyword: string, query = '') => {
    const response = await server.get<Deal[]>(`/api/deals/all/${encodeURIComponent(keyword)}${query}`, {
      token: dave.token,
    });
    expect(response.status).toBe(200);
    return response.body.map((d) => d.id);
  };

  it('matches title or description, case-insensitively, newest first', async () => {
    const inTitle = await createDeal(server, alice, { title: 'Quokkafarm expansion' });
    const inDescription = await createDeal(server, bob, { description: 'Funding a QUOKKAFARM in Perth' });
    await createDeal(server, bob, { title: 'Unrelated', description: 'Nothing to see' });
    expect(await search('quokkaFARM')).toEqual([inDescription.id, inTitle.id]);
    expect(await search('  quokkafarm  ')).toEqual([inDescription.id, inTitle.id]);
    expect(await search('quokkafarm', '?limit=1')).toEqual([inDescription.id]);
    expect(await search('quokkafarm', `?before=${inDescription.id}`)).toEqual([inTitle.id]);
    expect(await search('no-such-wombat-word')).toEqual([]);
  });

  it("takes '%' and '_' literally", async () => {
    const percent = await createDeal(server, alice, { title: 'Rebate 70% off kumquats' });
    await createDeal(server, alice, { title: 'Rebate 700 kumquats' });
    const underscore = await createDeal(server, alice, { title: 'kum_quat tooling' });
    await createDeal(server, alice, { title: 'kumXquat tooling' });
    expect(await search('70%')).toEqual([percent.id]);
    expect(await search('%')).toEqual([percent.id]);
    expect(await search('kum_quat')).toEqual([underscore.id]);
    expect(await search('\\')).toEqual([]);
  });

  it('refuses a keyword with a NUL character', async () => {
    const response = await server.get('/api/deals/all/a%00b', { token: dave.token });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(invalid('keyword', 'Keyword contains an invalid character'));
  });

  it('takes keywords up to 100 characters', async () => {
    const keyword = 'k'.repeat(100);
    const deal = await createDeal(server, alice, { description: `The longest keyword: ${keyword}` });
    expect(await search(keyword)).toEqual([deal.id]);
  });
});

describe('GET /api/deals/my-deals and /api/deals/dealmaker-deals', () => {
  it('lists the deals the caller created or joined, and those they are dealmaker of', async () => {
    const [creator, counterpart, bidder, maker] = await signUpMany(server, 4);
    const created = await createDeal(server, creator);
    const joined = await createDeal(server, alice);
    await joinDeal(server, counterpart, joined.id);
    const alsoJoinedByCreator = await createDeal(server, bob);
    await joinDeal(server, creator, alsoJoinedByCreator.id);
    await placeBid(server, bidder, created.id);
    const withMaker = await createDeal(server, creator);
    await assignDealmakerByRequest(server, creator, withMaker.id, maker);

    const mine = async (user: SignedUpUser) => {
      const response = await server.get<Deal[]>('/api/deals/my-deals', { token: user.token });
      expect(response.status).toBe(200);
      return response.body.map((d) => d.id);
    };
    expect(await mine(creator)).toEqual([withMaker.id, alsoJoinedByCreator.id, created.id]);
    expect(await mine(counterpart)).toEqual([joined.id]);
    expect(await mine(bidder)).toEqual([]);
    expect(await mine(maker)).toEqual([]);

    const asMaker = await server.get<Deal[]>('/api/deals/dealmaker-deals', { token: maker.token });
    expect(asMaker.status).toBe(200);
    expect(asMaker.body).toEqual([expect.objectContaining({ id: withMaker.id, dealmaker: maker.username })]);
    const notMaker = await server.get<Deal[]>('/api/deals/dealmaker-deals', { token: creator.token });
    expect(notMaker.body).toEqual([]);
  });

  it('refuses a caller without a token', async () => {
    for (const path of ['/api/deals/my-deals', '/api/deals/dealmaker-deals']) {
      const response = await server.get(path);
      expect(response.status).toBe(401);
      expect(response.body).toEqual(signInFirst);
    }
  });
});

describe('GET /api/deals/{id}', () => {
  it('answers 404 for an unknown deal and 400 for an id that is not one', async () => {
    const unknown = await server.get('/api/deals/999999', { token: alice.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(dealNotFound);
    for (const id of ['abc', '0', '-1', '1.5', '2147483648']) {
      const response = await server.get(`/api/deals/${id}`, { token: alice.token });
      expect(response.status, id).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
  });

  it('refuses a caller without a token', async () => {
    const deal = await createDeal(server, alice);
    const response = await server.get(`/api/deals/${deal.id}`);
    expect(response.status).toBe(401);
    expect(response.body).toEqual(signInFirst);
  });
});

describe('PUT /api/deals/join-deal-as-dealer/{id}', () => {
  const join = (id: number, user: SignedUpUser) =>
    server.put<Deal>(`/api/deals/join-deal-as-dealer/${id}`, { token: user.token });

  it('makes the caller the counterpart', async () => {
    const deal = await createDeal(server, alice);
    const response = await join(deal.id, bob);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ...deal,
      dealer_joined: bob.username,
      updatedAt: isoTimestamp,
      can: dealCan({ leave: true, selectBid: true, requestDealmaker: true }),
    });
    expect((await getDeal(deal.id, carol)).body.dealer_joined).toBe(bob.username);
  });

  it('refuses the creator', async () => {
    const deal = await createDeal(server, alice);
    const response = await join(deal.id, alice);
    expect(response.status).toBe(409);
    expect(response.body).toEqual(
      conflict('You created this deal, so you cannot join it as its counterpart.'),
    );
  });

  it('refuses the dealmaker', async () => {
    const deal = await createDeal(server, alice);
    await assignDealmakerByRequest(server, alice, deal.id, carol);
    const response = await join(deal.id, carol);
    expect(response.status).toBe(409);
    expect(response.body).toEqual(
      conflict('You are the dealmaker of this deal, so you cannot join it as a dealer.'),
    );
    expect((await getDeal(deal.id, alice)).body.dealer_joined).toBeNull();
  });

  it('refuses a user with a bid on the deal', async () => {
    const deal = await createDeal(server, alice);
    await placeBid(server, carol, deal.id);
    const response = await join(deal.id, carol);
    expect(response.status).toBe(409);
    expect(response.body).toEqual(
      conflict('You have a bid on this deal. Delete your bid before joining it as a dealer.'),
    );
  });

  it('refuses when someone has already joined, including the counterpart again', async () => {
    const deal = await dealWithDealers(server, alice, bob);
    for (const user of [carol, bob]) {
      const response = await join(deal.id, user);
      expect(response.status).toBe(409);
      expect(response.body).toEqual(conflict('Someone has already joined this deal.'));
    }
    expect((await getDeal(deal.id, alice)).body.dealer_joined).toBe(bob.username);
  });

  it('refuses a completed deal', async () => {
    const deal = await createDeal(server, alice);
    await markCompletedInDb(server, deal.id);
    const response = await join(deal.id, bob);
    expect(response.status).toBe(409);
    expect(response.body).toEqual(conflict('This deal is already completed.'));
  });

  it('answers 404 for an unknown deal and 401 without a token', async () => {
    const unknown = await join(999999, bob);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(dealNotFound);
    const deal = await createDeal(server, alice);
    const anonymous = await server.put(`/api/deals/join-deal-as-dealer/${deal.id}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(signInFirst);
  });
});

describe('PUT /api/deals/leave-deal-as-dealer/{id}', () => {
  const leave = (id: number, user: SignedUpUser) =>
    server.put<Deal>(`/api/deals/leave-deal-as-dealer/${id}`, { token: user.token });

  it('lets the counterpart leave, taking their selection and finished flag with them', async () => {
    const deal = await dealWithDealers(server, alice, bob);
    const [first, second] = await signUpMany(server, 2);
    const firstBid = await placeBid(server, first, deal.id);
    const secondBid = await placeBid(server, second, deal.id);
    await selectBid(server, alice, deal.id, firstBid);
    await selectBid(server, bob, deal.id, secondBid);
    await server.db.update(deals).set({ completedByCounterpart: true }).where(eq(deals.id, deal.id));

    const response = await leave(deal.id, bob);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ...deal,
      updatedAt: isoTimestamp,
      dealer_joined: null,
      selected_bid_by_creator: firstBid,
      selected_bid_by_dealer: null,
      completed_by_counterpart: false,
      can: outsiderOfOpenDeal,
    });
    // The deal is open again: someone else may join.
    expect((await joinDeal(server, carol, deal.id)).dealer_joined).toBe(carol.username);
  });

  it('refuses the creator, outsiders and a former counterpart', async () => {
    const deal = await dealWithDealers(server, alice, bob);
    for (const user of [alice, carol]) {
      const response = await leave(deal.id, user);
      expect(response.status).toBe(403);
      expect(response.body).toEqual(forbidden('Only the joined counterpart can leave this deal.'));
    }
    expect((await leave(deal.id, bob)).status).toBe(200);
    const again = await leave(deal.id, bob);
    expect(again.status).toBe(403);
    expect(again.body).toEqual(forbidden('Only the joined counterpart can leave this deal.'));
  });

  it('refuses once an escrow half is paid', async () => {
    const deal = await dealWithDealers(server, alice, bob);
    await payCreatorHalfInDb(server, deal.id);
    expect((await getDeal(deal.id, bob)).body.escrow_paid).toBe(true);
    const response = await leave(deal.id, bob);
    expect(response.status).toBe(409);
    expect(response.body).toEqual(conflict('Cannot leave - escrow payment made'));
    expect((await getDeal(deal.id, bob)).body.dealer_joined).toBe(bob.username);
  });

  it('refuses a completed deal', async () => {
    const deal = await dealWithDealers(server, alice, bob);
    await markCompletedInDb(server, deal.id);
    const response = await leave(deal.id, bob);
    expect(response.status).toBe(409);
    expect(response.body).toEqual(conflict('This deal is completed and cannot be left.'));
  });

  it('answers 404 for an unknown deal and 401 without a token', async () => {
    const unknown = await leave(999999, bob);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(dealNotFound);
    const anonymous = await server.put('/api/deals/leave-deal-as-dealer/1');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(signInFirst);
  });
});

describe('DELETE /api/deals/delete-deal/{id}', () => {
  const remove = (id: number, user: SignedUpUser) =>
    server.delete(`/api/deals/delete-deal/${id}`, { token: user.token });

  it('lets the creator delete the deal with its bids and requests', async () => {
    const deal = await dealWithDealers(server, alice, bob);
    await placeBid(server, carol, deal.id);
    await sendRequest(server, alice, deal.id, dave);
    const response = await remove(deal.id, alice);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Deal deleted successfully!' });
    expect((await getDeal(deal.id, alice)).status).toBe(404);
    expect(await server.db.select().from(bids).where(eq(bids.dealId, deal.id))).toEqual([]);
    expect(
      await server.db.select().from(dealmakerRequests).where(eq(dealmakerRequests.dealId, deal.id)),
    ).toEqual([]);
    const again = await remove(deal.id, alice);
    expect(again.status).toBe(404);
    expect(again.body).toEqual(dealNotFound);
  });

  it('refuses anyone but the creator', async () => {
    const deal = await dealWithDealers(server, alice, bob);
    await placeBid(server, carol, deal.id);
    for (const user of [bob, carol, dave]) {
      const response = await remove(deal.id, user);
      expect(response.status).toBe(403);
      expect(response.body).toEqual(forbidden('Only the creator can delete this deal.'));
    }
    expect((await getDeal(deal.id, alice)).status).toBe(200);
  });

  it('refuses once an escrow half is paid', async () => {
    const deal = await dealWithDealers(server, alice, bob);
    await payCreatorHalfInDb(server, deal.id);
    const response = await remove(deal.id, alice);
    expect(response.status).toBe(409);
    expect(response.body).toEqual(conflict('Deal is protected - escrow payment made'));
    expect((await getDeal(deal.id, alice)).status).toBe(200);
  });

  it('answers 404 for an unknown deal and 401 without a token', async () => {
    const unknown = await remove(999999, alice);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(dealNotFound);
    const anonymous = await server.delete('/api/deals/delete-deal/1');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(signInFirst);
  });
});
