import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dispute } from '../../../contract/disputes';
import { escrowMessages } from '../../../contract/escrow';
import {
  assignDealmakerByRequest,
  createDeal,
  dealWithDealers,
  isoTimestamp,
  markCompletedInDb,
  signUpMany,
} from '../../test/deal-fixtures';
import { dealNotFound, invalid, onlyParticipants, signInFirst, unknownId } from '../../test/expected-errors';
import { type SignedUpUser, startTestServer, type TestServer } from '../../test/harness';
import { domainEvents, noticesIn, recordEvents } from '../../test/recorded-events';

const disputeNotFound = { message: 'Dispute not found.', code: 'NOT_FOUND' };
const onlyDealersRaise = { message: 'Only the dealers of this deal can raise a dispute.', code: 'FORBIDDEN' };
const onlyDealmakerResolves = {
  message: 'Only the dealmaker of this deal can resolve its disputes.',
  code: 'FORBIDDEN',
};
const noDealmakerYet = {
  message: 'A dispute can be raised once the deal has a dealmaker.',
  code: 'CONFLICT',
};
const notOpen = { message: 'This dispute is not open.', code: 'CONFLICT' };

let server: TestServer;
let creator: SignedUpUser;
let counterpart: SignedUpUser;
let dealmaker: SignedUpUser;
let outsider: SignedUpUser;
let recorder: ReturnType<typeof recordEvents>;

beforeAll(async () => {
  server = await startTestServer();
  const users = await signUpMany(server, 4);
  [creator, counterpart, dealmaker, outsider] = users as [
    SignedUpUser,
    SignedUpUser,
    SignedUpUser,
    SignedUpUser,
  ];
  recorder = recordEvents(server);
});
afterAll(() => server.close());

/** A deal with both dealers and its dealmaker, as the API builds it. */
async function staffedDeal() {
  const deal = await dealWithDealers(server, creator, counterpart);
  await assignDealmakerByRequest(server, creator, deal.id, dealmaker);
  return deal;
}

const raise = (user: SignedUpUser, body: unknown) =>
  server.post<Dispute>('/api/disputes', { token: user.token, body });
const listDisputes = (user: SignedUpUser, dealId: number) =>
  server.get<Dispute[]>(`/api/disputes/deal/${dealId}`, { token: user.token });
const resolve = (user: SignedUpUser, disputeId: number, body: unknown) =>
  server.put<Dispute>(`/api/disputes/${disputeId}/resolve`, { token: user.token, body });

