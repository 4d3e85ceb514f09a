import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deal } from '../../../contract/deals';
import type { Dispute } from '../../../contract/disputes';
import { splitSettlement } from '../../../contract/escrow';
import type { Proposal } from '../../../contract/settlements';
import { settlements } from '../../db/schema';
import { isoTimestamp, signUpMany } from '../../test/deal-fixtures';
import { dealNotFound, onlyParticipants, signInFirst, unknownId } from '../../test/expected-errors';
import { ok, type SignedUpUser, startTestServer, type TestServer } from '../../test/harness';
import { auditLedger } from '../../test/ledger-audit';
import { balanceOf, dealWithDealmaker, deposit, payHalf } from '../../test/money-fixtures';

let server: TestServer;
let creator: SignedUpUser;
let counterpart: SignedUpUser;
let dealmaker: SignedUpUser;
let outsider: SignedUpUser;

beforeAll(async () => {
  server = await startTestServer();
  [creator, counterpart, dealmaker, outsider] = await signUpMany(server, 4);
  for (const dealer of [creator, counterpart]) await deposit(server, dealer, 100_000);
});
afterAll(() => server.close());

const conflict = (message: string) => ({ message, code: 'CONFLICT' });
const notOpen = conflict('This dispute is not open.');
const notLocked = conflict('A settlement splits a locked escrow: both halves must be paid first.');
const proposalClosed = conflict('This proposal is no longer open.');
const proposalNotFound = { message: 'Proposal not found.', code: 'NOT_FOUND' };

/** A deal whose escrow both dealers paid (locked), with an open dispute the creator raised. */
async function disputedDeal(budget = 1000.01, options: { pay?: 'both' | 'one' } = {}) {
  const deal = await dealWithDealmaker(server, { creator, counterpart, dealmaker }, budget);
  await ok(payHalf(server, creator, deal.id));
  if (options.pay !== 'one') await ok(payHalf(server, counterpart, deal.id));
  const dispute = await ok<Dispute>(
    server.post('/api/disputes', {
      token: creator.token,
      body: { dealId: deal.id, title: 'Late delivery', description: 'Two weeks late.' },
    }),
    201,
  );
  return { deal, dispute };
}

const propose = (user: SignedUpUser | null, disputeId: number | string, body: unknown) =>
  server.post<Proposal>(`/api/disputes/${disputeId}/proposals`, { token: user?.token, body });
const accept = (user: SignedUpUser | null, disputeId: number, proposalId: number | string) =>
  server.post<Proposal>(`/api/disputes/${disputeId}/proposals/${proposalId}/accept`, { token: user?.token });
const withdraw = (user: SignedUpUser, disputeId: number, proposalId: number) =>
  server.post<Proposal>(`/api/disputes/${disputeId}/proposals/${proposalId}/withdraw`, { token: user.token });
const disputesOf = async (dealId: number) =>
  ok<Dispute[]>(server.get(`/api/disputes/deal/${dealId}`, { token: creator.token }));

