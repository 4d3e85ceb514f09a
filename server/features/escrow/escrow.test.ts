import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escrows } from '../../db/schema';
import { isoTimestamp } from '../../test/deal-fixtures';
import { dealNotFound, signInFirst } from '../../test/expected-errors';
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

const lockedMessage = 'Both parties have paid! Money is now locked in escrow until deal completion.';
const alreadyPaid = { message: 'You have already paid your half', code: 'CONFLICT' };
const nothingToRefund = {
  message: 'You have not paid your half, so there is nothing to refund.',
  code: 'CONFLICT',
};
const onlyDealersPay = {
  message: 'Only the dealers of this deal can pay into its escrow.',
  code: 'FORBIDDEN',
};
const onlyDealersRefund = {
  message: 'Only the dealers of this deal can take back an escrow payment.',
  code: 'FORBIDDEN',
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  expect(await auditLedger(server.db)).toEqual([]);
  await server.close();
});

/** Creator, counterpart, dealmaker and an outsider, each dealer with money to pay. */
async function cast(budget = 100, funds = 1000) {
  const [creator, counterpart, dealmaker, outsider] = (await signUpMany(server, 4)) as [
    SignedUpUser,
    SignedUpUser,
    SignedUpUser,
    SignedUpUser,
  ];
  if (funds > 0) {
    await deposit(server, creator, funds);
    await deposit(server, counterpart, funds);
  }
  const deal = await dealWithDealmaker(server, { creator, counterpart, dealmaker }, budget);
  return { creator, counterpart, dealmaker, outsider, deal };
}

const escrowOf = async (user: SignedUpUser, dealId: number) =>
  (await server.get(`/api/wallet/escrow/${dealId}`, { token: user.token })).body.escrow;

describe('GET /api/wallet/escrow/{dealId}', () => {
  it('shows the escrow opened with the dealmaker, split ceil/floor by the cent', async () => {
    const { creator, counterpart, dealmaker, deal } = await cast(100.01);
    const response = await server.get(`/api/wallet/escrow/${deal.id}`, { token: creator.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      escrowExists: true,
      escrow: {
        amount: 100.01,
        status: 'pending',
        creatorPaid: false,
        counterpartPaid: false,
        creatorAmount: 50.01,
        counterpartAmount: 50,
        expiresAt: null,
      },
      deal: expect.objectContaining({ id: deal.id, budget: 100.01, dealmaker: dealmaker.username }),
      expiresAt: null,
    });
    // Every participant sees the same escrow.
    for (const user of [counterpart, dealmaker]) {
      const seen = await server.get(`/api/wallet/escrow/${deal.id}`, { token: user.token });
      expect(seen.status).toBe(200);
      expect(seen.body.escrow).toEqual(response.body.escrow);
    }
  });

  it('says there is no escrow while the deal has no dealmaker', async () => {
    const [creator] = await signUpMany(server, 1);
    const created = await server.post('/api/deals/create-deal', {
      token: creator!.token,
      body: { title: 'No dealmaker yet', description: 'd', budget: 50, timeline: 't' },
    });
    const response = await server.get(`/api/wallet/escrow/${created.body.id}`, { token: creator!.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      escrowExists: false,
      escrow: null,
      deal: expect.objectContaining({ id: created.body.id, dealmaker: null, escrow_paid: false }),
      expiresAt: null,
    });
    expect(await server.db.select().from(escrows).where(eq(escrows.dealId, created.body.id))).toEqual([]);
  });

  it('keeps one escrow when many reads arrive at once', async () => {
    const { creator, counterpart, dealmaker, deal } = await cast(10, 0);
    const answers = await Promise.all(
      [creator, counterpart, dealmaker, creator, counterpart, dealmaker].map((user) =>
        server.get(`/api/wallet/escrow/${deal.id}`, { token: user.token }),
      ),
    );
    expect(answers.every((a) => a.status === 200 && a.body.escrowExists)).toBe(true);
    expect(await server.db.select().from(escrows).where(eq(escrows.dealId, deal.id))).toHaveLength(1);
  });

  it('is opened by the assignment of the dealmaker itself, before anyone reads it', async () => {
    const { deal } = await cast(250.05, 0);
    const rows = await server.db.select().from(escrows).where(eq(escrows.dealId, deal.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      amountCents: 25005,
      creatorShareCents: 12503,
      counterpartShareCents: 12502,
      creatorPaid: false,
      counterpartPaid: false,
      status: 'pending',
    });
  });

  it('takes the final price as the amount when the deal is finalized by a bid', async () => {
    const [creator, counterpart, bidder] = (await signUpMany(server, 3)) as SignedUpUser[];
    const created = await server.post('/api/deals/create-deal', {
      token: creator!.token,
      body: { title: 'Bid deal', description: 'd', budget: 1000, timeline: 't' },
    });
    const dealId = created.body.id;
    await server.put(`/api/deals/join-deal-as-dealer/${dealId}`, { token: counterpart!.token });
    const bid = await server.post('/api/bidding/create', {
      token: bidder!.token,
      body: { dealId, price: 333.33 },
    });
    expect(bid.status).toBe(201);
    for (const dealer of [creator!, counterpart!]) {
      const selected = await server.put(`/api/bid-management/select-bid/${dealId}/${bid.body.id}`, {
        token: dealer.token,
      });
      expect(selected.status).toBe(200);
    }
    expect(await escrowOf(creator!, dealId)).toEqual({
      amount: 333.33,
      status: 'pending',
      creatorPaid: false,
      counterpartPaid: false,
      creatorAmount: 166.67,
      counterpartAmount: 166.66,
      expiresAt: null,
    });
  });

  it('is for participants only: 401, 403, 404 and 400', async () => {
    const { outsider, deal } = await cast(10, 0);
    expect(await server.get(`/api/wallet/escrow/${deal.id}`)).toMatchObject({
      status: 401,
      body: signInFirst,
    });
    expect(await server.get(`/api/wallet/escrow/${deal.id}`, { token: outsider.token })).toMatchObject({
      status: 403,
      body: { message: 'Only the participants of this deal can do this.', code: 'FORBIDDEN' },
    });
    expect(await server.get('/api/wallet/escrow/999999', { token: outsider.token })).toMatchObject({
      status: 404,
      body: dealNotFound,
    });
    const bad = await server.get('/api/wallet/escrow/abc', { token: outsider.token });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
  });
});