/** Raises a dispute (asserting 201). */
async function disputeOn(dealId: number, by = creator, title = 'Late delivery') {
  const response = await raise(by, { dealId, title, description: 'It did not arrive on time.' });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

const hasOpenDispute = (dealId: number) => server.app.services.dealAccess.hasOpenDispute(dealId, server.db);

describe('POST /api/disputes', () => {
  it('lets a dealer raise an open dispute and answers 201 with its full shape', async () => {
    const deal = await staffedDeal();
    recorder.take();
    const response = await raise(counterpart, {
      dealId: deal.id,
      title: '  Wrong goods  ',
      description: '  We received the wrong pallets.  ',
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      dealId: deal.id,
      title: 'Wrong goods',
      description: 'We received the wrong pallets.',
      status: 'open',
      raisedByUsername: counterpart.username,
      raiser: { full_name: counterpart.full_name },
      createdAt: isoTimestamp,
      resolution: null,
      resolvedByUsername: null,
      resolver: null,
      resolvedAt: null,
      escalated: false,
      escalatedAt: null,
      escalatesAt: isoTimestamp,
      proposals: [],
      settlement: null,
    });
    const recorded = recorder.take();
    expect(domainEvents(recorded)).toEqual([
      {
        audience: { users: [creator.user.id, counterpart.user.id, dealmaker.user.id] },
        event: 'dispute-updated',
        payload: { dealId: deal.id, data: response.body, updateType: 'created' },
      },
    ]);
    const raised = `${counterpart.username} raised a dispute on "${deal.title}": Wrong goods`;
    expect(noticesIn(recorded)).toEqual([
      { to: creator.user.id, kind: 'dispute-raised', dealId: deal.id, message: raised },
      { to: dealmaker.user.id, kind: 'dispute-raised', dealId: deal.id, message: raised },
    ]);
  });

  it('lets the creator raise one too, and several per deal', async () => {
    const deal = await staffedDeal();
    const first = await disputeOn(deal.id, creator, 'First');
    const second = await disputeOn(deal.id, creator, 'Second');
    expect(second.id).not.toBe(first.id);
    expect(second.raisedByUsername).toBe(creator.username);
    expect(second.raiser).toEqual({ full_name: creator.full_name });
  });

  it('refuses a deal that has no dealmaker yet', async () => {
    const deal = await dealWithDealers(server, creator, counterpart);
    for (const user of [creator, counterpart]) {
      const response = await raise(user, { dealId: deal.id, title: 'Early', description: 'Too early.' });
      expect(response.status).toBe(409);
      expect(response.body).toEqual(noDealmakerYet);
    }
    expect((await listDisputes(creator, deal.id)).body).toEqual([]);
  });

  it('refuses the dealmaker and outsiders', async () => {
    const deal = await staffedDeal();
    recorder.take();
    for (const user of [dealmaker, outsider]) {
      const response = await raise(user, { dealId: deal.id, title: 'Mine', description: 'Not allowed.' });
      expect(response.status).toBe(403);
      expect(response.body).toEqual(onlyDealersRaise);
    }
    expect((await listDisputes(creator, deal.id)).body).toEqual([]);
    expect(recorder.take()).toEqual([]);
  });

  it('requires a title and a description', async () => {
    const deal = await staffedDeal();
    for (const [body, field, message] of [
      [{ dealId: deal.id, description: 'No title' }, 'title', 'Title is required'],
      [{ dealId: deal.id, title: '   ', description: 'Blank title' }, 'title', 'Title is required'],
      [{ dealId: deal.id, title: 'No description' }, 'description', 'Description is required'],
      [{ dealId: deal.id, title: 'Blank', description: ' \n ' }, 'description', 'Description is required'],
    ] as const) {
      const response = await raise(creator, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(invalid(field, message));
    }
    const neither = await raise(creator, { dealId: deal.id });
    expect(neither.status).toBe(400);
    expect(neither.body).toEqual({
      message: 'Title is required',
      code: 'VALIDATION_FAILED',
      fieldErrors: { title: ['Title is required'], description: ['Description is required'] },
    });
    expect((await listDisputes(creator, deal.id)).body).toEqual([]);
  });

  it('bounds the title to 200 and the description to 5000 characters', async () => {
    const deal = await staffedDeal();
    const longTitle = await raise(creator, { dealId: deal.id, title: 't'.repeat(201), description: 'Fine.' });
    expect(longTitle.status).toBe(400);
    expect(longTitle.body).toEqual(invalid('title', 'Title must be at most 200 characters'));
    const longDescription = await raise(creator, {
      dealId: deal.id,
      title: 'Fine',
      description: 'd'.repeat(5001),
    });
    expect(longDescription.status).toBe(400);
    expect(longDescription.body).toEqual(
      invalid('description', 'Description must be at most 5000 characters'),
    );
    const longest = await raise(creator, {
      dealId: deal.id,
      title: 't'.repeat(200),
      description: 'd'.repeat(5000),
    });
    expect(longest.status).toBe(201);
  });

  it('answers 404 for an unknown deal and 401 without a token', async () => {
    const unknown = await raise(creator, { dealId: unknownId, title: 'Where', description: 'Nowhere.' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(dealNotFound);
    const deal = await staffedDeal();
    const anonymous = await server.post('/api/disputes', {
      body: { dealId: deal.id, title: 'Anonymous', description: 'Nobody.' },
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(signInFirst);
  });
});

describe('GET /api/disputes/deal/{dealId}', () => {
  it('shows every participant the disputes, newest first', async () => {
    const deal = await staffedDeal();
    const first = await disputeOn(deal.id, creator, 'First');
    const second = await disputeOn(deal.id, counterpart, 'Second');
    const third = await disputeOn(deal.id, creator, 'Third');
    const resolved = await resolve(dealmaker, first.id, { resolution: 'Settled.' });
    for (const user of [creator, counterpart, dealmaker]) {
      const response = await listDisputes(user, deal.id);
      expect(response.status).toBe(200);
      expect(response.body).toEqual([third, second, resolved.body]);
    }
  });

  it('answers an empty list for a deal without disputes', async () => {
    const deal = await staffedDeal();
    const response = await listDisputes(dealmaker, deal.id);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it('refuses outsiders', async () => {
    const deal = await staffedDeal();
    await disputeOn(deal.id);
    const response = await listDisputes(outsider, deal.id);
    expect(response.status).toBe(403);
    expect(response.body).toEqual(onlyParticipants);
  });

  it('answers 404 for an unknown deal and 401 without a token', async () => {
    const unknown = await listDisputes(creator, unknownId);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(dealNotFound);
    const deal = await staffedDeal();
    const anonymous = await server.get(`/api/disputes/deal/${deal.id}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(signInFirst);
  });
});

describe('PUT /api/disputes/{id}/resolve', () => {
  it('lets the dealmaker resolve an open dispute', async () => {
    const deal = await staffedDeal();
    const dispute = await disputeOn(deal.id, counterpart, 'Quality');
    recorder.take();
    const before = Date.now();
    const response = await resolve(dealmaker, dispute.id, { resolution: '  Replaced at no cost.  ' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ...dispute,
      status: 'resolved',
      resolution: 'Replaced at no cost.',
      resolvedByUsername: dealmaker.username,
      resolver: { full_name: dealmaker.full_name },
      resolvedAt: isoTimestamp,
      escalatesAt: null,
    });
    expect(Date.parse(response.body.resolvedAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect((await listDisputes(creator, deal.id)).body).toEqual([response.body]);
    const recorded = recorder.take();
    expect(domainEvents(recorded)).toEqual([
      {
        audience: { users: [creator.user.id, counterpart.user.id, dealmaker.user.id] },
        event: 'dispute-updated',
        payload: { dealId: deal.id, data: response.body, updateType: 'updated' },
      },
    ]);
    const resolved = `The dispute "Quality" on "${deal.title}" was resolved.`;
    expect(noticesIn(recorded)).toEqual([
      { to: creator.user.id, kind: 'dispute-resolved', dealId: deal.id, message: resolved },
      { to: counterpart.user.id, kind: 'dispute-resolved', dealId: deal.id, message: resolved },
    ]);
  });

  it('refuses the dealers and outsiders', async () => {
    const deal = await staffedDeal();
    const dispute = await disputeOn(deal.id);
    for (const user of [creator, counterpart, outsider]) {
      const response = await resolve(user, dispute.id, { resolution: 'My way.' });
      expect(response.status).toBe(403);
      expect(response.body).toEqual(onlyDealmakerResolves);
    }
    expect((await listDisputes(creator, deal.id)).body).toEqual([dispute]);
  });

  it('requires a resolution', async () => {
    const deal = await staffedDeal();
    const dispute = await disputeOn(deal.id);
    for (const body of [{}, { resolution: '' }, { resolution: '   ' }]) {
      const response = await resolve(dealmaker, dispute.id, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(invalid('resolution', 'Resolution is required'));
    }
    const tooLong = await resolve(dealmaker, dispute.id, { resolution: 'r'.repeat(5001) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual(invalid('resolution', 'Resolution must be at most 5000 characters'));
    expect((await listDisputes(creator, deal.id)).body).toEqual([dispute]);
  });

  it('refuses to resolve a dispute twice', async () => {
    const deal = await staffedDeal();
    const dispute = await disputeOn(deal.id);
    const first = await resolve(dealmaker, dispute.id, { resolution: 'Done.' });
    expect(first.status).toBe(200);
    const second = await resolve(dealmaker, dispute.id, { resolution: 'Done again.' });
    expect(second.status).toBe(409);
    expect(second.body).toEqual(notOpen);
    expect((await listDisputes(creator, deal.id)).body).toEqual([first.body]);
  });

  it('resolves once when two resolutions race', async () => {
    const deal = await staffedDeal();
    const dispute = await disputeOn(deal.id);
    const responses = await Promise.all(
      ['One.', 'Two.', 'Three.'].map((resolution) => resolve(dealmaker, dispute.id, { resolution })),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const winner = responses.find((r) => r.status === 200)!;
    expect((await listDisputes(creator, deal.id)).body).toEqual([winner.body]);
  });

  it('answers 404 for an unknown dispute and 401 without a token', async () => {
    const unknown = await resolve(dealmaker, unknownId, { resolution: 'Whatever.' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(disputeNotFound);
    const deal = await staffedDeal();
    const dispute = await disputeOn(deal.id);
    const anonymous = await server.put(`/api/disputes/${dispute.id}/resolve`, {
      body: { resolution: 'Anonymous.' },
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(signInFirst);
  });
});

describe('DealAccess.hasOpenDispute', () => {
  it('is true while any dispute of the deal is open and false once all are resolved', async () => {
    const deal = await staffedDeal();
    expect(await hasOpenDispute(deal.id)).toBe(false);
    const first = await disputeOn(deal.id, creator, 'First');
    const second = await disputeOn(deal.id, counterpart, 'Second');
    expect(await hasOpenDispute(deal.id)).toBe(true);
    expect((await resolve(dealmaker, first.id, { resolution: 'Fixed.' })).status).toBe(200);
    expect(await hasOpenDispute(deal.id)).toBe(true);
    expect((await resolve(dealmaker, second.id, { resolution: 'Fixed too.' })).status).toBe(200);
    expect(await hasOpenDispute(deal.id)).toBe(false);
  });

  it('looks at its own deal only', async () => {
    const disputed = await staffedDeal();
    const quiet = await staffedDeal();
    await disputeOn(disputed.id);
    expect(await hasOpenDispute(disputed.id)).toBe(true);
    expect(await hasOpenDispute(quiet.id)).toBe(false);
  });
});

describe('a deal without a counterpart', () => {
  it('lets the creator raise a dispute once a dealmaker exists', async () => {
    const deal = await createDeal(server, creator);
    await assignDealmakerByRequest(server, creator, deal.id, dealmaker);
    const dispute = await disputeOn(deal.id);
    expect((await listDisputes(dealmaker, deal.id)).body).toEqual([dispute]);
  });
});

describe('a completed deal', () => {
  it('takes no new disputes', async () => {
    const deal = await staffedDeal();
    await markCompletedInDb(server, deal.id);
    const late = await raise(creator, { dealId: deal.id, title: 'Late', description: 'After the end.' });
    expect(late.status).toBe(409);
    expect(late.body).toEqual({ message: 'This deal is already completed.', code: 'CONFLICT' });
    expect((await listDisputes(creator, deal.id)).body).toEqual([]);
  });
});

describe('marking a deal finished', () => {
  it('is refused while a dispute is open and goes through once the dealmaker resolves it', async () => {
    const deal = await staffedDeal();
    for (const dealer of [creator, counterpart]) {
      const deposited = await server.post('/api/wallet/deposit', {
        token: dealer.token,
        body: { amount: 500 },
      });
      expect(deposited.status, JSON.stringify(deposited.body)).toBe(200);
      const paid = await server.post(`/api/wallet/escrow/${deal.id}/lock`, { token: dealer.token });
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    }
    const dispute = await disputeOn(deal.id, counterpart);
    const markFinished = (dealer: SignedUpUser) =>
      server.put(`/api/progress/deal/${deal.id}/complete`, { token: dealer.token });

    for (const dealer of [creator, counterpart]) {
      const refused = await markFinished(dealer);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({
        message: 'Resolve the open dispute before marking the deal as finished.',
        code: 'CONFLICT',
      });
    }

    expect((await resolve(dealmaker, dispute.id, { resolution: 'Agreed.' })).status).toBe(200);
    const first = await markFinished(creator);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ isCompleted: false, deal: { completed_by_creator: true } });
    const second = await markFinished(counterpart);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({
      message: escrowMessages.released,
      isCompleted: true,
      deal: { id: deal.id, is_completed: true },
    });
  });
});
