import { setTimeout as sleep } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deal } from '../../../contract/deals';
import type { Dispute } from '../../../contract/disputes';
import type { EscrowStatusResponse } from '../../../contract/escrow';
import type { Database } from '../../db/client';
import { disputes } from '../../db/schema';
import { isoTimestamp, signUpMany } from '../../test/deal-fixtures';
import { onlyParticipants } from '../../test/expected-errors';
import { ok, type SignedUpUser, startTestServer, type TestServer } from '../../test/harness';
import { auditLedger } from '../../test/ledger-audit';
import { balanceOf, dealWithDealmaker, deposit, payHalf, refundHalf } from '../../test/money-fixtures';
import { noticesIn, recordEvents } from '../../test/recorded-events';
import { createTestDatabase } from '../../test/test-database';

/** Deadlines of a few seconds, looked for twice a second. */
const halfTimeoutMs = 1_500;
const escalationMs = 2_500;
const deadlines = {
  escrowHalfTimeoutMs: halfTimeoutMs,
  disputeEscalationMs: escalationMs,
  jobPollingSeconds: 0.5,
};

let database: Database;
let server: TestServer;
let creator: SignedUpUser;
let counterpart: SignedUpUser;
let dealmaker: SignedUpUser;
let outsider: SignedUpUser;

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startTestServer({ database, keepDatabase: true, config: deadlines });
  [creator, counterpart, dealmaker, outsider] = await signUpMany(server, 4);
  for (const dealer of [creator, counterpart]) await deposit(server, dealer, 10_000);
});
afterAll(async () => {
  await server?.close();
  await database?.close();
});

/** Polls `check` until it holds (at most `withinMs`). */
async function eventually<T>(check: () => Promise<T | undefined | false>, withinMs = 10_000): Promise<T> {
  const until = Date.now() + withinMs;
  for (;;) {
    const result = await check();
    if (result) return result;
    if (Date.now() > until) throw new Error(`not within ${withinMs} ms`);
    await sleep(100);
  }
}

const escrowOf = (dealId: number, on = server) =>
  ok<EscrowStatusResponse>(on.get(`/api/wallet/escrow/${dealId}`, { token: creator.token }));
const refundsOf = async (dealId: number) => {
  const result = (await server.db.execute(
    sql`select count(*)::int as count from ledger_transfers
         where kind = 'escrow_refund' and from_account = ${`escrow:${dealId}`}`,
  )) as unknown as { rows: Array<{ count: number }> };
  return result.rows[0]!.count;
};
const dealOf = () => dealWithDealmaker(server, { creator, counterpart, dealmaker }, 100);

