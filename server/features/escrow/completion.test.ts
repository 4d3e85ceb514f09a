import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedUpUser, startTestServer, type TestServer } from '../../test/harness';
import { auditLedger } from '../../test/ledger-audit';
import {
  balanceOf,
  captureEvents,
  dealWithDealmaker,
  deposit,
  markFinished,
  payHalf,
  refundHalf,
  signUpMany,
} from '../../test/money-fixtures';

const releasedMessage = 'Escrow payment has been released to the dealmaker!';
const firstMarkMessage = 'You marked this deal as finished. Waiting for the other party to mark it too.';
const isoTimestamp = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const notLocked = {
  message: 'Both dealers must pay their half into escrow before the deal can be marked as finished.',
  code: 'CONFLICT',
};
const onlyDealers = { message: 'Only the dealers of this deal can mark it as finished.', code: 'FORBIDDEN' };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  expect(await auditLedger(server.db)).toEqual([]);
  await server.close();
});

/** A deal whose escrow is locked: both dealers paid their half of `budget`. */
async function lockedDeal(budget = 100.01) {
  const [creator, counterpart, dealmaker, outsider] = (await signUpMany(server, 4)) as [
    SignedUpUser,
    SignedUpUser,
    SignedUpUser,
    SignedUpUser,
  ];
  await deposit(server, creator, 1000);
  await deposit(server, counterpart, 1000);
  const deal = await dealWithDealmaker(server, { creator, counterpart, dealmaker }, budget);
  expect((await payHalf(server, creator, deal.id)).status).toBe(200);
  expect((await payHalf(server, counterpart, deal.id)).status).toBe(200);
  return { creator, counterpart, dealmaker, outsider, deal };
}

