/**
 * Finding deals: GET /api/deals/all's filters, sorts and ranked search with snippets, GET
 * /api/deals/count, saved searches with their alerts, GET /api/bids/mine, and bids that carry a
 * proposal, a delivery estimate and the bidder's record.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bid, Deal } from '../../../contract/deals';
import type { DealListItem, MyBid, SavedSearch } from '../../../contract/discovery';
import { notifications, savedSearches } from '../../db/schema';
import {
  assignDealmakerByRequest,
  createDeal,
  isoTimestamp,
  joinDeal,
  markCompletedInDb,
  placeBid,
  selectBid,
  signUpMany,
} from '../../test/deal-fixtures';
import { invalid, signInFirst } from '../../test/expected-errors';
import { type SignedUpUser, startTestServer, type TestServer } from '../../test/harness';

let server: TestServer;
let alice: SignedUpUser;
let bob: SignedUpUser;
let carol: SignedUpUser;
let dave: SignedUpUser;
let erin: SignedUpUser;

beforeAll(async () => {
  server = await startTestServer({ config: { savedSearchMailGatherSeconds: 0, jobPollingSeconds: 0.5 } });
  [alice, bob, carol, dave, erin] = await signUpMany(server, 5);
});
afterAll(() => server.close());

const list = (query: string, user: SignedUpUser = dave) =>
  server.get<DealListItem[]>(`/api/deals/all${query}`, { token: user.token });
const idsOf = async (query: string) => {
  const response = await list(query);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.map((deal) => deal.id);
};

describe('GET /api/deals/all with filters, sorts and keywords', () => {
  const seeded: Record<string, Deal> = {};
  let d1: number;
  let d2: number;
  let d3: number;
  let d4: number;
  let d5: number;

  beforeAll(async () => {
    seeded.d1 = await createDeal(server, alice, {
      title: 'Manufacturing plant in Ohio',
      description: 'We manufacture steel parts for cars.',
      budget: 5000,
    });
    seeded.d2 = await createDeal(server, alice, {
      title: 'Acquisition of a bakery',
      description: 'A family bakery looking for a buyer, supply chain included.',
      budget: 250000,
    });
    seeded.d3 = await createDeal(server, alice, {
      title: 'Freight supply contract',
      description: 'Refrigerated freight for fresh food between Lyon and Milan.',
      budget: 80000,
    });
    seeded.d4 = await createDeal(server, alice, {
      title: 'Software license resale',
      description: 'Reselling enterprise software <script>alert(1)</script> licenses in bulk.',
      budget: 1200,
    });
    seeded.d5 = await createDeal(server, alice, {
      title: 'Packaging supplier',
      description: 'Compostable packaging for the supply of food.',
      budget: 80000,
    });
    [d1, d2, d3, d4, d5] = [seeded.d1, seeded.d2, seeded.d3, seeded.d4, seeded.d5].map(
      (deal) => deal!.id,
    ) as [number, number, number, number, number];
    await joinDeal(server, bob, d2);
    await joinDeal(server, bob, d4);
    await assignDealmakerByRequest(server, alice, d4, carol);
    await joinDeal(server, bob, d5);
    await assignDealmakerByRequest(server, alice, d5, carol);
    await markCompletedInDb(server, d5);
  });

  it('answers the spec list without parameters: newest first, no snippets', async () => {
    const response = await list('');
    expect(response.status).toBe(200);
    expect(response.body.map((deal) => deal.id)).toEqual([d5, d4, d3, d2, d1]);
    expect(response.body.some((deal) => 'snippet' in deal)).toBe(false);
  });

  it('filters by status, one or several, repeated or comma-separated', async () => {
    expect(await idsOf('?status=open')).toEqual([d3, d1]);
    expect(await idsOf('?status=choosing')).toEqual([d2]);
    expect(await idsOf('?status=in_progress')).toEqual([d4]);
    expect(await idsOf('?status=completed')).toEqual([d5]);
    expect(await idsOf('?status=open,choosing')).toEqual([d3, d2, d1]);
    expect(await idsOf('?status=open&status=completed')).toEqual([d5, d3, d1]);
  });

  it('filters by budget and sorts by budget either way (ties by id), paging with offset', async () => {
    expect(await idsOf('?minBudget=1000&maxBudget=80000')).toEqual([d5, d4, d3, d1]);
    expect(await idsOf('?minBudget=80000.01')).toEqual([d2]);
    expect(await idsOf('?maxBudget=1200')).toEqual([d4]);
    expect(await idsOf('?sort=budget_desc')).toEqual([d2, d5, d3, d1, d4]);
    expect(await idsOf('?sort=budget_asc')).toEqual([d4, d1, d3, d5, d2]);
    expect(await idsOf('?sort=budget_desc&limit=2&offset=2')).toEqual([d3, d1]);
    expect(await idsOf(`?sort=newest&limit=2&before=${d3}`)).toEqual([d2, d1]);
    expect(await idsOf('?status=open&sort=budget_desc')).toEqual([d3, d1]);
  });

  it('finds stemmed words, phrases and exclusions, ranking title matches first', async () => {
    expect(await idsOf('?q=manufacturing')).toEqual([d1]);
    expect(await idsOf('?q=manufacture')).toEqual([d1]);
    const supply = await idsOf('?q=supply');
    expect(supply[0]).toBe(d3);
    expect([...supply].sort()).toEqual([d2, d3, d5].sort());
    expect(await idsOf('?q=%22fresh%20food%22')).toEqual([d3]);
    expect((await idsOf('?q=supply%20-bakery')).sort()).toEqual([d3, d5].sort());
    expect(await idsOf('?q=supply&status=completed')).toEqual([d5]);
    expect(await idsOf('?q=supply&sort=budget_asc')).toEqual([d3, d5, d2]);
    expect(await idsOf('?q=supply&sort=newest')).toEqual([d5, d3, d2]);
  });

  it('still finds a deal for a typo or a word the stemmer does not join, by similarity', async () => {
    expect(await idsOf('?q=manufacturng')).toEqual([d1]);
    expect(await idsOf('?q=acquire')).toEqual([d2]);
    expect(await idsOf('?q=acquire%20-bakery')).toEqual([]);
    expect(await idsOf('?q=zzzzqqq')).toEqual([]);
  });

  it('gives each keyword result a snippet of plain text with the matched words marked', async () => {
    const [manufacturing] = (await list('?q=manufacturing')).body;
    expect(manufacturing!.snippet).toEqual([
      { text: 'We ', match: false },
      { text: 'manufacture', match: true },
      { text: ' steel parts for cars.', match: false },
    ]);
    const [typo] = (await list('?q=manufacturng')).body;
    expect(typo!.snippet).toEqual([
      { text: 'We ', match: false },
      { text: 'manufacture', match: true },
      { text: ' steel parts for cars.', match: false },
    ]);
    const [software] = (await list('?q=software')).body;
    expect(software!.id).toBe(d4);
    expect(software!.snippet!.filter((part) => part.match).map((part) => part.text)).toEqual(['software']);
    // Whatever the description holds comes back as text for the web app to escape, never as markup of ours.
    expect(software!.snippet!.map((part) => part.text).join('')).toContain('alert(1)');
  });

  it('counts what the filters find', async () => {
    const count = (query: string) => server.get(`/api/deals/count${query}`, { token: dave.token });
    expect(await count('')).toMatchObject({ status: 200, body: { count: 5, more: false } });
    expect((await count('?status=open')).body).toEqual({ count: 2, more: false });
    expect((await count('?q=supply&maxBudget=80000')).body).toEqual({ count: 2, more: false });
    expect((await count('?q=manufacturng')).body).toEqual({ count: 1, more: false });
    expect((await count('?status=nope')).status).toBe(400);
    expect((await server.get('/api/deals/count')).body).toEqual(signInFirst);
  });

  it('answers each page of a keyword search in the order asked for, as the whole list has it', async () => {
    const harbor: number[] = [];
    for (let n = 1; n <= 12; n++) {
      const deal = await createDeal(server, erin, {
        title: n % 3 === 0 ? `Harbor crane ${n}` : `Crane ${n}`,
        description: 'Lifting gear',
        budget: 100 + ((n * 37) % 12) * 10,
      });
      if (n % 3 === 0) harbor.push(deal.id);
    }
    expect(await idsOf('?q=harbor&sort=newest&limit=2')).toEqual([harbor[3], harbor[2]]);
    expect(await idsOf('?q=harbor&sort=newest&limit=10')).toEqual([...harbor].reverse());
    const byBudget = await idsOf('?q=harbor&sort=budget_asc&limit=10');
    expect(await idsOf('?q=harbor&sort=budget_asc&limit=2')).toEqual(byBudget.slice(0, 2));
    expect(await idsOf('?q=harbor&sort=budget_asc&limit=2&offset=2')).toEqual(byBudget.slice(2, 4));
    expect((await idsOf('?q=harbor&limit=2')).length).toBe(2);
  });

  it('widens plain words to their closest words, never a quoted phrase', async () => {
    const label = await createDeal(server, erin, {
      title: 'Private label coffee',
      description: 'Roasted coffee sold under a private label.',
      budget: 3000,
    });
    const lapel = await createDeal(server, erin, {
      title: 'Private lapel pins',
      description: 'Enamel pins for a private lapel collection.',
      budget: 3000,
    });
    // "label" and "lapel" are close (trigram similarity 0.33): the exact match first, then the near one.
    expect(await idsOf('?q=private%20label')).toEqual([label.id, lapel.id]);
    expect(await idsOf('?q=private%20lapel')).toEqual([lapel.id, label.id]);
    expect(await idsOf('?q=%22private%20label%22')).toEqual([label.id]);
    expect(await idsOf('?q=%22private%20lapel%22%20-coffee')).toEqual([lapel.id]);
    expect(await idsOf('?q=private%20label%20-%22private%20lapel%22')).toEqual([label.id]);
  });

  it('refuses bad parameters with a clear message and no answer', async () => {
    const bad = async (query: string, field: string, message: string) => {
      const response = await list(query);
      expect(response.status, query).toBe(400);
      expect(response.body, query).toEqual(invalid(field, message));
    };
    await bad(
      '?status=bogus',
      'status',
      "status must be one of 'open', 'choosing', 'in_progress', 'completed'",
    );
    await bad(
      '?sort=cheapest',
      'sort',
      "sort must be one of 'newest', 'budget_desc', 'budget_asc', 'relevance'",
    );
    await bad(
      '?minBudget=abc',
      'minBudget',
      'minBudget must be an amount between $0.01 and $1,000,000,000.00, with at most 2 decimals',
    );
    await bad('?minBudget=500&maxBudget=100', 'minBudget', 'minBudget must not be more than maxBudget');
    await bad('?sort=relevance', 'sort', "sort 'relevance' needs keywords (q)");
    await bad(
      '?sort=budget_desc&before=5',
      'before',
      'before pages the newest-first list; page other orders with offset',
    );
    await bad('?offset=1001', 'offset', 'offset must be at most 1000');
    await bad(`?q=${'x'.repeat(101)}`, 'q', 'q must be at most 100 characters');
  });
});

describe('saved searches', () => {
  const save = (user: SignedUpUser, body: unknown) =>
    server.post<SavedSearch>('/api/saved-searches', { token: user.token, body });

  it('saves, lists, switches alerts, marks seen and deletes only the owner’s', async () => {
    const created = await save(erin, {
      name: 'Big freight',
      query: { q: 'freight', status: ['open', 'choosing'], minBudget: 1000, maxBudget: '250000.50' },
      alert: false,
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'Big freight',
      query: { q: 'freight', status: ['open', 'choosing'], minBudget: 1000, maxBudget: 250000.5 },
      alert: false,
      newMatches: 0,
      createdAt: isoTimestamp,
    });
    const id = created.body.id;
    expect((await server.get('/api/saved-searches', { token: erin.token })).body).toEqual([created.body]);
    expect((await server.get('/api/saved-searches', { token: dave.token })).body).toEqual([]);
    const switched = await server.patch(`/api/saved-searches/${id}`, {
      token: erin.token,
      body: { alert: true },
    });
    expect(switched).toMatchObject({ status: 200, body: { ...created.body, alert: true } });
    expect((await server.post(`/api/saved-searches/${id}/seen`, { token: erin.token })).status).toBe(200);

    const notFound = { message: 'Saved search not found.', code: 'NOT_FOUND' };
    for (const [method, path, body] of [
      ['patch', `/api/saved-searches/${id}`, { alert: false }],
      ['post', `/api/saved-searches/${id}/seen`, undefined],
      ['delete', `/api/saved-searches/${id}`, undefined],
    ] as const) {
      const response = await server[method](path, { token: dave.token, body });
      expect(response, `${method} ${path}`).toMatchObject({ status: 404, body: notFound });
    }
    expect((await server.get('/api/saved-searches', { token: erin.token })).body[0].alert).toBe(true);
    expect(await server.delete(`/api/saved-searches/${id}`, { token: erin.token })).toMatchObject({
      status: 200,
      body: { message: 'Saved search deleted.' },
    });
    expect((await server.get('/api/saved-searches', { token: erin.token })).body).toEqual([]);
  });

  it('refuses bad input, strangers and a 21st search', async () => {
    expect(
      (await server.post('/api/saved-searches', { body: { name: 'x', query: {}, alert: true } })).body,
    ).toEqual(signInFirst);
    expect((await save(erin, { query: {}, alert: true })).body).toEqual(invalid('name', 'name is required'));
    expect((await save(erin, { name: 'x', query: { status: ['soon'] }, alert: true })).body).toEqual(
      invalid('query.status', "status must be one of 'open', 'choosing', 'in_progress', 'completed'"),
    );
    expect((await save(erin, { name: 'x', query: {} })).body).toEqual(
      invalid('alert', 'alert must be true or false'),
    );
    expect(
      (await server.patch('/api/saved-searches/1', { token: erin.token, body: { alert: 'yes' } })).status,
    ).toBe(400);
    for (let n = 0; n < 20; n++)
      expect((await save(erin, { name: `S${n}`, query: {}, alert: false })).status).toBe(201);
    expect(await save(erin, { name: 'One too many', query: {}, alert: false })).toMatchObject({
      status: 409,
      body: { message: 'You can keep at most 20 saved searches: delete one first.', code: 'CONFLICT' },
    });
    await server.db.delete(savedSearches).where(eq(savedSearches.userId, erin.user.id as number));
  });

  it('tells the owner once of a deal that fits (posted or changed to fit), never of their own, and mails them at most hourly', async () => {
    const search = (
      await save(dave, {
        name: 'Wine freight',
        query: { q: 'wine', status: ['open'], maxBudget: 50000 },
        alert: true,
      })
    ).body;
    const matchesOf = async () =>
      (
        await server.db
          .select()
          .from(notifications)
          .where(eq(notifications.userId, dave.user.id as number))
      ).filter((row) => row.kind === 'saved-search-match');
    const mailsToDave = () =>
      server.mails.filter((mail) => mail.to === dave.email && mail.subject.includes('Wine freight'));

    const fits = await createDeal(server, alice, { title: 'Wine freight to Oslo', budget: 40000 });
    await createDeal(server, alice, { title: 'Wine freight, too big', budget: 90000 });
    await createDeal(server, alice, { title: 'Cheese freight', budget: 100 });
    await createDeal(server, dave, { title: 'My own wine deal', budget: 100 });
    await expect.poll(async () => (await matchesOf()).length, { timeout: 10_000 }).toBe(1);
    expect((await matchesOf()).map((row) => [row.dealId, row.message])).toEqual([
      [fits.id, 'A new deal matches your saved search "Wine freight": "Wine freight to Oslo".'],
    ]);
    // Not connected: the first mail comes within the gathering time (0 here), listing the deal.
    await expect.poll(() => mailsToDave().length, { timeout: 15_000, interval: 250 }).toBe(1);
    expect(mailsToDave()[0]).toMatchObject({
      subject: 'Dealmaker: A new deal matches "Wine freight"',
      link: expect.stringContaining(`/deals/${fits.id}`),
    });
    expect(mailsToDave()[0]!.text).toContain('- Wine freight to Oslo ($40,000.00)');

    // A change that makes a deal fit tells once too; an unrelated change to a matched deal does not again.
    const changed = await createDeal(server, alice, { title: 'Olive oil freight', budget: 100 });
    expect(
      (
        await server.patch(`/api/deals/${changed.id}`, {
          token: alice.token,
          body: { title: 'Wine and olive oil' },
        })
      ).status,
    ).toBe(200);
    await server.patch(`/api/deals/${fits.id}`, { token: alice.token, body: { timeline: '3 weeks' } });
    await expect.poll(async () => (await matchesOf()).length, { timeout: 10_000 }).toBe(2);
    const listed = (await server.get<SavedSearch[]>('/api/saved-searches', { token: dave.token })).body;
    expect(listed.find((s) => s.id === search.id)!.newMatches).toBe(2);

    // The second match waits for the hour since the last mail.
    const [row] = await server.db.select().from(savedSearches).where(eq(savedSearches.id, search.id));
    expect(row!.mailDueAt!.getTime() - row!.lastMailedAt!.getTime()).toBe(3_600_000);
    expect(mailsToDave()).toHaveLength(1);
    expect(
      (await server.post(`/api/saved-searches/${search.id}/seen`, { token: dave.token })).body.newMatches,
    ).toBe(0);
  });
});

describe('GET /api/bids/mine and bids worth choosing', () => {
  it('lists a bidder’s bids newest first with what became of each, through a whole selection and a deletion', async () => {
    const deal = await createDeal(server, alice, { title: 'Port logistics', budget: 1000 });
    await joinDeal(server, bob, deal.id);
    const carolBid = await server.post<Bid>('/api/bidding/create', {
      token: carol.token,
      body: { dealId: deal.id, price: 1200, proposal: 'I ran two ports.', deliveryDays: 14 },
    });
    expect(carolBid.status).toBe(201);
    expect(carolBid.body).toMatchObject({ proposal: 'I ran two ports.', deliveryDays: 14, price: 1200 });
    const daveBid = await placeBid(server, dave, deal.id, 900);
    const doomed = await createDeal(server, bob, { title: 'Short-lived', budget: 300 });
    await placeBid(server, carol, doomed.id, 250);

    const mine = async (user: SignedUpUser) => {
      const response = await server.get<MyBid[]>('/api/bids/mine', { token: user.token });
      expect(response.status).toBe(200);
      return response.body;
    };
    expect((await mine(carol)).map((bid) => [bid.deal.title, bid.outcome])).toEqual([
      ['Short-lived', 'pending'],
      ['Port logistics', 'pending'],
    ]);
    // The dealers see each bid with its bidder's record and whether it is above the budget.
    const seen = (await server.get<Bid[]>(`/api/bidding/deal/${deal.id}`, { token: alice.token })).body;
    expect(
      seen.map((bid) => [bid.dealmaker, bid.aboveBudget, bid.bidder, bid.proposal, bid.deliveryDays]),
    ).toEqual([
      [dave.username, false, { averageRating: null, reviews: 0, completedDeals: 0 }, null, null],
      [carol.username, true, { averageRating: null, reviews: 0, completedDeals: 1 }, 'I ran two ports.', 14],
    ]);
    // A bidder sees their own bid without the others' records.
    expect((await server.get<Bid[]>(`/api/bidding/deal/${deal.id}`, { token: dave.token })).body).toEqual([
      expect.not.objectContaining({ bidder: expect.anything() }),
    ]);

    await selectBid(server, alice, deal.id, carolBid.body.id);
    expect((await mine(carol))[1]).toMatchObject({
      outcome: 'selected by one dealer',
      selectedByCreator: true,
      selectedByCounterpart: false,
    });
    await selectBid(server, bob, deal.id, carolBid.body.id);
    expect(await server.delete(`/api/deals/delete-deal/${doomed.id}`, { token: bob.token })).toMatchObject({
      status: 200,
    });
    expect(await mine(carol)).toEqual([
      {
        id: expect.any(Number),
        price: 250,
        proposal: null,
        deliveryDays: null,
        createdAt: isoTimestamp,
        deal: { id: doomed.id, title: 'Short-lived', status: 'open', budget: 300 },
        selectedByCreator: false,
        selectedByCounterpart: false,
        outcome: 'deal deleted',
      },
      {
        id: carolBid.body.id,
        price: 1200,
        proposal: 'I ran two ports.',
        deliveryDays: 14,
        createdAt: isoTimestamp,
        deal: { id: deal.id, title: 'Port logistics', status: 'in_progress', budget: 1200 },
        selectedByCreator: true,
        selectedByCounterpart: true,
        outcome: 'won',
      },
    ]);
    expect((await mine(dave)).find((bid) => bid.id === daveBid)).toMatchObject({
      outcome: 'lost',
      deal: { id: deal.id, title: 'Port logistics', status: 'in_progress' },
    });
    const paged = await server.get<MyBid[]>(`/api/bids/mine?limit=1`, { token: carol.token });
    expect(paged.body.map((bid) => bid.outcome)).toEqual(['deal deleted']);
    const next = await server.get<MyBid[]>(`/api/bids/mine?limit=1&before=${paged.body[0]!.id}`, {
      token: carol.token,
    });
    expect(next.body.map((bid) => bid.outcome)).toEqual(['won']);
    expect((await server.get('/api/bids/mine')).body).toEqual(signInFirst);
    expect((await server.get('/api/bids/mine?limit=0', { token: carol.token })).status).toBe(400);
  });

  it('refuses a proposal too long or a delivery estimate that is not whole days', async () => {
    const deal = await createDeal(server, alice, { title: 'Careful bids', budget: 1000 });
    const bid = (body: object) =>
      server.post('/api/bidding/create', {
        token: erin.token,
        body: { dealId: deal.id, price: 100, ...body },
      });
    expect((await bid({ proposal: 'x'.repeat(2001) })).body).toEqual(
      invalid('proposal', 'Proposal must be at most 2000 characters'),
    );
    expect((await bid({ deliveryDays: 1.5 })).body).toEqual(
      invalid('deliveryDays', 'Delivery estimate must be a whole number of days'),
    );
    expect((await bid({ deliveryDays: 0 })).body).toEqual(
      invalid('deliveryDays', 'Delivery estimate must be at least 1 day'),
    );
    expect((await server.get<Bid[]>(`/api/bidding/deal/${deal.id}`, { token: alice.token })).body).toEqual(
      [],
    );
  });
});
