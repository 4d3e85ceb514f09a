import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deal, DealCan } from '../../../contract/deals';
import { createDeal, dealCan, joinDeal, placeBid, selectBid, signUpMany } from '../../test/deal-fixtures';
import type { SignedUpUser, TestServer } from '../../test/harness';
import { startTestServer } from '../../test/harness';
import { deposit, markFinished, payHalf } from '../../test/money-fixtures';

/**
 * What each viewer may do with a deal (`can`), as the deal's answers carry it, through the deal's life:
 * the same rules the calls enforce (server/core/deal/deal-policy.ts), for its creator, its counterpart,
 * its dealmaker, a bidder and an outsider; the same in the deal's own answer, in the deals list (whose
 * pages every viewer shares) and in a keyword search.
 */

const nothing = dealCan();
const only = dealCan;

let server: TestServer;
let creator: SignedUpUser;
let counterpart: SignedUpUser;
let dealmaker: SignedUpUser;
let bidder: SignedUpUser;
let outsider: SignedUpUser;
let deal: Deal;

beforeAll(async () => {
  server = await startTestServer();
  [creator, counterpart, dealmaker, bidder, outsider] = await signUpMany(server, 5);
  deal = await createDeal(server, creator, { title: 'Can check deal', budget: 300 });
});
afterAll(() => server.close());

/** The deal as the user gets it alone, in the deals list and in a search for its title. */
async function answersTo(user: SignedUpUser) {
  const alone = await server.get<Deal>(`/api/deals/${deal.id}`, { token: user.token });
  expect(alone.status).toBe(200);
  const list = await server.get<Deal[]>('/api/deals/all?limit=100', { token: user.token });
  const search = await server.get<Deal[]>('/api/deals/all/Can check deal', { token: user.token });
  return {
    alone: alone.body,
    inList: list.body.find((each) => each.id === deal.id),
    inSearch: search.body.find((each) => each.id === deal.id),
  };
}

/** Each user's `can`, exactly, wherever the deal is answered to them. */
async function expectCan(expected: Array<[SignedUpUser, DealCan]>) {
  for (const [user, can] of expected) {
    const { alone, inList, inSearch } = await answersTo(user);
    expect(alone.can, user.username).toEqual(can);
    expect(inList, user.username).toEqual(alone);
    expect(inSearch, user.username).toEqual(alone);
  }
}

const raiseDispute = (user: SignedUpUser) =>
  server.post('/api/disputes', {
    token: user.token,
    body: { dealId: deal.id, title: 'Late', description: 'The work came late.' },
  });

describe('can, through a deal’s life', () => {
  let dealmakerBidId: number;

  it('open: the creator deletes, selects and requests; anyone else joins or bids; a bidder changes their bid', async () => {
    await placeBid(server, bidder, deal.id, 250);
    await expectCan([
      [creator, only({ delete: true, edit: true, selectBid: true, requestDealmaker: true })],
      [bidder, only({ updateBid: true, deleteBid: true })],
      [outsider, only({ join: true, bid: true })],
      [dealmaker, only({ join: true, bid: true })],
    ]);
  });

  it('both dealers: the counterpart leaves, selects and requests; nobody else joins', async () => {
    await joinDeal(server, counterpart, deal.id);
    dealmakerBidId = await placeBid(server, dealmaker, deal.id, 200);
    await expectCan([
      [
        creator,
        only({ delete: true, edit: true, removeCounterpart: true, selectBid: true, requestDealmaker: true }),
      ],
      [counterpart, only({ leave: true, selectBid: true, requestDealmaker: true })],
      [bidder, only({ updateBid: true, deleteBid: true })],
      [dealmaker, only({ updateBid: true, deleteBid: true })],
      [outsider, only({ bid: true })],
    ]);
  });

  it('dealmaker chosen: the dealers pay, mark finished and raise disputes; the dealmaker tracks progress; bids close', async () => {
    await selectBid(server, creator, deal.id, dealmakerBidId);
    const finalized = await selectBid(server, counterpart, deal.id, dealmakerBidId);
    expect(finalized.dealmaker).toBe(dealmaker.username);
    const dealer: DealCan = { payEscrow: true, markFinished: true, raiseDispute: true };
    await expectCan([
      [creator, only({ delete: true, removeCounterpart: true, ...dealer })],
      [counterpart, only({ leave: true, ...dealer })],
      // The chosen bid stays the dealmaker's (my_bid), but bids are closed.
      [dealmaker, only({ addProgress: true })],
      [bidder, nothing],
      [outsider, nothing],
    ]);
    expect((await answersTo(dealmaker)).alone.my_bid).toEqual({ id: dealmakerBidId, price: 200 });
  });

  it('an escrow half paid: the payer may take it back; nobody deletes or leaves', async () => {
    await deposit(server, creator, 500);
    await deposit(server, counterpart, 500);
    expect((await payHalf(server, creator, deal.id)).status).toBe(200);
    await expectCan([
      [creator, only({ refundEscrow: true, markFinished: true, raiseDispute: true })],
      [counterpart, only({ payEscrow: true, markFinished: true, raiseDispute: true })],
      [dealmaker, only({ addProgress: true })],
      [bidder, nothing],
      [outsider, nothing],
    ]);
    expect((await answersTo(outsider)).alone.escrow_paid).toBe(true);
  });

  it('locked: no half moves any more', async () => {
    expect((await payHalf(server, counterpart, deal.id)).status).toBe(200);
    const dealer = only({ markFinished: true, raiseDispute: true });
    await expectCan([
      [creator, dealer],
      [counterpart, dealer],
      [dealmaker, only({ addProgress: true })],
      [bidder, nothing],
      [outsider, nothing],
    ]);
  });

  it('disputed: the dealers are still offered Mark as Finished (the call says why it waits)', async () => {
    expect((await raiseDispute(creator)).status).toBe(201);
    const dealer = only({ markFinished: true, raiseDispute: true });
    await expectCan([
      [creator, dealer],
      [counterpart, dealer],
      [dealmaker, only({ addProgress: true })],
      [bidder, nothing],
      [outsider, nothing],
    ]);
    const refused = await markFinished(server, creator, deal.id);
    expect(refused.body).toMatchObject({
      message: 'Resolve the open dispute before marking the deal as finished.',
    });
  });

  it('one mark given: that dealer is no longer offered Mark as Finished', async () => {
    const [dispute] = (await server.get(`/api/disputes/deal/${deal.id}`, { token: dealmaker.token })).body;
    const resolved = await server.put(`/api/disputes/${dispute.id}/resolve`, {
      token: dealmaker.token,
      body: { resolution: 'A week more.' },
    });
    expect(resolved.status).toBe(200);
    expect((await markFinished(server, creator, deal.id)).status).toBe(200);
    await expectCan([
      [creator, only({ raiseDispute: true })],
      [counterpart, only({ markFinished: true, raiseDispute: true })],
    ]);
  });

  it('completed: the participants review each other, and nothing else', async () => {
    expect((await markFinished(server, counterpart, deal.id)).body.isCompleted).toBe(true);
    await expectCan([
      [creator, only({ review: true })],
      [counterpart, only({ review: true })],
      [dealmaker, only({ review: true })],
      [bidder, nothing],
      [outsider, nothing],
    ]);
  });
});

