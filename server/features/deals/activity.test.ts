import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry, Deal } from '../../../contract/deals';
import {
  assignDealmakerByRequest,
  createDeal,
  joinDeal,
  markCompletedInDb,
  placeBid,
  signUpMany,
} from '../../test/deal-fixtures';
import { signInFirst } from '../../test/expected-errors';
import { type SignedUpUser, signUp, startTestServer, type TestServer } from '../../test/harness';

const userNotFound = { message: 'User not found', code: 'NOT_FOUND' };

let server: TestServer;
let subject: SignedUpUser;
let other: SignedUpUser;
let third: SignedUpUser;
let viewer: SignedUpUser;

beforeAll(async () => {
  server = await startTestServer();
  [subject, other, third, viewer] = (await signUpMany(server, 4)) as [
    SignedUpUser,
    SignedUpUser,
    SignedUpUser,
    SignedUpUser,
  ];
});
afterAll(() => server.close());

const activityOf = (username: string, as = viewer) =>
  server.get<ActivityEntry[]>(`/api/deals/activity/${encodeURIComponent(username)}`, { token: as.token });
const dealAs = async (id: number, as = viewer) =>
  (await server.get<Deal>(`/api/deals/${id}`, { token: as.token })).body;

describe('GET /api/deals/activity/{username}', () => {
  it("lists the deals a user takes part in, with the user's role, newest first", async () => {
    const asCreator = await createDeal(server, subject);
    await joinDeal(server, other, asCreator.id);
    await assignDealmakerByRequest(server, subject, asCreator.id, third);
    await markCompletedInDb(server, asCreator.id);

    const asCounterpart = await createDeal(server, other);
    await joinDeal(server, subject, asCounterpart.id);

    const asDealmaker = await createDeal(server, third);
    await assignDealmakerByRequest(server, third, asDealmaker.id, subject);

    // Deals where the user only bids, or takes no part, or has left, are not theirs.
    const bidOnly = await createDeal(server, other);
    await placeBid(server, subject, bidOnly.id);
    await createDeal(server, third);
    const left = await createDeal(server, third);
    await joinDeal(server, subject, left.id);
    const leave = await server.put(`/api/deals/leave-deal-as-dealer/${left.id}`, { token: subject.token });
    expect(leave.status).toBe(200);

    const response = await activityOf(subject.username);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      { ...(await dealAs(asDealmaker.id)), role: 'dealmaker' },
      { ...(await dealAs(asCounterpart.id)), role: 'counterpart' },
      { ...(await dealAs(asCreator.id)), role: 'creator' },
    ]);
    expect(response.body.map((entry) => entry.is_completed)).toEqual([false, false, true]);
    expect(response.body[2]!.completion_date).not.toBeNull();

    // The same list for the user themself, and whatever the case of the name.
    const own = await activityOf(subject.username.toUpperCase(), subject);
    expect(own.status).toBe(200);
    expect(own.body.map((entry) => [entry.id, entry.role])).toEqual([
      [asDealmaker.id, 'dealmaker'],
      [asCounterpart.id, 'counterpart'],
      [asCreator.id, 'creator'],
    ]);
  });

  it("shows the viewer's own bid on a deal, never the user's", async () => {
    const [owner, bidder] = (await signUpMany(server, 2)) as [SignedUpUser, SignedUpUser];
    const deal = await createDeal(server, owner);
    const bidId = await placeBid(server, bidder, deal.id, 321.5);

    const asBidder = await activityOf(owner.username, bidder);
    expect(asBidder.body).toEqual([{ ...(await dealAs(deal.id, bidder)), role: 'creator' }]);
    expect(asBidder.body[0]!.my_bid).toEqual({ id: bidId, price: 321.5 });

    const asOwner = await activityOf(owner.username, owner);
    expect(asOwner.body[0]!.my_bid).toBeNull();
    // The bidder's own activity does not list a deal they only bid on.
    expect((await activityOf(bidder.username)).body).toEqual([]);
  });

  it('answers an empty list for a user who takes part in no deal', async () => {
    const idle = await signUp(server);
    const response = await activityOf(idle.username);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it('answers 404 for an unknown user', async () => {
    const response = await activityOf('nobody_here');
    expect(response.status).toBe(404);
    expect(response.body).toEqual(userNotFound);
  });

  it('answers 401 without a token', async () => {
    const response = await server.get(`/api/deals/activity/${subject.username}`);
    expect(response.status).toBe(401);
    expect(response.body).toEqual(signInFirst);
  });
});