describe('POST /api/wallet/escrow/{dealId}/lock', () => {
  it('pays the first half, then the second half locks the escrow', async () => {
    const { creator, counterpart, dealmaker, deal } = await cast(100.01);
    const events = captureEvents(server);
    const first = await payHalf(server, creator, deal.id);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      message: 'Your half ($50.01) has been paid successfully. Waiting for the other party.',
      escrow: {
        amount: 100.01,
        status: 'pending',
        creatorPaid: true,
        counterpartPaid: false,
        creatorAmount: 50.01,
        counterpartAmount: 50,
        expiresAt: isoTimestamp,
      },
      wallet: { balance: 949.99, totalDeposited: 1000, totalWithdrawn: 0 },
    });
    // The lone half is refunded by itself 72 hours (the default) after it was paid, unless the other comes.
    const expiresIn = Date.parse(first.body.escrow.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(72 * 3_600_000 - 60_000);
    expect(expiresIn).toBeLessThanOrEqual(72 * 3_600_000);
    const participants = [creator.user.id, counterpart.user.id, dealmaker.user.id];
    expect(events.of('escrow-updated')).toEqual([
      {
        audience: { users: participants },
        event: 'escrow-updated',
        payload: { dealId: deal.id, data: first.body.escrow, updateType: 'updated' },
      },
    ]);
    expect(events.notificationsTo(counterpart.user.id)).toEqual([
      expect.objectContaining({
        payload: expect.objectContaining({ kind: 'escrow-paid', dealId: deal.id }),
      }),
    ]);
    events.clear();

    const second = await payHalf(server, counterpart, deal.id);
    expect(second.status).toBe(200);
    expect(second.body).toEqual({
      message: lockedMessage,
      escrow: {
        amount: 100.01,
        status: 'locked',
        creatorPaid: true,
        counterpartPaid: true,
        creatorAmount: 50.01,
        counterpartAmount: 50,
        expiresAt: null,
      },
      wallet: { balance: 950, totalDeposited: 1000, totalWithdrawn: 0 },
    });
    expect(events.of('escrow-updated')).toHaveLength(1);
    expect(events.notificationsTo(dealmaker.user.id).map((e) => e.payload.kind)).toEqual(['escrow-locked']);
    events.detach();

    expect(await escrowOf(dealmaker, deal.id)).toEqual(second.body.escrow);
    const history = await server.get('/api/wallet/transactions?limit=1', { token: creator.token });
    expect(history.body).toEqual([
      {
        id: expect.any(Number),
        type: 'escrow_lock',
        amount: 50.01,
        balanceAfter: 949.99,
        description: `Escrow payment for "${deal.title}"`,
        createdAt: expect.any(String),
        dealId: deal.id,
      },
    ]);
  });

  it('refuses a second payment of the same half, also once locked', async () => {
    const { creator, counterpart, deal } = await cast(80);
    await payHalf(server, creator, deal.id);
    expect(await payHalf(server, creator, deal.id)).toMatchObject({ status: 409, body: alreadyPaid });
    await payHalf(server, counterpart, deal.id);
    expect(await payHalf(server, counterpart, deal.id)).toMatchObject({ status: 409, body: alreadyPaid });
    expect(await balanceOf(server, creator)).toBe(960);
    expect(await balanceOf(server, counterpart)).toBe(960);
  });

  it('takes a double click once', async () => {
    const { creator, deal } = await cast(50);
    const answers = await Promise.all([1, 2, 3, 4].map(() => payHalf(server, creator, deal.id)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409).map((a) => a.body)).toEqual([
      alreadyPaid,
      alreadyPaid,
      alreadyPaid,
    ]);
    expect(await balanceOf(server, creator)).toBe(975);
  });

  it('refuses an insufficient balance with 409 INSUFFICIENT_FUNDS and changes nothing', async () => {
    const { creator, deal } = await cast(100.01, 0);
    await deposit(server, creator, 20);
    const events = captureEvents(server);
    const response = await payHalf(server, creator, deal.id);
    events.detach();
    expect(response.status).toBe(409);
    expect(response.body).toEqual({
      message: 'Insufficient balance: you need $50.01, your balance is $20.00. Please deposit first.',
      code: 'INSUFFICIENT_FUNDS',
    });
    expect(events.events).toEqual([]);
    expect(await balanceOf(server, creator)).toBe(20);
    expect((await escrowOf(creator, deal.id)).creatorPaid).toBe(false);
  });

  it('is for the two dealers only', async () => {
    const { dealmaker, outsider, deal } = await cast(10);
    await deposit(server, dealmaker, 100);
    await deposit(server, outsider, 100);
    expect(await payHalf(server, dealmaker, deal.id)).toMatchObject({ status: 403, body: onlyDealersPay });
    expect(await payHalf(server, outsider, deal.id)).toMatchObject({ status: 403, body: onlyDealersPay });
    expect(await payHalf(server, outsider, 999999)).toMatchObject({ status: 404, body: dealNotFound });
    expect(await server.post(`/api/wallet/escrow/${deal.id}/lock`)).toMatchObject({
      status: 401,
      body: signInFirst,
    });
    expect(await balanceOf(server, dealmaker)).toBe(100);
  });

  it('waits for a dealmaker and for both dealers', async () => {
    const [creator, counterpart, dealmaker] = (await signUpMany(server, 3)) as SignedUpUser[];
    await deposit(server, creator!, 100);
    const created = await server.post('/api/deals/create-deal', {
      token: creator!.token,
      body: { title: 'Early', description: 'd', budget: 10, timeline: 't' },
    });
    expect(await payHalf(server, creator!, created.body.id)).toMatchObject({
      status: 409,
      body: { message: 'The escrow opens once the deal has a dealmaker.', code: 'CONFLICT' },
    });
    // A dealmaker but no counterpart yet.
    const solo = await dealWithDealmaker(server, { creator: creator!, dealmaker: dealmaker! }, 10);
    expect(await payHalf(server, creator!, solo.id)).toMatchObject({
      status: 409,
      body: { message: 'Both dealers must be on the deal before the escrow can be paid.', code: 'CONFLICT' },
    });
    // Once someone joins, paying works.
    await server.put(`/api/deals/join-deal-as-dealer/${solo.id}`, { token: counterpart!.token });
    expect((await payHalf(server, creator!, solo.id)).status).toBe(200);
    expect(await balanceOf(server, creator!)).toBe(95);
  });

  it('refuses a completed deal', async () => {
    const { creator, counterpart, deal } = await cast(10);
    await payHalf(server, creator, deal.id);
    await payHalf(server, counterpart, deal.id);
    await markFinished(server, creator, deal.id);
    await markFinished(server, counterpart, deal.id);
    expect(await payHalf(server, creator, deal.id)).toMatchObject({
      status: 409,
      body: { message: 'This deal is already completed.', code: 'CONFLICT' },
    });
  });

  it('handles a one-cent budget: the counterpart owes nothing and the cent still reaches the dealmaker', async () => {
    const { creator, counterpart, dealmaker, deal } = await cast(0.01);
    expect(await escrowOf(creator, deal.id)).toMatchObject({ creatorAmount: 0.01, counterpartAmount: 0 });
    expect((await payHalf(server, counterpart, deal.id)).body.message).toBe(
      'Your half ($0.00) has been paid successfully. Waiting for the other party.',
    );
    expect((await payHalf(server, creator, deal.id)).body.message).toBe(lockedMessage);
    await markFinished(server, creator, deal.id);
    expect((await markFinished(server, counterpart, deal.id)).body.isCompleted).toBe(true);
    expect(await balanceOf(server, dealmaker)).toBe(0.01);
    expect(await balanceOf(server, creator)).toBe(999.99);
    expect(await balanceOf(server, counterpart)).toBe(1000);
  });

  it('replays a retry with the same Idempotency-Key, even after the escrow moved on', async () => {
    const { creator, counterpart, deal } = await cast(100);
    const first = await payHalf(server, creator, deal.id, 'pay-1');
    await payHalf(server, counterpart, deal.id);
    const retry = await payHalf(server, creator, deal.id, 'pay-1');
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await balanceOf(server, creator)).toBe(950);
    // The same key for another call (or another deal) is refused.
    const reused = await refundHalf(server, creator, deal.id, 'pay-1');
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('moves the money once when a retry races the first call', async () => {
    const { creator, deal } = await cast(60);
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => payHalf(server, creator, deal.id, 'race')));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(answers[0]!.body);
    }
    expect(await balanceOf(server, creator)).toBe(970);
  });
});