describe('can in the answers of deal actions and of the lists of a user’s deals', () => {
  it('answers each caller with what they may do next', async () => {
    const [owner, joiner, other] = await signUpMany(server, 3);
    const created = await createDeal(server, owner);
    expect(created.can).toEqual(only({ delete: true, edit: true, selectBid: true, requestDealmaker: true }));
    const joined = await joinDeal(server, joiner, created.id);
    expect(joined.can).toEqual(only({ leave: true, selectBid: true, requestDealmaker: true }));
    const left = await server.put<Deal>(`/api/deals/leave-deal-as-dealer/${created.id}`, {
      token: joiner.token,
    });
    expect(left.body.can).toEqual(only({ join: true, bid: true }));
    const mine = await server.get<Deal[]>('/api/deals/my-deals', { token: owner.token });
    expect(mine.body.find((each) => each.id === created.id)?.can).toEqual(
      only({ delete: true, edit: true, selectBid: true, requestDealmaker: true }),
    );
    const activity = await server.get<Deal[]>(`/api/deals/activity/${owner.username}`, {
      token: other.token,
    });
    expect(activity.body.find((each) => each.id === created.id)?.can).toEqual(
      only({ join: true, bid: true }),
    );
  });

  it('a page of the list answers every viewer with their own can, its public part shared', async () => {
    const [first, second, viewer] = await signUpMany(server, 3);
    const mine = await createDeal(server, first, { title: 'Shared page check one' });
    const theirs = await createDeal(server, second, { title: 'Shared page check two' });
    const page = async (user: SignedUpUser) =>
      (await server.get<Deal[]>('/api/deals/all/Shared page check', { token: user.token })).body;
    const [byFirst, bySecond, byViewer] = await Promise.all([page(first), page(second), page(viewer)]);
    const canOf = (list: Deal[], id: number) => list.find((each) => each.id === id)?.can;
    const owner = only({ delete: true, edit: true, selectBid: true, requestDealmaker: true });
    const anyone = only({ join: true, bid: true });
    expect([canOf(byFirst, mine.id), canOf(byFirst, theirs.id)]).toEqual([owner, anyone]);
    expect([canOf(bySecond, mine.id), canOf(bySecond, theirs.id)]).toEqual([anyone, owner]);
    expect([canOf(byViewer, mine.id), canOf(byViewer, theirs.id)]).toEqual([anyone, anyone]);
    // Asked again, from the cached page: the same answers.
    expect(await page(first)).toEqual(byFirst);
    expect(await page(viewer)).toEqual(byViewer);
  });
});
