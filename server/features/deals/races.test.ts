import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bid, Deal } from '../../../contract/deals';
import { bids, dealmakerRequests, deals } from '../../db/schema';
import {
  createDeal,
  dealWithDealers,
  placeBid,
  selectBid,
  sendRequest,
  signUpMany,
} from '../../test/deal-fixtures';
import { dealNotFound } from '../../test/expected-errors';
import type { ApiResponse, SignedUpUser, TestServer } from '../../test/harness';
import { startTestServer } from '../../test/harness';
import { recordEvents } from '../../test/recorded-events';

/**
 * Requests fired at the same moment over HTTP really overlap on PostgreSQL
 * (embedded or not), so these check the row locks: exactly one winner,
 * consistent rows, never a 500.
 */
const rounds = 10;

const conflict = (message: string) => ({ message, code: 'CONFLICT' });
const alreadyJoined = conflict('Someone has already joined this deal.');
const bidsClosed = conflict('This deal already has its dealmaker; bids are closed.');
const alreadyBid = conflict('You have already bid on this deal. Update your bid instead.');
const requestNotFound = { message: 'Request not found.', code: 'NOT_FOUND' };

let server: TestServer;
let creator: SignedUpUser;
let counterpart: SignedUpUser;
let crowd: SignedUpUser[];

beforeAll(async () => {
  server = await startTestServer();
  [creator, counterpart, ...crowd] = await signUpMany(server, 22);
});
afterAll(() => server.close());

const dealRow = async (id: number) => (await server.db.select().from(deals).where(eq(deals.id, id)))[0];
const bidRows = (dealId: number) => server.db.select().from(bids).where(eq(bids.dealId, dealId));
const requestRows = (dealId: number) =>
  server.db.select().from(dealmakerRequests).where(eq(dealmakerRequests.dealId, dealId));
const statuses = (responses: ApiResponse[]) => responses.map((r) => r.status).sort();
/** Selects (or unselects) a bid; a success's body is the answer's `deal` (the answer is `{ message, deal }`). */
const select = async (user: SignedUpUser, dealId: number, bidId: number) => {
  const response = await server.put(`/api/bid-management/select-bid/${dealId}/${bidId}`, {
    token: user.token,
  });
  return response.status === 200 ? { ...response, body: response.body.deal as Deal } : response;
};
const accept = (user: SignedUpUser, requestId: number) =>
  server.post(`/api/request-dealmaker/accept/${requestId}`, { token: user.token });