describe('POST /api/disputes/{id}/proposals', () => {
  it('proposes a split, the rest back in proportion to what each paid, accepted by its proposer', async () => {
    const { dispute } = await disputedDeal(1000.01);
    const response = await propose(counterpart, dispute.id, { toDealmaker: 600 });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      disputeId: dispute.id,
      proposedBy: { username: counterpart.username },
      toDealmaker: 600,
      // 400.01 back: the creator paid 500.01 of 1000.01, the counterpart 500.00.
      refundToCreator: 200.01,
      refundToCounterpart: 200,
      acceptedBy: [counterpart.username],
      status: 'open',
      createdAt: isoTimestamp,
    });
    const [listed] = await disputesOf(dispute.dealId);
    expect(listed!.proposals).toEqual([response.body]);
    expect(listed!.settlement).toBeNull();
  });

  it('accepts money as a decimal string, 0 and the whole escrow', async () => {
    const { dispute } = await disputedDeal(100);
    expect(
      (await ok<Proposal>(propose(dealmaker, dispute.id, { toDealmaker: '0' }), 201)).refundToCreator,
    ).toBe(50);
    const whole = await ok<Proposal>(propose(dealmaker, dispute.id, { toDealmaker: 100 }), 201);
    expect([whole.toDealmaker, whole.refundToCreator, whole.refundToCounterpart]).toEqual([100, 0, 0]);
  });

  it('supersedes the open proposal with a new one', async () => {
    const { dispute } = await disputedDeal();
    const first = await ok<Proposal>(propose(creator, dispute.id, { toDealmaker: 100 }), 201);
    const second = await ok<Proposal>(propose(dealmaker, dispute.id, { toDealmaker: 900 }), 201);
    const [listed] = await disputesOf(dispute.dealId);
    expect(listed!.proposals.map((proposal) => [proposal.id, proposal.status])).toEqual([
      [second.id, 'open'],
      [first.id, 'superseded'],
    ]);
    expect((await accept(counterpart, dispute.id, first.id)).body).toEqual(proposalClosed);
  });

  it('refuses outsiders, amounts out of range, and disputes that cannot be settled', async () => {
    const { deal, dispute } = await disputedDeal(1000);
    const stranger = await propose(outsider, dispute.id, { toDealmaker: 1 });
    expect(stranger.status).toBe(403);
    expect(stranger.body).toEqual(onlyParticipants);
    const tooMuch = await propose(creator, dispute.id, { toDealmaker: 1000.01 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body).toEqual({
      message: 'toDealmaker can be at most $1,000.00, the whole escrow.',
      code: 'VALIDATION_FAILED',
      fieldErrors: { toDealmaker: ['toDealmaker can be at most $1,000.00, the whole escrow.'] },
    });
    for (const body of [
      {},
      { toDealmaker: -1 },
      { toDealmaker: 1.005 },
      { toDealmaker: 'all' },
      { toDealmaker: null },
    ]) {
      const response = await propose(creator, dispute.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body, JSON.stringify(body)).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    expect((await propose(null, dispute.id, { toDealmaker: 1 })).body).toEqual(signInFirst);
    expect((await propose(creator, unknownId, { toDealmaker: 1 })).status).toBe(404);
    expect((await propose(creator, 'abc', { toDealmaker: 1 })).status).toBe(400);

    const onePaid = await disputedDeal(1000, { pay: 'one' });
    expect((await propose(creator, onePaid.dispute.id, { toDealmaker: 1 })).body).toEqual(notLocked);

    await ok(
      server.put(`/api/disputes/${dispute.id}/resolve`, {
        token: dealmaker.token,
        body: { resolution: 'Done.' },
      }),
    );
    expect((await propose(creator, dispute.id, { toDealmaker: 1 })).body).toEqual(notOpen);
    expect(await disputesOf(deal.id)).toHaveLength(1);
    expect(await auditLedger(server.db)).toEqual([]);
  });
});

