import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProgressItem } from '../../../contract/progress';
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

const itemNotFound = { message: 'Progress item not found.', code: 'NOT_FOUND' };
const onlyDealmaker = {
  message: 'Only the dealmaker of this deal can manage its progress.',
  code: 'FORBIDDEN',
};
const dealCompleted = {
  message: 'This deal is completed; its progress can no longer change.',
  code: 'CONFLICT',
};
const cannotMove = (from: string, to: string) => ({
  message: `A ${from} item cannot be moved to ${to}.`,
  code: 'CONFLICT',
});
const badStatus = invalid('status', 'Status must be pending, in_progress or completed');

let server: TestServer;
let creator: SignedUpUser;
let counterpart: SignedUpUser;
let dealmaker: SignedUpUser;
let outsider: SignedUpUser;
let recorder: ReturnType<typeof recordEvents>;

/** The deal as a broadcast carries it: what its creator reads, without their `can` and bid. */
async function publicFieldsOf(dealId: number) {
  const { can: _can, ...fields } = (await server.get(`/api/deals/${dealId}`, { token: creator.token })).body;
  return { ...fields, my_bid: null };
}

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

const addItem = (user: SignedUpUser, body: unknown) =>
  server.post<ProgressItem>('/api/progress', { token: user.token, body });
const listItems = (user: SignedUpUser, dealId: number) =>
  server.get<ProgressItem[]>(`/api/progress/deal/${dealId}`, { token: user.token });
const setStatus = (user: SignedUpUser, itemId: number, status: unknown) =>
  server.put<ProgressItem>(`/api/progress/${itemId}/status`, { token: user.token, body: { status } });