describe('POST /api/wallet/escrow/{dealId}/refund', () => {
  it('gives the paid half back while the escrow is not locked', async () => {
    const { creator, counterpart, deal } = await cast(100.01);
    await payHalf(server, counterpart, deal.id);
    const events = captureEvents(server);
    const response = await refundHalf(server, counterpart, deal.id);
    events.detach();
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      message: 'Your half ($50.00) has been refunded to your wallet.',
      escrow: {
        amount: 100.01,
        status: 'pending',
        creatorPaid: false,
        counterpartPaid: false,
        creatorAmount: 50.01,
        counterpartAmount: 50,
        expiresAt: null,
      },
      wallet: { balance: 1000, totalDeposited: 1000, totalWithdrawn: 0 },
    });
    expect(events.of('escrow-updated')).toHaveLength(1);
    expect(events.notificationsTo(creator.user.id).map((e) => e.payload.kind)).toEqual(['escrow-refunded']);
    const history = await server.get('/api/wallet/transactions', { token: counterpart.token });
    expect(history.body.map((t: { type: string; amount: number }) => [t.type, t.amount])).toEqual([
      ['escrow_refund', 50],
      ['escrow_lock', 50],
      ['deposit', 1000],
    ]);
    // Paying again after a refund is allowed.
    expect((await payHalf(server, counterpart, deal.id)).status).toBe(200);
  });

  it('refuses when nothing is paid, when locked and when completed', async () => {
    const { creator, counterpart, dealmaker, deal } = await cast(30);
    expect(await refundHalf(server, creator, deal.id)).toMatchObject({ status: 409, body: nothingToRefund });
    await payHalf(server, creator, deal.id);
    expect(await refundHalf(server, counterpart, deal.id)).toMatchObject({
      status: 409,
      body: nothingToRefund,
    });
    await payHalf(server, counterpart, deal.id);
    const lockedRefusal = {
      status: 409,
      body: {
        message: 'Both halves are paid and the escrow is locked: it can no longer be refunded.',
        code: 'CONFLICT',
      },
    };
    expect(await refundHalf(server, creator, deal.id)).toMatchObject(lockedRefusal);
    expect(await refundHalf(server, counterpart, deal.id)).toMatchObject(lockedRefusal);
    await markFinished(server, creator, deal.id);
    await markFinished(server, counterpart, deal.id);
    expect(await refundHalf(server, creator, deal.id)).toMatchObject({
      status: 409,
      body: {
        message: 'This deal is completed and its escrow was released to the dealmaker.',
        code: 'CONFLICT',
      },
    });
    expect(await refundHalf(server, dealmaker, deal.id)).toMatchObject({
      status: 403,
      body: onlyDealersRefund,
    });
    expect(await balanceOf(server, creator)).toBe(985);
  });

  it('refuses when the deal has no escrow, and for outsiders and unknown deals', async () => {
    const [creator, outsider] = (await signUpMany(server, 2)) as SignedUpUser[];
    const created = await server.post('/api/deals/create-deal', {
      token: creator!.token,
      body: { title: 'No escrow', description: 'd', budget: 10, timeline: 't' },
    });
    expect(await refundHalf(server, creator!, created.body.id)).toMatchObject({
      status: 409,
      body: nothingToRefund,
    });
    expect(await refundHalf(server, outsider!, created.body.id)).toMatchObject({
      status: 403,
      body: onlyDealersRefund,
    });
    expect(await refundHalf(server, outsider!, 999999)).toMatchObject({ status: 404, body: dealNotFound });
  });

  it('replays a retried refund instead of refunding twice', async () => {
    const { creator, deal } = await cast(40);
    await payHalf(server, creator, deal.id);
    const answers = await Promise.all([1, 2, 3].map(() => refundHalf(server, creator, deal.id, 'refund-1')));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(answers[0]!.body);
    }
    expect(await balanceOf(server, creator)).toBe(1000);
  });
});