describe('accepting and withdrawing', () => {
  it('settles once all three accept: the money moves, the deal completes, the dispute resolves', async () => {
    const { deal, dispute } = await disputedDeal(1000.01);
    const before = await Promise.all(
      [creator, counterpart, dealmaker].map((user) => balanceOf(server, user)),
    );
    const proposal = await ok<Proposal>(propose(dealmaker, dispute.id, { toDealmaker: 600 }), 201);
    const second = await ok<Proposal>(accept(creator, dispute.id, proposal.id));
    expect(second.acceptedBy).toEqual([dealmaker.username, creator.username]);
    expect(second.status).toBe('open');
    // Accepting again changes nothing.
    expect((await ok<Proposal>(accept(creator, dispute.id, proposal.id))).acceptedBy).toEqual(
      second.acceptedBy,
    );

    const last = await ok<Proposal>(accept(counterpart, dispute.id, proposal.id));
    expect(last.status).toBe('accepted');
    expect(last.acceptedBy).toEqual([dealmaker.username, creator.username, counterpart.username]);

    const after = await Promise.all([creator, counterpart, dealmaker].map((user) => balanceOf(server, user)));
    expect(after.map((balance, index) => Math.round((balance - before[index]!) * 100))).toEqual([
      20001, 20000, 60000,
    ]);
    const escrow = await ok<{ escrow: { status: string }; deal: Deal }>(
      server.get(`/api/wallet/escrow/${deal.id}`, { token: creator.token }),
    );
    expect(escrow.escrow.status).toBe('settled');
    expect(escrow.deal.is_completed).toBe(true);
    const [settled] = await disputesOf(deal.id);
    const resolution = `Settled by agreement: $600.00 to the dealmaker (${dealmaker.username}), $200.01 back to ${creator.username}, $200.00 back to ${counterpart.username}.`;
    expect(settled).toMatchObject({
      status: 'resolved',
      resolution,
      resolvedByUsername: counterpart.username,
      escalatesAt: null,
      settlement: {
        toDealmaker: 600,
        refundToCreator: 200.01,
        refundToCounterpart: 200,
        by: 'agreement',
        proposalId: proposal.id,
        settledAt: isoTimestamp,
      },
    });
    const history = await ok<Array<{ type: string; amount: number; description: string }>>(
      server.get('/api/wallet/transactions?limit=1', { token: dealmaker.token }),
    );
    expect(history[0]).toMatchObject({ type: 'payment_received', amount: 600 });
    // Reviews open as after a normal completion; the deal cannot be paid, marked or settled again.
    await ok(
      server.post('/api/reviews', {
        token: creator.token,
        body: { dealId: deal.id, reviewedUsername: dealmaker.username, rating: 4 },
      }),
      201,
    );
    expect((await propose(creator, dispute.id, { toDealmaker: 1 })).body).toEqual(notOpen);
    expect((await accept(creator, dispute.id, proposal.id)).body).toEqual(notOpen);
    const timeline = await ok<{ items: Array<{ kind?: string; message?: string }> }>(
      server.get(`/api/deals/${deal.id}/timeline?limit=3`, { token: creator.token }),
    );
    expect(timeline.items.map((item) => item.kind)).toEqual([
      'review-left',
      'settled',
      'settlement-accepted',
    ]);
    expect(timeline.items[1]).toMatchObject({
      kind: 'settled',
      message: `Everyone agreed: the escrow: $600.00 to the dealmaker (${dealmaker.username}), $200.01 back to ${creator.username}, $200.00 back to ${counterpart.username}. The deal is completed.`,
    });
    expect(await auditLedger(server.db)).toEqual([]);
  });

  it('settles the whole escrow to the dealers, and closes the deal’s other open disputes', async () => {
    const { deal, dispute } = await disputedDeal(10);
    const other = await ok<Dispute>(
      server.post('/api/disputes', {
        token: counterpart.token,
        body: { dealId: deal.id, title: 'Paperwork', description: 'Missing.' },
      }),
      201,
    );
    const proposal = await ok<Proposal>(propose(creator, dispute.id, { toDealmaker: 0 }), 201);
    await ok(accept(counterpart, dispute.id, proposal.id));
    await ok(accept(dealmaker, dispute.id, proposal.id));
    const byId = new Map((await disputesOf(deal.id)).map((listed) => [listed.id, listed]));
    expect(byId.get(other.id)).toMatchObject({
      status: 'resolved',
      resolution: expect.stringMatching(
        /^Closed by the settlement of the dispute "Late delivery": Settled by agreement: \$0\.00 to the dealmaker/,
      ),
    });
    expect(await auditLedger(server.db)).toEqual([]);
  });

  it('lets only the proposer withdraw an open proposal', async () => {
    const { dispute } = await disputedDeal();
    const proposal = await ok<Proposal>(propose(creator, dispute.id, { toDealmaker: 500 }), 201);
    for (const user of [counterpart, dealmaker, outsider]) {
      const refused = await withdraw(user, dispute.id, proposal.id);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        message: 'Only the proposer can withdraw this proposal.',
        code: 'FORBIDDEN',
      });
    }
    expect((await ok<Proposal>(withdraw(creator, dispute.id, proposal.id))).status).toBe('withdrawn');
    expect((await withdraw(creator, dispute.id, proposal.id)).body).toEqual(proposalClosed);
    expect((await accept(counterpart, dispute.id, proposal.id)).body).toEqual(proposalClosed);
  });

  it('refuses unknown proposals and proposals of another dispute', async () => {
    const { dispute } = await disputedDeal();
    const elsewhere = await disputedDeal();
    const proposal = await ok<Proposal>(propose(creator, elsewhere.dispute.id, { toDealmaker: 5 }), 201);
    expect((await accept(counterpart, dispute.id, proposal.id)).body).toEqual(proposalNotFound);
    expect((await accept(counterpart, dispute.id, unknownId)).body).toEqual(proposalNotFound);
    expect((await accept(counterpart, dispute.id, 'x')).status).toBe(400);
    expect((await accept(outsider, elsewhere.dispute.id, proposal.id)).body).toEqual(onlyParticipants);
    expect((await accept(null, elsewhere.dispute.id, proposal.id)).status).toBe(401);
  });

  it('ends the open proposal when the dealmaker resolves the dispute with a text', async () => {
    const { dispute } = await disputedDeal();
    const proposal = await ok<Proposal>(propose(creator, dispute.id, { toDealmaker: 5 }), 201);
    await ok(
      server.put(`/api/disputes/${dispute.id}/resolve`, {
        token: dealmaker.token,
        body: { resolution: 'Agreed.' },
      }),
    );
    const [listed] = await disputesOf(dispute.dealId);
    expect(listed!.proposals[0]!.status).toBe('superseded');
    expect((await accept(counterpart, dispute.id, proposal.id)).body).toEqual(notOpen);
  });

  it('settles exactly once when the last acceptances race', async () => {
    for (let round = 0; round < 3; round++) {
      const { deal, dispute } = await disputedDeal(77.77);
      const proposal = await ok<Proposal>(propose(dealmaker, dispute.id, { toDealmaker: 7.77 }), 201);
      const answers = await Promise.all([
        accept(creator, dispute.id, proposal.id),
        accept(counterpart, dispute.id, proposal.id),
        accept(counterpart, dispute.id, proposal.id),
        accept(creator, dispute.id, proposal.id),
      ]);
      for (const answer of answers) {
        expect([200, 409], JSON.stringify(answer.body)).toContain(answer.status);
      }
      expect(await server.db.select().from(settlements).where(eq(settlements.dealId, deal.id))).toHaveLength(
        1,
      );
      expect(await auditLedger(server.db)).toEqual([]);
    }
  });

  it('computes every split cent-exact: the three parts always add up to the escrow', async () => {
    for (const [amountCents, toDealmakerCents] of [
      [100_001, 33_333],
      [1, 0],
      [1, 1],
      [3, 1],
      [100_000_000_000, 99_999_999_999],
      [99_999_999_999, 12_345_678_901],
    ] as const) {
      const creatorShareCents = amountCents - Math.floor(amountCents / 2);
      const split = splitSettlement({ amountCents, creatorShareCents }, toDealmakerCents);
      expect(split.toDealmakerCents + split.refundToCreatorCents + split.refundToCounterpartCents).toBe(
        amountCents,
      );
      expect(split.refundToCreatorCents).toBeGreaterThanOrEqual(split.refundToCounterpartCents);
      expect(split.refundToCreatorCents).toBeLessThanOrEqual(creatorShareCents);
      expect(split.refundToCounterpartCents).toBeLessThanOrEqual(amountCents - creatorShareCents);
    }
  });
});

