import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { CreateDealRequest, Deal, DealCan } from '../../contract/deals';
import { nothingAllowed } from '../../contract/vocabulary';
import { deals, escrows, milestones } from '../db/schema';
import { type SignedUpUser, signUp, type TestServer } from './harness';

/** An ISO 8601 timestamp as the API writes them. */
export const isoTimestamp = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

/** A deal answer's `can`: these allowed, nothing else. */
export const dealCan = (allowed: Partial<DealCan> = {}): DealCan => ({ ...nothingAllowed, ...allowed });

/** What anyone with no part in an open deal and no bid on it may do. */
export const outsiderOfOpenDeal = dealCan({ join: true, bid: true });

let dealCounter = 0;

/** A valid create-deal body with a title no other deal of the run has. */
export function newDealBody(overrides: Partial<CreateDealRequest> = {}): CreateDealRequest {
  dealCounter++;
  return {
    title: `Deal ${dealCounter}`,
    description: `Description of deal ${dealCounter}`,
    budget: 1000,
    timeline: '2 weeks',
    ...overrides,
  };
}

/** `N` times T: a literal count gives a tuple, so destructured users need no checks. */
type Repeat<T, N extends number, R extends T[] = []> = number extends N
  ? T[]
  : R['length'] extends N
    ? R
    : Repeat<T, N, [...R, T]>;

/** Several users signed up at once. */
export function signUpMany<const N extends number>(
  server: TestServer,
  count: N,
): Promise<Repeat<SignedUpUser, N>> {
  return Promise.all(Array.from({ length: count }, () => signUp(server))) as Promise<Repeat<SignedUpUser, N>>;
}

/** Posts a deal (asserting 201) and returns it. */
export async function createDeal(
  server: TestServer,
  creator: SignedUpUser,
  overrides: Partial<CreateDealRequest> = {},
): Promise<Deal> {
  const response = await server.post<Deal>('/api/deals/create-deal', {
    token: creator.token,
    body: newDealBody(overrides),
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

/** Joins a deal as its counterpart (asserting 200). */
export async function joinDeal(server: TestServer, user: SignedUpUser, dealId: number): Promise<Deal> {
  const response = await server.put<Deal>(`/api/deals/join-deal-as-dealer/${dealId}`, { token: user.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

/** Places a bid (asserting 201) and returns its id. */
export async function placeBid(
  server: TestServer,
  bidder: SignedUpUser,
  dealId: number,
  price = 500,
): Promise<number> {
  const response = await server.post('/api/bidding/create', { token: bidder.token, body: { dealId, price } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id as number;
}

/** Toggles a dealer's selection of a bid (asserting 200) and returns the deal. */
export async function selectBid(
  server: TestServer,
  dealer: SignedUpUser,
  dealId: number,
  bidId: number,
): Promise<Deal> {
  const response = await server.put<{ message: string; deal: Deal }>(
    `/api/bid-management/select-bid/${dealId}/${bidId}`,
    { token: dealer.token },
  );
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.deal;
}

/** Sends a dealmaker request (asserting 201) and returns its id. */
export async function sendRequest(
  server: TestServer,
  sender: SignedUpUser,
  dealId: number,
  receiver: SignedUpUser,
): Promise<number> {
  const response = await server.post('/api/request-dealmaker/send-request', {
    token: sender.token,
    body: { dealId, receiverUsername: receiver.username },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id as number;
}

/** A deal with its creator and a joined counterpart. */
export async function dealWithDealers(server: TestServer, creator: SignedUpUser, counterpart: SignedUpUser) {
  const deal = await createDeal(server, creator);
  await joinDeal(server, counterpart, deal.id);
  return deal;
}

/** Gives a deal its dealmaker the way the product does: the dealmaker accepts a creator's request. */
export async function assignDealmakerByRequest(
  server: TestServer,
  creator: SignedUpUser,
  dealId: number,
  dealmaker: SignedUpUser,
): Promise<Deal> {
  const requestId = await sendRequest(server, creator, dealId, dealmaker);
  const response = await server.post(`/api/request-dealmaker/accept/${requestId}`, {
    token: dealmaker.token,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.deal as Deal;
}

/** Marks a deal completed directly in the database (completion itself needs a locked escrow). */
export async function markCompletedInDb(server: TestServer, dealId: number) {
  await server.db
    .update(deals)
    .set({
      isCompleted: true,
      completedByCreator: true,
      completedByCounterpart: true,
      completionDate: new Date(),
    })
    .where(eq(deals.id, dealId));
}

/** Records the creator's escrow half as paid directly in the database: the deal becomes protected. */
export async function payCreatorHalfInDb(server: TestServer, dealId: number, amountCents = 100_000) {
  const split = {
    amountCents,
    creatorShareCents: Math.ceil(amountCents / 2),
    counterpartShareCents: Math.floor(amountCents / 2),
  };
  await server.db.insert(escrows).values({ dealId, ...split, creatorPaid: true });
  // Its one milestone, as an escrow opened by the product has.
  await server.db
    .insert(milestones)
    .values({ dealId, position: 1, title: 'Whole deal', ...split, creatorPaid: true });
}