/** Adds an item as the dealmaker (asserting 201). */
async function itemOn(dealId: number, title = 'Milestone') {
  const response = await addItem(dealmaker, { dealId, title });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

/** Walks an item through the given statuses as the dealmaker (each asserting 200). */
async function moveThrough(itemId: number, ...statuses: string[]) {
  let item: ProgressItem | undefined;
  for (const status of statuses) {
    const response = await setStatus(dealmaker, itemId, status);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    item = response.body;
  }
  return item!;
}

describe('POST /api/progress', () => {
  it('adds a pending item and answers 201 with its full shape', async () => {
    const deal = await staffedDeal();
    recorder.take();
    const response = await addItem(dealmaker, {
      dealId: deal.id,
      title: '  Sign the lease  ',
      description: '  Both parties sign  ',
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      dealId: deal.id,
      position: 1,
      title: 'Sign the lease',
      description: 'Both parties sign',
      status: 'pending',
      createdAt: isoTimestamp,
      updatedAt: isoTimestamp,
      completedAt: null,
      completedByUsername: null,
      completedByUser: null,
    });
    const dealFields = await publicFieldsOf(deal.id);
    const recorded = recorder.take();
    expect(domainEvents(recorded)).toEqual([
      {
        audience: {
          users: [creator.user.id, counterpart.user.id, dealmaker.user.id],
        },
        event: 'progress-updated',
        payload: { dealId: deal.id, data: response.body, updateType: 'created', progressData: dealFields },
      },
    ]);
    const added = `The dealmaker added step 1 "Sign the lease" to "${deal.title}".`;
    expect(noticesIn(recorded)).toEqual([
      { to: creator.user.id, kind: 'progress-added', dealId: deal.id, message: added },
      { to: counterpart.user.id, kind: 'progress-added', dealId: deal.id, message: added },
    ]);
  });

  it('numbers the items of each deal 1, 2, 3 in the order they are added', async () => {
    const deal = await staffedDeal();
    const first = await itemOn(deal.id, 'Step one');
    const second = await itemOn(deal.id, 'Step two');
    const third = await itemOn(deal.id, 'Step three');
    expect([first.position, second.position, third.position]).toEqual([1, 2, 3]);

    const other = await staffedDeal();
    expect((await itemOn(other.id, 'Elsewhere')).position).toBe(1);
  });

  it('gives items added at the same time distinct consecutive positions', async () => {
    const deal = await staffedDeal();
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) => addItem(dealmaker, { dealId: deal.id, title: `Parallel ${i}` })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(6).fill(201));
    const listed = (await listItems(dealmaker, deal.id)).body;
    expect(listed.map((item) => item.position)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(new Set(listed.map((item) => item.title)).size).toBe(6);
  });

  it('makes the description optional: it defaults to an empty text', async () => {
    const deal = await staffedDeal();
    const response = await addItem(dealmaker, { dealId: deal.id, title: 'No details' });
    expect(response.status).toBe(201);
    expect(response.body.description).toBe('');
  });

  it('requires a title', async () => {
    const deal = await staffedDeal();
    for (const body of [
      { dealId: deal.id },
      { dealId: deal.id, title: '' },
      { dealId: deal.id, title: '   ', description: 'only a description' },
    ]) {
      const response = await addItem(dealmaker, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(invalid('title', 'Title is required'));
    }
    const tooLong = await addItem(dealmaker, { dealId: deal.id, title: 'x'.repeat(201) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual(invalid('title', 'Title must be at most 200 characters'));
    expect((await listItems(dealmaker, deal.id)).body).toEqual([]);
  });

  it('takes a description of at most 5000 characters', async () => {
    const deal = await staffedDeal();
    const tooLong = await addItem(dealmaker, {
      dealId: deal.id,
      title: 'Long',
      description: 'd'.repeat(5001),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual(invalid('description', 'Description must be at most 5000 characters'));
    const longest = await addItem(dealmaker, {
      dealId: deal.id,
      title: 'Long',
      description: 'd'.repeat(5000),
    });
    expect(longest.status).toBe(201);
    expect(longest.body.description).toBe('d'.repeat(5000));
  });

  it('refuses the dealers and outsiders: only the dealmaker adds items', async () => {
    const deal = await staffedDeal();
    recorder.take();
    for (const user of [creator, counterpart, outsider]) {
      const response = await addItem(user, { dealId: deal.id, title: 'Not mine to add' });
      expect(response.status).toBe(403);
      expect(response.body).toEqual(onlyDealmaker);
    }
    expect((await listItems(dealmaker, deal.id)).body).toEqual([]);
    expect(recorder.take()).toEqual([]);
  });

  it('refuses a deal that has no dealmaker yet', async () => {
    const deal = await dealWithDealers(server, creator, counterpart);
    const response = await addItem(creator, { dealId: deal.id, title: 'Too early' });
    expect(response.status).toBe(403);
    expect(response.body).toEqual(onlyDealmaker);
  });

  it('refuses a completed deal', async () => {
    const deal = await staffedDeal();
    await markCompletedInDb(server, deal.id);
    const response = await addItem(dealmaker, { dealId: deal.id, title: 'Too late' });
    expect(response.status).toBe(409);
    expect(response.body).toEqual(dealCompleted);
    expect((await listItems(dealmaker, deal.id)).body).toEqual([]);
  });

  it('answers 404 for an unknown deal', async () => {
    const response = await addItem(dealmaker, { dealId: unknownId, title: 'Nowhere' });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(dealNotFound);
  });

  it('answers 401 without a token', async () => {
    const deal = await staffedDeal();
    const response = await server.post('/api/progress', { body: { dealId: deal.id, title: 'Anonymous' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(signInFirst);
  });
});

describe('GET /api/progress/deal/{dealId}', () => {
  it('shows every participant the items ordered by position', async () => {
    const deal = await staffedDeal();
    const first = await itemOn(deal.id, 'First');
    const second = await itemOn(deal.id, 'Second');
    const third = await itemOn(deal.id, 'Third');
    // A later change to an earlier item does not reorder the list.
    const started = await moveThrough(first.id, 'in_progress');
    for (const user of [creator, counterpart, dealmaker]) {
      const response = await listItems(user, deal.id);
      expect(response.status).toBe(200);
      expect(response.body).toEqual([started, second, third]);
    }
  });

  it('answers an empty list for a deal without items', async () => {
    const deal = await staffedDeal();
    const response = await listItems(creator, deal.id);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it('refuses outsiders', async () => {
    const deal = await staffedDeal();
    await itemOn(deal.id);
    const response = await listItems(outsider, deal.id);
    expect(response.status).toBe(403);
    expect(response.body).toEqual(onlyParticipants);
  });

  it('answers 404 for an unknown deal and 401 without a token', async () => {
    const unknown = await listItems(creator, unknownId);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(dealNotFound);
    const deal = await staffedDeal();
    const anonymous = await server.get(`/api/progress/deal/${deal.id}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(signInFirst);
  });
});

describe('PUT /api/progress/{id}/status', () => {
  it('moves pending → in_progress → completed, recording who completed it and when', async () => {
    const deal = await staffedDeal();
    const item = await itemOn(deal.id, 'Deliver');
    recorder.take();

    const started = await setStatus(dealmaker, item.id, 'in_progress');
    expect(started.status).toBe(200);
    expect(started.body).toEqual({
      ...item,
      status: 'in_progress',
      updatedAt: isoTimestamp,
      completedAt: null,
      completedByUsername: null,
      completedByUser: null,
    });

    const before = Date.now();
    const done = await setStatus(dealmaker, item.id, 'completed');
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      ...item,
      status: 'completed',
      updatedAt: isoTimestamp,
      completedAt: isoTimestamp,
      completedByUsername: dealmaker.username,
      completedByUser: { full_name: dealmaker.full_name },
    });
    expect(Date.parse(done.body.completedAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect((await listItems(creator, deal.id)).body).toEqual([done.body]);

    const participants = { users: [creator.user.id, counterpart.user.id, dealmaker.user.id] };
    const dealFields = await publicFieldsOf(deal.id);
    const recorded = recorder.take();
    expect(domainEvents(recorded)).toEqual([
      {
        audience: participants,
        event: 'progress-updated',
        payload: { dealId: deal.id, data: started.body, updateType: 'updated', progressData: dealFields },
      },
      {
        audience: participants,
        event: 'progress-updated',
        payload: { dealId: deal.id, data: done.body, updateType: 'updated', progressData: dealFields },
      },
    ]);
    const moved = `Step 1 "Deliver" of "${deal.title}" is now in progress.`;
    const completed = `Step 1 "Deliver" of "${deal.title}" is completed.`;
    expect(noticesIn(recorded)).toEqual([
      { to: creator.user.id, kind: 'progress-moved', dealId: deal.id, message: moved },
      { to: counterpart.user.id, kind: 'progress-moved', dealId: deal.id, message: moved },
      { to: creator.user.id, kind: 'progress-completed', dealId: deal.id, message: completed },
      { to: counterpart.user.id, kind: 'progress-completed', dealId: deal.id, message: completed },
    ]);
  });

  it('moves in_progress back to pending, with no completion recorded', async () => {
    const deal = await staffedDeal();
    const item = await itemOn(deal.id);
    await moveThrough(item.id, 'in_progress');
    const reset = await setStatus(dealmaker, item.id, 'pending');
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ ...item, updatedAt: isoTimestamp });
    expect(reset.body).toMatchObject({
      status: 'pending',
      completedAt: null,
      completedByUsername: null,
      completedByUser: null,
    });
    // And it can start again.
    expect((await moveThrough(item.id, 'in_progress', 'completed')).status).toBe('completed');
  });

  it('refuses to skip from pending to completed', async () => {
    const deal = await staffedDeal();
    const item = await itemOn(deal.id);
    const response = await setStatus(dealmaker, item.id, 'completed');
    expect(response.status).toBe(409);
    expect(response.body).toEqual(cannotMove('pending', 'completed'));
    expect((await listItems(dealmaker, deal.id)).body).toEqual([item]);
  });

  it('treats completed as final', async () => {
    const deal = await staffedDeal();
    const item = await itemOn(deal.id);
    const done = await moveThrough(item.id, 'in_progress', 'completed');
    for (const [status, words] of [
      ['pending', 'pending'],
      ['in_progress', 'in progress'],
      ['completed', 'completed'],
    ] as const) {
      const response = await setStatus(dealmaker, item.id, status);
      expect(response.status).toBe(409);
      expect(response.body).toEqual(cannotMove('completed', words));
    }
    expect((await listItems(dealmaker, deal.id)).body).toEqual([done]);
  });

  it('refuses a move to the status the item already has', async () => {
    const deal = await staffedDeal();
    const item = await itemOn(deal.id);
    const samePending = await setStatus(dealmaker, item.id, 'pending');
    expect(samePending.status).toBe(409);
    expect(samePending.body).toEqual(cannotMove('pending', 'pending'));
    await moveThrough(item.id, 'in_progress');
    const sameInProgress = await setStatus(dealmaker, item.id, 'in_progress');
    expect(sameInProgress.status).toBe(409);
    expect(sameInProgress.body).toEqual(cannotMove('in progress', 'in progress'));
  });

  it('rejects a status that does not exist', async () => {
    const deal = await staffedDeal();
    const item = await itemOn(deal.id);
    for (const status of ['done', 'COMPLETED', '', 2, null]) {
      const response = await setStatus(dealmaker, item.id, status);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(badStatus);
    }
    const missing = await server.put(`/api/progress/${item.id}/status`, { token: dealmaker.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual(badStatus);
  });

  it('refuses everyone but the dealmaker', async () => {
    const deal = await staffedDeal();
    const item = await itemOn(deal.id);
    recorder.take();
    for (const user of [creator, counterpart, outsider]) {
      const response = await setStatus(user, item.id, 'in_progress');
      expect(response.status).toBe(403);
      expect(response.body).toEqual(onlyDealmaker);
    }
    expect((await listItems(dealmaker, deal.id)).body).toEqual([item]);
    expect(recorder.take()).toEqual([]);
  });

  it('answers 404 for an unknown item', async () => {
    const response = await setStatus(dealmaker, unknownId, 'in_progress');
    expect(response.status).toBe(404);
    expect(response.body).toEqual(itemNotFound);
  });

  it('refuses any change once the deal is completed', async () => {
    const deal = await staffedDeal();
    const item = await itemOn(deal.id);
    const started = await moveThrough(item.id, 'in_progress');
    await markCompletedInDb(server, deal.id);
    for (const status of ['completed', 'pending']) {
      const response = await setStatus(dealmaker, item.id, status);
      expect(response.status).toBe(409);
      expect(response.body).toEqual(dealCompleted);
    }
    expect((await listItems(creator, deal.id)).body).toEqual([started]);
  });

  it('answers 401 without a token', async () => {
    const deal = await staffedDeal();
    const item = await itemOn(deal.id);
    const response = await server.put(`/api/progress/${item.id}/status`, { body: { status: 'in_progress' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(signInFirst);
  });

  it('rejects an id that is not a positive integer', async () => {
    const response = await server.put('/api/progress/abc/status', {
      token: dealmaker.token,
      body: { status: 'in_progress' },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_FAILED');
  });
});

describe('a deal without a counterpart', () => {
  it('lets its dealmaker track progress for the creator', async () => {
    const deal = await createDeal(server, creator);
    await assignDealmakerByRequest(server, creator, deal.id, dealmaker);
    const item = await itemOn(deal.id, 'Solo');
    expect((await listItems(creator, deal.id)).body).toEqual([item]);
    expect((await listItems(counterpart, deal.id)).status).toBe(403);
  });
});