describe('PUT /api/progress/deal/{dealId}/complete', () => {
  it("records the first dealer's mark, then the second completes the deal and pays the dealmaker", async () => {
    const { creator, counterpart, dealmaker, deal } = await lockedDeal(100.01);
    const events = captureEvents(server);

    const first = await markFinished(server, counterpart, deal.id);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      message: firstMarkMessage,
      deal: expect.objectContaining({
        id: deal.id,
        is_completed: false,
        completion_date: null,
        completed_by_creator: false,
        completed_by_counterpart: true,
      }),
      isCompleted: false,
    });
    expect(events.of('deal-updated')).toEqual([
      expect.objectContaining({
        audience: { dealWatchers: [deal.id], originalClients: true },
        payload: expect.objectContaining({ dealId: deal.id, updateType: 'updated' }),
      }),
    ]);
    expect(events.notificationsTo(creator.user.id).map((e) => e.payload.kind)).toEqual([
      'deal-marked-finished',
    ]);
    expect(events.of('escrow-updated')).toEqual([]);
    expect(await balanceOf(server, dealmaker)).toBe(0);
    events.clear();

    const second = await markFinished(server, creator, deal.id);
    expect(second.status).toBe(200);
    expect(second.body).toEqual({
      message: releasedMessage,
      deal: expect.objectContaining({
        id: deal.id,
        is_completed: true,
        completion_date: isoTimestamp,
        completed_by_creator: true,
        completed_by_counterpart: true,
      }),
      isCompleted: true,
    });
    events.detach();

    // The whole escrow went to the dealmaker as one payment_received row; the dealers paid exactly their halves.
    expect(await server.get('/api/wallet', { token: dealmaker.token })).toMatchObject({
      body: { balance: 100.01, totalDeposited: 0, totalWithdrawn: 0 },
    });
    expect((await server.get('/api/wallet/transactions', { token: dealmaker.token })).body).toEqual([
      {
        id: expect.any(Number),
        type: 'payment_received',
        amount: 100.01,
        balanceAfter: 100.01,
        description: `Payment received for "${deal.title}"`,
        createdAt: isoTimestamp,
        dealId: deal.id,
      },
    ]);
    expect(await balanceOf(server, creator)).toBe(949.99);
    expect(await balanceOf(server, counterpart)).toBe(950);
    expect(
      (await server.get(`/api/wallet/escrow/${deal.id}`, { token: dealmaker.token })).body.escrow,
    ).toEqual({
      amount: 100.01,
      status: 'completed',
      creatorPaid: true,
      counterpartPaid: true,
      creatorAmount: 50.01,
      counterpartAmount: 50,
      expiresAt: null,
    });

    const participants = [creator.user.id, counterpart.user.id, dealmaker.user.id];
    expect(events.of('escrow-updated')).toEqual([
      {
        audience: { users: participants },
        event: 'escrow-updated',
        payload: {
          dealId: deal.id,
          data: expect.objectContaining({ status: 'completed' }),
          updateType: 'updated',
        },
      },
    ]);
    expect(events.of('deal-updated')).toEqual([
      expect.objectContaining({
        payload: expect.objectContaining({
          dealId: deal.id,
          updateType: 'updated',
          data: expect.objectContaining({ is_completed: true }),
        }),
      }),
    ]);
    expect(events.notificationsTo(dealmaker.user.id).map((e) => e.payload.kind)).toEqual([
      'payment-received',
    ]);
    expect(events.notificationsTo(counterpart.user.id).map((e) => e.payload.kind)).toEqual([
      'escrow-released',
    ]);
  });

  it('is harmless to mark twice, before and after completion', async () => {
    const { creator, counterpart, dealmaker, deal } = await lockedDeal(40);
    const first = await markFinished(server, creator, deal.id);
    const again = await markFinished(server, creator, deal.id);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      message: 'You have already marked this deal as finished. Waiting for the other party.',
      deal: first.body.deal,
      isCompleted: false,
    });
    const completed = await markFinished(server, counterpart, deal.id);
    expect(completed.body.message).toBe(releasedMessage);
    for (const dealer of [creator, counterpart]) {
      const after = await markFinished(server, dealer, deal.id);
      expect(after.status).toBe(200);
      expect(after.body).toEqual({
        message: 'This deal is already completed.',
        deal: completed.body.deal,
        isCompleted: true,
      });
    }
    expect(await balanceOf(server, dealmaker)).toBe(40);
  });

  it('pays the dealmaker once when both dealers mark at the same moment', async () => {
    const { creator, counterpart, dealmaker, deal } = await lockedDeal(77.77);
    const answers = await Promise.all([
      markFinished(server, creator, deal.id),
      markFinished(server, counterpart, deal.id),
      markFinished(server, creator, deal.id),
      markFinished(server, counterpart, deal.id),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers.filter((a) => a.body.message === releasedMessage)).toHaveLength(1);
    expect(await balanceOf(server, dealmaker)).toBe(77.77);
    const history = await server.get('/api/wallet/transactions', { token: dealmaker.token });
    expect(history.body).toHaveLength(1);
  });

  it('refuses while the escrow is not locked', async () => {
    const [creator, counterpart, dealmaker] = (await signUpMany(server, 3)) as SignedUpUser[];
    await deposit(server, creator!, 100);
    const deal = await dealWithDealmaker(
      server,
      { creator: creator!, counterpart: counterpart!, dealmaker: dealmaker! },
      50,
    );
    expect(await markFinished(server, creator!, deal.id)).toMatchObject({ status: 409, body: notLocked });
    await payHalf(server, creator!, deal.id);
    expect(await markFinished(server, creator!, deal.id)).toMatchObject({ status: 409, body: notLocked });
    expect(await markFinished(server, counterpart!, deal.id)).toMatchObject({ status: 409, body: notLocked });
    const after = await server.get(`/api/deals/${deal.id}`, { token: creator!.token });
    expect(after.body).toMatchObject({ completed_by_creator: false, completed_by_counterpart: false });
  });

  it('refuses a deal without a dealmaker', async () => {
    const [creator, counterpart] = (await signUpMany(server, 2)) as SignedUpUser[];
    const created = await server.post('/api/deals/create-deal', {
      token: creator!.token,
      body: { title: 'Unstaffed', description: 'd', budget: 5, timeline: 't' },
    });
    await server.put(`/api/deals/join-deal-as-dealer/${created.body.id}`, { token: counterpart!.token });
    expect(await markFinished(server, creator!, created.body.id)).toMatchObject({
      status: 409,
      body: {
        message: 'This deal has no dealmaker yet, so it cannot be marked as finished.',
        code: 'CONFLICT',
      },
    });
  });

  it('refuses while a dispute is open, and allows it once the dispute is resolved', async () => {
    const { creator, counterpart, dealmaker, deal } = await lockedDeal(60);
    const raised = await server.post('/api/disputes', {
      token: counterpart.token,
      body: { dealId: deal.id, title: 'Late delivery', description: 'The work is late.' },
    });
    expect(raised.status).toBe(201);
    const refusal = {
      status: 409,
      body: { message: 'Resolve the open dispute before marking the deal as finished.', code: 'CONFLICT' },
    };
    expect(await markFinished(server, creator, deal.id)).toMatchObject(refusal);
    expect(await markFinished(server, counterpart, deal.id)).toMatchObject(refusal);
    const resolved = await server.put(`/api/disputes/${raised.body.id}/resolve`, {
      token: dealmaker.token,
      body: { resolution: 'Delivered today.' },
    });
    expect(resolved.status).toBe(200);
    expect((await markFinished(server, creator, deal.id)).body.message).toBe(firstMarkMessage);
    expect((await markFinished(server, counterpart, deal.id)).body.message).toBe(releasedMessage);
    expect(await balanceOf(server, dealmaker)).toBe(60);
  });

  it('is for the two dealers: 403 for the dealmaker and outsiders, 404 and 401', async () => {
    const { dealmaker, outsider, deal } = await lockedDeal(10);
    expect(await markFinished(server, dealmaker, deal.id)).toMatchObject({ status: 403, body: onlyDealers });
    expect(await markFinished(server, outsider, deal.id)).toMatchObject({ status: 403, body: onlyDealers });
    expect(await markFinished(server, outsider, 999999)).toMatchObject({
      status: 404,
      body: { message: 'Deal not found.', code: 'NOT_FOUND' },
    });
    expect(await server.put(`/api/progress/deal/${deal.id}/complete`)).toMatchObject({
      status: 401,
      body: { message: 'Please sign in to continue.', code: 'UNAUTHENTICATED' },
    });
    expect((await server.put('/api/progress/deal/0/complete', { token: outsider.token })).status).toBe(400);
  });

  it('freezes the money of a completed deal: no pay, no refund, no leave, no delete', async () => {
    const { creator, counterpart, deal } = await lockedDeal(30);
    await markFinished(server, creator, deal.id);
    await markFinished(server, counterpart, deal.id);
    expect((await payHalf(server, creator, deal.id)).status).toBe(409);
    expect((await refundHalf(server, counterpart, deal.id)).status).toBe(409);
    expect(
      (await server.put(`/api/deals/leave-deal-as-dealer/${deal.id}`, { token: counterpart.token })).status,
    ).toBe(409);
    expect((await server.delete(`/api/deals/delete-deal/${deal.id}`, { token: creator.token })).status).toBe(
      409,
    );
    expect(await balanceOf(server, creator)).toBe(985);
  });

  it('keeps a completed payment when an event sink fails after the commit', async () => {
    const { creator, counterpart, dealmaker, deal } = await lockedDeal(12);
    const detach = server.app.services.events.attach({
      publish() {
        throw new Error('socket layer down');
      },
      leaveDeal() {},
    });
    try {
      expect((await markFinished(server, creator, deal.id)).status).toBe(200);
      const last = await markFinished(server, counterpart, deal.id);
      expect(last.status).toBe(200);
      expect(last.body.message).toBe(releasedMessage);
    } finally {
      detach();
    }
    expect(await balanceOf(server, dealmaker)).toBe(12);
  });
});