describe('a lone half', () => {
  it('is refunded by itself when the other half does not come in time, and both dealers are told', async () => {
    const recorder = recordEvents(server);
    const deal = await dealOf();
    const balance = await balanceOf(server, creator);
    const paidAt = Date.now();
    await ok(payHalf(server, creator, deal.id));
    const waiting = await escrowOf(deal.id);
    expect(waiting.expiresAt).toEqual(isoTimestamp);
    expect(waiting.escrow!.expiresAt).toBe(waiting.expiresAt);
    expect(Date.parse(waiting.expiresAt!) - paidAt).toBeGreaterThanOrEqual(halfTimeoutMs - 100);
    expect(Date.parse(waiting.expiresAt!) - paidAt).toBeLessThanOrEqual(halfTimeoutMs + 1_000);

    const refunded = await eventually(async () => {
      const escrow = await escrowOf(deal.id);
      return !escrow.escrow!.creatorPaid && escrow;
    });
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(waiting.expiresAt!));
    expect(refunded.escrow).toMatchObject({ status: 'pending', creatorPaid: false, expiresAt: null });
    expect(refunded.expiresAt).toBeNull();
    expect(refunded.deal.escrow_paid).toBe(false);
    expect(await balanceOf(server, creator)).toBe(balance);
    const [latest] = await ok<Array<{ type: string; amount: number; description: string }>>(
      server.get('/api/wallet/transactions?limit=1', { token: creator.token }),
    );
    expect(latest).toMatchObject({
      type: 'escrow_refund',
      amount: 50,
      description: `Escrow half refunded for "${deal.title}": the other dealer did not pay within 2 seconds`,
    });
    const told = noticesIn(recorder.take()).filter(
      (notice) => notice.dealId === deal.id && notice.kind === 'escrow-expired',
    );
    recorder.detach();
    expect(told.map((notice) => notice.to).sort()).toEqual([creator.user.id, counterpart.user.id].sort());
    const timeline = await ok<{ items: Array<{ kind?: string; actor: unknown; message?: string }> }>(
      server.get(`/api/deals/${deal.id}/timeline?limit=1`, { token: counterpart.token }),
    );
    expect(timeline.items[0]).toMatchObject({
      kind: 'half-expired',
      actor: null,
      message: `${creator.username}'s half ($50.00) waited 2 seconds for the other and was refunded.`,
    });
    expect(await refundsOf(deal.id)).toBe(1);
    expect(await auditLedger(server.db)).toEqual([]);
  });

  it('stays when the other half comes in time: the escrow locks', async () => {
    const deal = await dealOf();
    await ok(payHalf(server, creator, deal.id));
    await ok(payHalf(server, counterpart, deal.id));
    expect((await escrowOf(deal.id)).expiresAt).toBeNull();
    await sleep(halfTimeoutMs + 1_500);
    expect((await escrowOf(deal.id)).escrow).toMatchObject({ status: 'locked', creatorPaid: true });
    expect(await refundsOf(deal.id)).toBe(0);
  });

  it('runs from the last payment: taken back and paid again, it expires once, at the later deadline', async () => {
    const deal = await dealOf();
    await ok(payHalf(server, counterpart, deal.id));
    await ok(refundHalf(server, counterpart, deal.id));
    await sleep(700);
    await ok(payHalf(server, counterpart, deal.id));
    const deadline = Date.parse((await escrowOf(deal.id)).expiresAt!);
    await sleep(Math.max(0, deadline - Date.now() - 400));
    expect((await escrowOf(deal.id)).escrow!.counterpartPaid).toBe(true);
    await eventually(async () => !(await escrowOf(deal.id)).escrow!.counterpartPaid);
    await sleep(1_500);
    // One refund by the dealer, one by the deadline.
    expect(await refundsOf(deal.id)).toBe(2);
    expect(await auditLedger(server.db)).toEqual([]);
  });

  it('is refunded after a restart: a deadline passed while no server ran is kept', async () => {
    const deal = await dealOf();
    await ok(payHalf(server, creator, deal.id));
    await server.close();
    await sleep(halfTimeoutMs + 500);
    server = await startTestServer({ database, keepDatabase: true, config: deadlines });
    await eventually(async () => !(await escrowOf(deal.id)).escrow!.creatorPaid);
    expect(await refundsOf(deal.id)).toBe(1);
    expect(await auditLedger(server.db)).toEqual([]);
  });
});