// Ten rounds of concurrent calls take a while on a busy machine.
describe('races', { timeout: 120_000 }, () => {
  it('lets exactly one of several users join a deal at once', async () => {
    const contenders = crowd.slice(0, 5);
    for (let round = 0; round < rounds; round++) {
      const deal = await createDeal(server, creator);
      const responses = await Promise.all(
        contenders.map((user) =>
          server.put<Deal>(`/api/deals/join-deal-as-dealer/${deal.id}`, { token: user.token }),
        ),
      );
      expect(statuses(responses)).toEqual([200, 409, 409, 409, 409]);
      const winner = responses.findIndex((r) => r.status === 200);
      for (const response of responses.filter((r) => r.status === 409)) {
        expect(response.body).toEqual(alreadyJoined);
      }
      const joined = contenders[winner]!;
      expect(responses[winner]!.body.dealer_joined).toBe(joined.username);
      expect((await dealRow(deal.id))!.counterpartId).toBe(joined.user.id);
    }
  });

  it('finalizes exactly once when both dealers select the same bid at the same moment', async () => {
    const recorded = recordEvents(server);
    for (let round = 0; round < rounds; round++) {
      const deal = await dealWithDealers(server, creator, counterpart);
      const [winner, loser] = [crowd[round % crowd.length]!, crowd[(round + 1) % crowd.length]!];
      const price = 100 + round + 0.25;
      const winning = await placeBid(server, winner, deal.id, price);
      await placeBid(server, loser, deal.id, 999);
      const responses = await Promise.all([
        select(creator, deal.id, winning),
        select(counterpart, deal.id, winning),
      ]);
      expect(statuses(responses)).toEqual([200, 200]);
      // The first to commit saw only its own choice; the second saw both and finalized.
      const finalizing = responses.filter((r) => r.body.dealmaker !== null);
      expect(finalizing).toHaveLength(1);
      expect(finalizing[0]!.body).toMatchObject({
        dealmaker: winner.username,
        budget: price,
        selected_bid_by_creator: winning,
        selected_bid_by_dealer: winning,
      });
      const row = (await dealRow(deal.id))!;
      expect(row).toMatchObject({
        dealmakerId: winner.user.id,
        budgetCents: Math.round(price * 100),
        selectedBidByCreator: winning,
        selectedBidByCounterpart: winning,
      });
      expect((await bidRows(deal.id)).map((b) => b.id)).toEqual([winning]);
      const finalized = recorded.take().filter((e) => {
        const payload = e.payload as { dealId: number; updateType: string };
        return e.event === 'deal-updated' && payload.dealId === deal.id && payload.updateType === 'finalized';
      });
      expect(finalized).toHaveLength(1);
    }
    recorded.detach();
  });

  it('gives a deal exactly one dealmaker when an accept races a bid finalization', async () => {
    for (let round = 0; round < rounds; round++) {
      const deal = await dealWithDealers(server, creator, counterpart);
      const bidder = crowd[round % crowd.length]!;
      const receiver = crowd[(round + 7) % crowd.length]!;
      const pending = crowd[(round + 14) % crowd.length]!;
      const winning = await placeBid(server, bidder, deal.id, 321);
      await selectBid(server, creator, deal.id, winning);
      const requestId = await sendRequest(server, creator, deal.id, receiver);
      await sendRequest(server, counterpart, deal.id, pending);

      // Alternate which request is sent first, so both orders are exercised.
      const finalizing = () => select(counterpart, deal.id, winning);
      const accepting = () => accept(receiver, requestId);
      const [finalize, acceptance] =
        round % 2 === 0
          ? await Promise.all([finalizing(), accepting()])
          : await Promise.all([accepting(), finalizing()]).then(([a, f]) => [f, a] as const);

      const row = (await dealRow(deal.id))!;
      const remainingBids = await bidRows(deal.id);
      const remainingRequests = await requestRows(deal.id);
      expect(remainingRequests).toEqual([]);
      if (finalize.status === 200) {
        expect(acceptance.status).toBe(404);
        expect(acceptance.body).toEqual(requestNotFound);
        expect(finalize.body).toMatchObject({ dealmaker: bidder.username, budget: 321 });
        expect(row).toMatchObject({ dealmakerId: bidder.user.id, budgetCents: 32100 });
        expect(remainingBids.map((b) => b.id)).toEqual([winning]);
      } else {
        expect(acceptance.status).toBe(200);
        expect(finalize.status).toBe(409);
        expect(finalize.body).toEqual(bidsClosed);
        expect(row).toMatchObject({
          dealmakerId: receiver.user.id,
          budgetCents: Math.round(deal.budget * 100),
          selectedBidByCreator: null,
          selectedBidByCounterpart: null,
        });
        expect(remainingBids).toEqual([]);
      }
    }
  });

  it('gives a deal exactly one dealmaker when two receivers accept at once', async () => {
    for (let round = 0; round < rounds; round++) {
      const deal = await createDeal(server, creator);
      const [one, two] = [crowd[round % crowd.length]!, crowd[(round + 3) % crowd.length]!];
      const requests = [
        await sendRequest(server, creator, deal.id, one),
        await sendRequest(server, creator, deal.id, two),
      ];
      const responses = await Promise.all([accept(one, requests[0]!), accept(two, requests[1]!)]);
      expect(statuses(responses)).toEqual([200, 404]);
      const winner = responses[0]!.status === 200 ? one : two;
      expect(responses.find((r) => r.status === 404)!.body).toEqual(requestNotFound);
      expect((await dealRow(deal.id))!.dealmakerId).toBe(winner.user.id);
      expect(await requestRows(deal.id)).toEqual([]);
    }
  });

  it('records every one of 20 bids placed at once on one deal', async () => {
    const bidders = crowd.slice(0, 20);
    expect(bidders).toHaveLength(20);
    for (let round = 0; round < rounds; round++) {
      const deal = await createDeal(server, creator);
      const responses = await Promise.all(
        bidders.map((bidder, i) =>
          server.post<Bid>('/api/bidding/create', {
            token: bidder.token,
            body: { dealId: deal.id, price: 10 + i },
          }),
        ),
      );
      expect(statuses(responses)).toEqual(Array(20).fill(201));
      const rows = await bidRows(deal.id);
      expect(rows).toHaveLength(20);
      expect(new Set(rows.map((r) => r.bidderId))).toEqual(new Set(bidders.map((b) => b.user.id)));
      for (const [i, bidder] of bidders.entries()) {
        expect(rows.find((r) => r.bidderId === bidder.user.id)!.priceCents).toBe((10 + i) * 100);
      }
      const listed = await server.get<Bid[]>(`/api/bidding/deal/${deal.id}`, { token: creator.token });
      expect(listed.body).toHaveLength(20);
    }
  });

  it('keeps one bid when a user submits the same bid several times at once', async () => {
    for (let round = 0; round < rounds; round++) {
      const deal = await createDeal(server, creator);
      const bidder = crowd[round % crowd.length]!;
      const twice = await Promise.all(
        [1, 2].map(() =>
          server.post('/api/bidding/create', { token: bidder.token, body: { dealId: deal.id, price: 55 } }),
        ),
      );
      expect(statuses(twice)).toEqual([201, 409]);
      expect(twice.find((r) => r.status === 409)!.body).toEqual(alreadyBid);

      const other = await createDeal(server, creator);
      const fiveTimes = await Promise.all(
        [1, 2, 3, 4, 5].map(() =>
          server.post('/api/bidding/create', { token: bidder.token, body: { dealId: other.id, price: 55 } }),
        ),
      );
      expect(statuses(fiveTimes)).toEqual([201, 409, 409, 409, 409]);
      expect(await bidRows(deal.id)).toHaveLength(1);
      expect(await bidRows(other.id)).toHaveLength(1);
    }
  });

  it('never lets a user both bid on and join a deal when they try both at once', async () => {
    for (let round = 0; round < rounds; round++) {
      const deal = await createDeal(server, creator);
      const user = crowd[round % crowd.length]!;
      const [joined, bid] = await Promise.all([
        server.put(`/api/deals/join-deal-as-dealer/${deal.id}`, { token: user.token }),
        server.post('/api/bidding/create', { token: user.token, body: { dealId: deal.id, price: 5 } }),
      ]);
      const row = (await dealRow(deal.id))!;
      const rows = await bidRows(deal.id);
      if (joined.status === 200) {
        expect(bid.status).toBe(403);
        expect(row.counterpartId).toBe(user.user.id);
        expect(rows).toEqual([]);
      } else {
        expect(joined.status).toBe(409);
        expect(bid.status).toBe(201);
        expect(row.counterpartId).toBeNull();
        expect(rows.map((r) => r.bidderId)).toEqual([user.user.id]);
      }
    }
  });

  it('leaves no bids behind when a deal is deleted while bids arrive', async () => {
    for (let round = 0; round < rounds; round++) {
      const deal = await createDeal(server, creator);
      const bidders = crowd.slice(0, 5);
      const [removal, ...placed] = await Promise.all([
        server.delete(`/api/deals/delete-deal/${deal.id}`, { token: creator.token }),
        ...bidders.map((bidder) =>
          server.post('/api/bidding/create', { token: bidder.token, body: { dealId: deal.id, price: 5 } }),
        ),
      ]);
      expect(removal!.status).toBe(200);
      for (const response of placed) {
        expect([201, 404]).toContain(response.status);
        if (response.status === 404) expect(response.body).toEqual(dealNotFound);
      }
      expect(await dealRow(deal.id)).toBeUndefined();
      expect(await bidRows(deal.id)).toEqual([]);
    }
  });

  it('never finalizes without the counterpart when they leave while selecting', async () => {
    for (let round = 0; round < rounds; round++) {
      const deal = await dealWithDealers(server, creator, counterpart);
      const bidder = crowd[round % crowd.length]!;
      const bidId = await placeBid(server, bidder, deal.id, 42);
      await selectBid(server, creator, deal.id, bidId);
      const [selected, left] = await Promise.all([
        select(counterpart, deal.id, bidId),
        server.put(`/api/deals/leave-deal-as-dealer/${deal.id}`, { token: counterpart.token }),
      ]);
      expect(left.status).toBe(200);
      const row = (await dealRow(deal.id))!;
      expect(row.counterpartId).toBeNull();
      expect(row.selectedBidByCounterpart).toBeNull();
      if (selected.status === 200) {
        // Selected first: the deal was finalized before the counterpart left.
        expect(row.dealmakerId).toBe(bidder.user.id);
      } else {
        expect(selected.status).toBe(403);
        expect(row.dealmakerId).toBeNull();
      }
    }
  });
});