describe('the settled escrow', () => {
  it('is never paid out again by a mark, a refund or a second settlement', async () => {
    const { deal, dispute } = await disputedDeal(20);
    const proposal = await ok<Proposal>(propose(creator, dispute.id, { toDealmaker: 10 }), 201);
    await ok(accept(counterpart, dispute.id, proposal.id));
    await ok(accept(dealmaker, dispute.id, proposal.id));
    const refund = await server.post(`/api/wallet/escrow/${deal.id}/refund`, { token: creator.token });
    expect(refund.status).toBe(409);
    expect(refund.body).toEqual(
      conflict('This escrow was settled: its money was paid out as the settlement says.'),
    );
    const mark = await server.put(`/api/progress/deal/${deal.id}/complete`, { token: creator.token });
    expect(mark.body).toMatchObject({ message: 'This deal is already completed.' });
    const pay = await payHalf(server, creator, deal.id);
    expect(pay.status).toBe(409);
    const paidOut = (await server.db.execute(
      sql`select kind, amount_cents::int as cents from ledger_transfers
           where from_account = ${`escrow:${deal.id}`} order by kind, amount_cents`,
    )) as unknown as { rows: Array<{ kind: string; cents: number }> };
    expect(paidOut.rows).toEqual([
      { kind: 'escrow_refund', cents: 500 },
      { kind: 'escrow_refund', cents: 500 },
      { kind: 'escrow_release', cents: 1000 },
    ]);
    expect(await auditLedger(server.db)).toEqual([]);
    expect((await server.get(`/api/disputes/deal/${unknownId}`, { token: creator.token })).body).toEqual(
      dealNotFound,
    );
  });
});