describe('a dispute', () => {
  const raise = (dealId: number) =>
    ok<Dispute>(
      server.post('/api/disputes', {
        token: creator.token,
        body: { dealId, title: 'Stalled', description: 'Nothing moves.' },
      }),
      201,
    );
  const escalate = (user: SignedUpUser, disputeId: number) =>
    server.post<Dispute>(`/api/disputes/${disputeId}/escalate`, { token: user.token });
  const disputeOf = async (dealId: number) =>
    (await ok<Dispute[]>(server.get(`/api/disputes/deal/${dealId}`, { token: creator.token })))[0]!;

  it('shows when it escalates, and goes to the operators by itself when nothing settles it', async () => {
    const recorder = recordEvents(server);
    const deal = await dealOf();
    const raisedAt = Date.now();
    const dispute = await raise(deal.id);
    expect(dispute.escalated).toBe(false);
    expect(Date.parse(dispute.escalatesAt!) - raisedAt).toBeGreaterThanOrEqual(escalationMs - 100);
    const escalated = await eventually(async () => {
      const current = await disputeOf(deal.id);
      return current.escalated && current;
    });
    expect(escalated).toMatchObject({ status: 'open', escalatedAt: isoTimestamp, escalatesAt: null });
    expect(Date.parse(escalated.escalatedAt!)).toBeGreaterThanOrEqual(Date.parse(dispute.escalatesAt!) - 50);
    const told = noticesIn(recorder.take()).filter((notice) => notice.kind === 'dispute-escalated');
    recorder.detach();
    expect(told.map((notice) => notice.to).sort()).toEqual(
      [creator.user.id, counterpart.user.id, dealmaker.user.id].sort(),
    );
    expect(told[0]!.message).toBe(
      `The dispute "Stalled" on "${deal.title}" went to the operators (nothing settled it in time).`,
    );
  });

  it('escalates at once when a dealer asks, only once, and never a resolved one', async () => {
    const deal = await dealOf();
    const dispute = await raise(deal.id);
    for (const user of [dealmaker, outsider]) {
      const refused = await escalate(user, dispute.id);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        message: 'Only the dealers of this deal can escalate a dispute.',
        code: 'FORBIDDEN',
      });
    }
    const escalated = await ok<Dispute>(escalate(counterpart, dispute.id));
    expect(escalated).toMatchObject({ escalated: true, escalatedAt: isoTimestamp, status: 'open' });
    expect((await escalate(creator, dispute.id)).body).toEqual({
      message: 'This dispute is already with the operators.',
      code: 'CONFLICT',
    });
    const other = await raise(deal.id);
    await ok(
      server.put(`/api/disputes/${other.id}/resolve`, { token: dealmaker.token, body: { resolution: 'ok' } }),
    );
    expect((await escalate(creator, other.id)).body).toEqual({
      message: 'This dispute is not open.',
      code: 'CONFLICT',
    });
    expect((await escalate(creator, 2_147_483_647)).status).toBe(404);
    expect((await server.post(`/api/disputes/${dispute.id}/escalate`)).status).toBe(401);
    expect((await server.get(`/api/disputes/deal/${deal.id}`, { token: outsider.token })).body).toEqual(
      onlyParticipants,
    );
  });

  it('raised before deadlines existed gets one at start', async () => {
    const deal = await dealOf();
    const dispute = await raise(deal.id);
    await server.db.update(disputes).set({ escalatesAt: null }).where(eq(disputes.id, dispute.id));
    await server.close();
    server = await startTestServer({ database, keepDatabase: true, config: deadlines });
    const [row] = await server.db.select().from(disputes).where(eq(disputes.id, dispute.id));
    expect(row!.escalatesAt).not.toBeNull();
    await eventually(async () => (await disputeOf(deal.id)).escalated);
  });
});

describe('with two instances on one database', () => {
  it('refunds each expired half exactly once', async () => {
    const second = await startTestServer({ database, keepDatabase: true, config: deadlines });
    try {
      const deals: Deal[] = [];
      for (let index = 0; index < 6; index++) deals.push(await dealOf());
      // Half of the payments through each instance: both instances hold due jobs.
      await Promise.all(
        deals.map((deal, index) => ok(payHalf(index % 2 ? second : server, creator, deal.id))),
      );
      await eventually(async () => {
        const states = await Promise.all(deals.map((deal) => escrowOf(deal.id)));
        return states.every((state) => !state.escrow!.creatorPaid);
      }, 15_000);
      await sleep(1_500);
      for (const deal of deals) expect(await refundsOf(deal.id)).toBe(1);
      expect(await auditLedger(server.db)).toEqual([]);
    } finally {
      await second.close();
    }
  });
});

describe('a deadline racing a payment', () => {
  it('either locks the escrow or refunds the lone half, never both, and the books stay right', async () => {
    const deals: Deal[] = [];
    for (let index = 0; index < 6; index++) deals.push(await dealOf());
    for (const deal of deals) await ok(payHalf(server, creator, deal.id));
    const deadline = Date.parse((await escrowOf(deals.at(-1)!.id)).expiresAt!);
    await sleep(Math.max(0, deadline - Date.now() - 300));
    // The other halves arrive around the deadlines, while the jobs run.
    const answers = await Promise.all(deals.map((deal) => payHalf(server, counterpart, deal.id)));
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    await sleep(halfTimeoutMs + 1_500);
    for (const deal of deals) {
      const { escrow } = await escrowOf(deal.id);
      const refunds = await refundsOf(deal.id);
      // Locked in time, or the creator's half was refunded first (and the counterpart's then waits alone, until it too expires).
      if (escrow!.status === 'locked') expect(refunds).toBe(0);
      else expect(refunds).toBeGreaterThanOrEqual(1);
    }
    expect(await auditLedger(server.db)).toEqual([]);
  });
});