describe('deal protection once a half is paid', () => {
  it('blocks delete and leave while a half is paid, and lifts the block after the refund', async () => {
    const { creator, counterpart, deal } = await cast(20);
    await payHalf(server, creator, deal.id);
    expect(await server.delete(`/api/deals/delete-deal/${deal.id}`, { token: creator.token })).toMatchObject({
      status: 409,
      body: { message: 'Deal is protected - escrow payment made', code: 'CONFLICT' },
    });
    expect(
      await server.put(`/api/deals/leave-deal-as-dealer/${deal.id}`, { token: counterpart.token }),
    ).toMatchObject({
      status: 409,
      body: { message: 'Cannot leave - escrow payment made', code: 'CONFLICT' },
    });
    expect((await server.get(`/api/deals/${deal.id}`, { token: creator.token })).body.escrow_paid).toBe(true);

    await refundHalf(server, creator, deal.id);
    expect((await server.get(`/api/deals/${deal.id}`, { token: creator.token })).body.escrow_paid).toBe(
      false,
    );
    expect(
      (await server.put(`/api/deals/leave-deal-as-dealer/${deal.id}`, { token: counterpart.token })).status,
    ).toBe(200);
    expect((await server.delete(`/api/deals/delete-deal/${deal.id}`, { token: creator.token })).status).toBe(
      200,
    );
    expect(await balanceOf(server, creator)).toBe(1000);
  });

  it('blocks delete and leave when the counterpart paid', async () => {
    const { creator, counterpart, deal } = await cast(20);
    await payHalf(server, counterpart, deal.id);
    expect((await server.delete(`/api/deals/delete-deal/${deal.id}`, { token: creator.token })).status).toBe(
      409,
    );
    expect(
      (await server.put(`/api/deals/leave-deal-as-dealer/${deal.id}`, { token: counterpart.token })).status,
    ).toBe(409);
  });
});
