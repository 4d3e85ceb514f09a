/**
 * Staged escrow (contract/milestones.ts): a milestone plan agreed by the three participants, each
 * milestone paid by both dealers in order, submitted by the dealmaker, released when both dealers
 * approve it or by itself at its deadline, stopped by a dispute and split by a settlement; a deal
 * without a plan is one milestone of the whole budget. The books are checked after each scenario.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Deal } from '../../../contract/deals';
import type { Milestone, MilestonePlan, MilestonesResponse } from '../../../contract/milestones';
import { ledgerTransfers, milestones as milestonesTable } from '../../db/schema';
import { isoTimestamp, signUpMany } from '../../test/deal-fixtures';
import { invalid, signInFirst, unknownId } from '../../test/expected-errors';
import { type SignedUpUser, startTestServer, type TestServer } from '../../test/harness';
import { auditLedger } from '../../test/ledger-audit';
import { balanceOf, dealWithDealmaker, deposit, markFinished, payHalf } from '../../test/money-fixtures';
import { domainEvents, noticesIn, recordEvents } from '../../test/recorded-events';
import { createTestDatabase } from '../../test/test-database';

const conflict = (message: string) => ({ message, code: 'CONFLICT' });
const forbidden = (message: string) => ({ message, code: 'FORBIDDEN' });
const badRequest = (field: string, message: string) => invalid(field, message);

/** Seconds, for the auto-release and lone-share deadlines of this file. */
const autoReleaseSeconds = 2;

let server: TestServer;
let creator: SignedUpUser;
let counterpart: SignedUpUser;
let dealmaker: SignedUpUser;
let outsider: SignedUpUser;

beforeAll(async () => {
  server = await startTestServer({
    config: { milestoneAutoReleaseMs: autoReleaseSeconds * 1000, jobPollingSeconds: 0.5 },
  });
  [creator, counterpart, dealmaker, outsider] = await signUpMany(server, 4);
  await deposit(server, creator, 100_000);
  await deposit(server, counterpart, 100_000);
});
afterEach(async () => {
  expect(await auditLedger(server.db)).toEqual([]);
});
afterAll(() => server.close());

const people = () => ({ creator, counterpart, dealmaker });
const listOf = (dealId: number, user: SignedUpUser) =>
  server.get<MilestonesResponse>(`/api/deals/${dealId}/milestones`, { token: user.token });
const propose = (dealId: number, user: SignedUpUser, milestones: unknown) =>
  server.post<MilestonePlan>(`/api/deals/${dealId}/milestone-plans`, {
    token: user.token,
    body: { milestones },
  });
const planCall = (dealId: number, planId: number, user: SignedUpUser, action: 'accept' | 'withdraw') =>
  server.post<MilestonePlan>(`/api/deals/${dealId}/milestone-plans/${planId}/${action}`, {
    token: user.token,
  });
const milestoneCall = (
  id: number,
  user: SignedUpUser,
  action: 'pay' | 'refund' | 'submit' | 'approve',
  body?: unknown,
) =>
  server.post<{ message: string; milestone: Milestone }>(`/api/milestones/${id}/${action}`, {
    token: user.token,
    ...(body === undefined ? {} : { body }),
  });

/** A deal of `budget` dollars with the given plan agreed by all three; answers its milestones. */
async function dealWithPlan(budget: number, plan: Array<{ title: string; amount: number | string }>) {
  const deal = await dealWithDealmaker(server, people(), budget);
  const proposed = await propose(deal.id, dealmaker, plan);
  expect(proposed.status, JSON.stringify(proposed.body)).toBe(201);
  expect((await planCall(deal.id, proposed.body.id, creator, 'accept')).status).toBe(200);
  const agreed = await planCall(deal.id, proposed.body.id, counterpart, 'accept');
  expect(agreed.body.status).toBe('accepted');
  const list = await listOf(deal.id, creator);
  return { deal, milestones: list.body.milestones };
}

async function fund(milestoneId: number) {
  expect((await milestoneCall(milestoneId, creator, 'pay')).status).toBe(200);
  const second = await milestoneCall(milestoneId, counterpart, 'pay');
  expect(second.status, JSON.stringify(second.body)).toBe(200);
  return second.body;
}

describe('a deal without a plan', () => {
  it('has one milestone of the whole budget, which the spec’s escrow calls pay and the marks release', async () => {
    const deal = await dealWithDealmaker(server, people(), 100.01);
    const list = await listOf(deal.id, creator);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      milestones: [
        {
          id: expect.any(Number),
          position: 1,
          title: 'Whole deal',
          amount: 100.01,
          creatorShare: 50.01,
          counterpartShare: 50,
          creatorPaid: false,
          counterpartPaid: false,
          status: 'open',
          dueDate: null,
          submittedAt: null,
          note: null,
          creatorApproved: false,
          counterpartApproved: false,
          autoReleaseAt: null,
          releasedAt: null,
          expiresAt: null,
          can: { pay: true },
        },
      ],
      proposals: [],
      canPlan: true,
      released: 0,
    });
    expect((await payHalf(server, creator, deal.id)).status).toBe(200);
    expect((await payHalf(server, counterpart, deal.id)).status).toBe(200);
    const locked = (await listOf(deal.id, dealmaker)).body;
    expect(locked.milestones[0]).toMatchObject({
      status: 'funded',
      creatorPaid: true,
      counterpartPaid: true,
      can: { submit: true },
    });
    expect(locked.canPlan).toBe(false);
    const before = await balanceOf(server, dealmaker);
    expect((await markFinished(server, creator, deal.id)).status).toBe(200);
    expect((await markFinished(server, counterpart, deal.id)).status).toBe(200);
    expect(await balanceOf(server, dealmaker)).toBe(before + 100.01);
    const done = (await listOf(deal.id, creator)).body;
    expect(done.milestones[0]).toMatchObject({ status: 'released', releasedAt: isoTimestamp, can: {} });
    expect(done.released).toBe(100.01);
  });

  it('answers 403 to outsiders, 404 for an unknown deal, 401 without a session', async () => {
    const deal = await dealWithDealmaker(server, people(), 10);
    expect((await listOf(deal.id, outsider)).status).toBe(403);
    expect((await listOf(unknownId, creator)).status).toBe(404);
    const anonymous = await server.get(`/api/deals/${deal.id}/milestones`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(signInFirst);
  });
});

describe('the milestone plan', () => {
  it('is proposed by any participant, accepted by the others, and becomes the deal’s milestones with cent-exact shares', async () => {
    const deal = await dealWithDealmaker(server, people(), 1000.01);
    const proposed = await propose(deal.id, counterpart, [
      { title: 'Design', amount: '300.01', dueDate: '2027-01-15' },
      { title: 'Build', amount: 400.01 },
      { title: ' Launch ', amount: '299.99' },
    ]);
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(201);
    expect(proposed.body).toEqual({
      id: expect.any(Number),
      dealId: deal.id,
      proposedBy: { username: counterpart.username },
      milestones: [
        { position: 1, title: 'Design', amount: 300.01, dueDate: '2027-01-15T00:00:00.000Z' },
        { position: 2, title: 'Build', amount: 400.01, dueDate: null },
        { position: 3, title: 'Launch', amount: 299.99, dueDate: null },
      ],
      acceptedBy: [counterpart.username],
      status: 'open',
      createdAt: isoTimestamp,
    });
    const byDealmaker = await planCall(deal.id, proposed.body.id, dealmaker, 'accept');
    expect(byDealmaker.body).toMatchObject({
      status: 'open',
      acceptedBy: [counterpart.username, dealmaker.username],
    });
    expect((await listOf(deal.id, creator)).body.milestones).toHaveLength(1);
    const agreed = await planCall(deal.id, proposed.body.id, creator, 'accept');
    expect(agreed.body.status).toBe('accepted');

    const { milestones, proposals } = (await listOf(deal.id, creator)).body;
    expect(
      milestones.map((m) => [m.position, m.title, m.amount, m.creatorShare, m.counterpartShare, m.status]),
    ).toEqual([
      [1, 'Design', 300.01, 150.01, 150, 'open'],
      [2, 'Build', 400.01, 200, 200.01, 'open'],
      [3, 'Launch', 299.99, 150, 149.99, 'open'],
    ]);
    // Over the plan the creator pays ceil(budget/2), the counterpart floor(budget/2).
    const cents = (dollars: number) => Math.round(dollars * 100);
    expect(milestones.reduce((total, m) => total + cents(m.creatorShare), 0)).toBe(50_001);
    expect(milestones.reduce((total, m) => total + cents(m.counterpartShare), 0)).toBe(50_000);
    expect(milestones[0]!.dueDate).toBe('2027-01-15T00:00:00.000Z');
    expect(proposals.map((p) => p.status)).toEqual(['accepted']);
    const escrow = await server.get(`/api/wallet/escrow/${deal.id}`, { token: creator.token });
    expect(escrow.body.escrow).toMatchObject({
      amount: 1000.01,
      creatorAmount: 500.01,
      counterpartAmount: 500,
      status: 'pending',
    });
  });

  it('refuses a plan that does not add up, saying by how much, and bad input', async () => {
    const deal = await dealWithDealmaker(server, people(), 100);
    const cases: Array<[unknown, object]> = [
      [
        [
          { title: 'A', amount: 60 },
          { title: 'B', amount: 30 },
        ],
        badRequest('milestones', 'The milestones add up to $90.00, $10.00 less than the budget of $100.00.'),
      ],
      [
        [
          { title: 'A', amount: 60 },
          { title: 'B', amount: 40.5 },
        ],
        badRequest('milestones', 'The milestones add up to $100.50, $0.50 more than the budget of $100.00.'),
      ],
      [[], badRequest('milestones', 'A plan has at least one milestone')],
      [
        Array.from({ length: 21 }, (_, i) => ({ title: `M${i}`, amount: 1 })),
        badRequest('milestones', 'A plan has at most 20 milestones'),
      ],
      [[{ title: ' ', amount: 100 }], badRequest('milestones.0.title', 'Title is required')],
      [
        [{ title: 'x'.repeat(201), amount: 100 }],
        badRequest('milestones.0.title', 'Title must be at most 200 characters'),
      ],
      [
        [{ title: 'A', amount: 0 }],
        badRequest('milestones.0.amount', 'Amount must be between $0.01 and $1,000,000,000.00'),
      ],
      [
        [{ title: 'A', amount: 100, dueDate: 'soon' }],
        badRequest(
          'milestones.0.dueDate',
          'Due date must be a date (YYYY-MM-DD) or a date and time (ISO 8601)',
        ),
      ],
    ];
    for (const [milestones, error] of cases) {
      const response = await propose(deal.id, creator, milestones);
      expect(response.status, JSON.stringify(milestones).slice(0, 80)).toBe(400);
      expect(response.body, JSON.stringify(milestones).slice(0, 80)).toEqual(error);
    }
    expect((await listOf(deal.id, creator)).body.proposals).toEqual([]);
  });

  it('is refused to outsiders, before a dealmaker, and once money is paid', async () => {
    const deal = await dealWithDealmaker(server, people(), 100);
    const plan = [{ title: 'All', amount: 100 }];
    const byOutsider = await propose(deal.id, outsider, plan);
    expect(byOutsider.status).toBe(403);
    expect(byOutsider.body).toEqual(forbidden('Only the participants of this deal can do this.'));
    const proposed = await propose(deal.id, creator, plan);
    expect((await planCall(deal.id, proposed.body.id, outsider, 'accept')).status).toBe(403);

    expect((await payHalf(server, creator, deal.id)).status).toBe(200);
    const late = await propose(deal.id, counterpart, plan);
    expect(late.status).toBe(409);
    expect(late.body).toEqual(
      conflict('Money has been paid into escrow: the milestone plan can no longer change.'),
    );
    expect((await planCall(deal.id, proposed.body.id, counterpart, 'accept')).body).toEqual(
      conflict('Money has been paid into escrow: the milestone plan can no longer change.'),
    );
    const alone = await server.post<Deal>('/api/deals/create-deal', {
      token: creator.token,
      body: { title: 'No dealmaker', description: 'd', budget: 10, timeline: 't' },
    });
    expect((await propose(alone.body.id, creator, [{ title: 'All', amount: 10 }])).body).toEqual(
      conflict('A milestone plan is agreed once the deal has its dealmaker.'),
    );
  });

  it('a new proposal supersedes the open one; its proposer may withdraw it; accepting twice is refused', async () => {
    const deal = await dealWithDealmaker(server, people(), 100);
    const first = await propose(deal.id, creator, [{ title: 'All', amount: 100 }]);
    expect((await planCall(deal.id, first.body.id, creator, 'accept')).body).toEqual(
      conflict('You have already accepted this plan.'),
    );
    const second = await propose(deal.id, dealmaker, [
      { title: 'Half', amount: 50 },
      { title: 'Rest', amount: 50 },
    ]);
    expect((await planCall(deal.id, first.body.id, counterpart, 'accept')).body).toEqual(
      conflict('This plan is no longer open: it was superseded.'),
    );
    const byOther = await planCall(deal.id, second.body.id, creator, 'withdraw');
    expect(byOther.status).toBe(403);
    expect(byOther.body).toEqual(forbidden('Only its proposer can withdraw this plan.'));
    const withdrawn = await planCall(deal.id, second.body.id, dealmaker, 'withdraw');
    expect(withdrawn.body.status).toBe('withdrawn');
    const { proposals, milestones } = (await listOf(deal.id, counterpart)).body;
    expect(proposals.map((p) => [p.id, p.status])).toEqual([
      [second.body.id, 'withdrawn'],
      [first.body.id, 'superseded'],
    ]);
    expect(milestones.map((m) => m.title)).toEqual(['Whole deal']);
    expect((await planCall(deal.id, unknownId, creator, 'accept')).status).toBe(404);
  });
});

describe('paying, submitting and approving milestones', () => {
  it('funds in order, releases when both dealers approve, and completes the deal with the last one', async () => {
    const { deal, milestones } = await dealWithPlan(300, [
      { title: 'One', amount: 100 },
      { title: 'Two', amount: 100 },
      { title: 'Three', amount: 100 },
    ]);
    const [one, two, three] = milestones as [Milestone, Milestone, Milestone];
    const skipped = await milestoneCall(two.id, creator, 'pay');
    expect(skipped.status).toBe(409);
    expect(skipped.body).toEqual(conflict('Milestone 1 "One" must be funded first.'));

    const first = await milestoneCall(one.id, creator, 'pay');
    expect(first.body.message).toBe(
      'Your share ($50.00) of milestone 1 "One" has been paid successfully. Waiting for the other party.',
    );
    expect(first.body.milestone).toMatchObject({
      creatorPaid: true,
      status: 'open',
      expiresAt: isoTimestamp,
      can: { refund: true },
    });
    expect((await milestoneCall(one.id, creator, 'pay')).body).toEqual(
      conflict('You have already paid your share of this milestone.'),
    );
    const funded = await milestoneCall(one.id, counterpart, 'pay');
    expect(funded.body.message).toBe('Both shares of milestone 1 "One" are paid: it is funded.');
    expect(funded.body.milestone).toMatchObject({ status: 'funded', expiresAt: null });
    expect((await milestoneCall(one.id, creator, 'refund')).body).toEqual(
      conflict('Both shares of this milestone are paid: it can no longer be refunded.'),
    );
    // A later one may be funded early.
    await fund(two.id);

    expect((await milestoneCall(one.id, creator, 'submit')).body).toEqual(
      forbidden('Only the dealmaker of this deal can submit a milestone for approval.'),
    );
    expect((await milestoneCall(three.id, dealmaker, 'submit')).body).toEqual(
      conflict('Only a funded milestone can be submitted for approval: both shares must be paid first.'),
    );
    const submitted = await milestoneCall(one.id, dealmaker, 'submit', { note: 'Drawings delivered' });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.milestone).toMatchObject({
      status: 'submitted',
      note: 'Drawings delivered',
      submittedAt: isoTimestamp,
    });
    const autoAt = Date.parse(submitted.body.milestone.autoReleaseAt!);
    expect(autoAt).toBeGreaterThan(Date.now());
    expect((await milestoneCall(one.id, dealmaker, 'submit')).body).toEqual(
      conflict('This milestone is already submitted for approval.'),
    );

    expect((await milestoneCall(one.id, dealmaker, 'approve')).body).toEqual(
      forbidden('Only the dealers of this deal can approve a milestone.'),
    );
    const before = await balanceOf(server, dealmaker);
    const half = await milestoneCall(one.id, creator, 'approve');
    expect(half.body.message).toBe(
      'You approved milestone 1 "One". It is released once the other dealer approves it too.',
    );
    expect((await milestoneCall(one.id, creator, 'approve')).body).toEqual(
      conflict('You have already approved this milestone.'),
    );
    const released = await milestoneCall(one.id, counterpart, 'approve');
    expect(released.body.message).toBe(
      'Both dealers approved: milestone 1 "One" ($100.00) was released to the dealmaker.',
    );
    expect(released.body.milestone).toMatchObject({
      status: 'released',
      releasedAt: isoTimestamp,
      autoReleaseAt: null,
    });
    expect(await balanceOf(server, dealmaker)).toBe(before + 100);
    expect((await milestoneCall(one.id, counterpart, 'approve')).body).toEqual(
      conflict('This milestone was released to the dealmaker.'),
    );
    const history = await server.get('/api/wallet/transactions?limit=1', { token: dealmaker.token });
    expect(history.body[0]).toMatchObject({
      type: 'payment_received',
      amount: 100,
      description: `Payment received for "${deal.title}": milestone 1 "One"`,
    });

    await fund(three.id);
    for (const m of [two, three]) {
      await milestoneCall(m.id, dealmaker, 'submit');
      await milestoneCall(m.id, creator, 'approve');
      await milestoneCall(m.id, counterpart, 'approve');
    }
    const done = await server.get<Deal>(`/api/deals/${deal.id}`, { token: creator.token });
    expect(done.body).toMatchObject({
      is_completed: true,
      completion_date: isoTimestamp,
      can: { review: true },
    });
    expect(await balanceOf(server, dealmaker)).toBe(before + 300);
    const escrow = await server.get(`/api/wallet/escrow/${deal.id}`, { token: creator.token });
    expect(escrow.body.escrow.status).toBe('completed');
  });

  it('refunds a share while the other is unpaid; the spec’s escrow calls act on the milestone being funded', async () => {
    const { deal, milestones } = await dealWithPlan(200, [
      { title: 'First', amount: 120 },
      { title: 'Second', amount: 80 },
    ]);
    const [first, second] = milestones as [Milestone, Milestone];
    const paid = await payHalf(server, creator, deal.id);
    expect(paid.body.message).toBe(
      'Your share ($60.00) of milestone 1 "First" has been paid successfully. Waiting for the other party.',
    );
    const refunded = await milestoneCall(first.id, creator, 'refund');
    expect(refunded.body.message).toBe(
      'Your share ($60.00) of milestone 1 "First" has been refunded to your wallet.',
    );
    expect((await milestoneCall(first.id, creator, 'refund')).body).toEqual(
      conflict('You have not paid your share of this milestone, so there is nothing to refund.'),
    );
    await fund(first.id);
    const status = (await server.get(`/api/wallet/escrow/${deal.id}`, { token: creator.token })).body.escrow;
    // The escrow shows the milestone being funded: the second one, nothing paid yet.
    expect(status).toMatchObject({ status: 'pending', creatorPaid: false, counterpartPaid: false });
    expect((await payHalf(server, counterpart, deal.id)).status).toBe(200);
    expect((await listOf(deal.id, creator)).body.milestones[1]).toMatchObject({
      id: second.id,
      counterpartPaid: true,
    });
    const locked = await payHalf(server, creator, deal.id);
    expect(locked.body.message).toBe(
      'Both parties have paid! Money is now locked in escrow until deal completion.',
    );
    expect(locked.body.escrow.status).toBe('locked');
    // Mark as Finished, twice: releases every funded milestone not released.
    const before = await balanceOf(server, dealmaker);
    await markFinished(server, creator, deal.id);
    expect((await markFinished(server, counterpart, deal.id)).body.isCompleted).toBe(true);
    expect(await balanceOf(server, dealmaker)).toBe(before + 200);
    expect((await listOf(deal.id, creator)).body.milestones.map((m) => m.status)).toEqual([
      'released',
      'released',
    ]);
  });

  it('both dealers approving at once pay the dealmaker once', async () => {
    const { milestones } = await dealWithPlan(100, [{ title: 'Only', amount: 100 }]);
    const only = milestones[0]!;
    await fund(only.id);
    await milestoneCall(only.id, dealmaker, 'submit');
    const before = await balanceOf(server, dealmaker);
    const answers = await Promise.all([
      milestoneCall(only.id, creator, 'approve'),
      milestoneCall(only.id, counterpart, 'approve'),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(await balanceOf(server, dealmaker)).toBe(before + 100);
    const releases = await server.db
      .select()
      .from(ledgerTransfers)
      .where(sql`${ledgerTransfers.milestoneId} = ${only.id} and ${ledgerTransfers.kind} = 'escrow_release'`);
    expect(releases).toHaveLength(1);
  });

  it('is released by itself when nobody approves or disputes in time', async () => {
    const { deal, milestones } = await dealWithPlan(100, [
      { title: 'Early', amount: 40 },
      { title: 'Late', amount: 60 },
    ]);
    await fund(milestones[0]!.id);
    const before = await balanceOf(server, dealmaker);
    await milestoneCall(milestones[0]!.id, dealmaker, 'submit');
    await expect
      .poll(async () => (await listOf(deal.id, creator)).body.milestones[0]!.status, {
        timeout: 15_000,
        interval: 250,
      })
      .toBe('released');
    expect(await balanceOf(server, dealmaker)).toBe(before + 40);
    const timeline = await server.get(`/api/deals/${deal.id}/timeline`, { token: creator.token });
    expect(timeline.body.items.map((item: { message?: string }) => item.message)).toContain(
      `Nobody approved or disputed it in time: milestone 1 "Early" ($40.00) was released to ${dealmaker.username}.`,
    );
  });

  it('a dispute stops the timer; a settlement splits the money funded and not released, and completes the deal', async () => {
    const { deal, milestones } = await dealWithPlan(300, [
      { title: 'A', amount: 100 },
      { title: 'B', amount: 100 },
      { title: 'C', amount: 100 },
    ]);
    const [a, b, c] = milestones as [Milestone, Milestone, Milestone];
    await fund(a.id);
    await milestoneCall(a.id, dealmaker, 'submit');
    await milestoneCall(a.id, creator, 'approve');
    await milestoneCall(a.id, counterpart, 'approve');
    await fund(b.id);
    await milestoneCall(b.id, dealmaker, 'submit');
    // C: the creator's share alone.
    await milestoneCall(c.id, creator, 'pay');
    const dispute = await server.post('/api/disputes', {
      token: counterpart.token,
      body: { dealId: deal.id, title: 'B is late', description: 'Not what we agreed' },
    });
    expect(dispute.status).toBe(201);
    expect((await listOf(deal.id, creator)).body.milestones[1]).toMatchObject({
      status: 'submitted',
      autoReleaseAt: null,
    });
    expect((await milestoneCall(b.id, creator, 'approve')).body).toEqual(
      conflict('Resolve the open dispute before approving a milestone.'),
    );
    await sleep(autoReleaseSeconds * 1000 + 1500);
    expect((await listOf(deal.id, creator)).body.milestones[1]!.status).toBe('submitted');

    const creatorBefore = await balanceOf(server, creator);
    const counterpartBefore = await balanceOf(server, counterpart);
    const dealmakerBefore = await balanceOf(server, dealmaker);
    // The held money is B's $100: $30 to the dealmaker, the rest back in proportion.
    const proposal = await server.post(`/api/disputes/${dispute.body.id}/proposals`, {
      token: creator.token,
      body: { toDealmaker: 130 },
    });
    expect(proposal.status).toBe(400);
    expect(proposal.body).toEqual(
      badRequest('toDealmaker', 'toDealmaker can be at most $100.00, the whole escrow.'),
    );
    const split = await server.post(`/api/disputes/${dispute.body.id}/proposals`, {
      token: creator.token,
      body: { toDealmaker: 30 },
    });
    expect(split.status, JSON.stringify(split.body)).toBe(201);
    for (const user of [counterpart, dealmaker]) {
      const accepted = await server.post(
        `/api/disputes/${dispute.body.id}/proposals/${split.body.id}/accept`,
        {
          token: user.token,
        },
      );
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    }
    expect(await balanceOf(server, dealmaker)).toBe(dealmakerBefore + 30);
    // C's lone share ($50) goes back to the creator, with their $35 of B's $70.
    expect(await balanceOf(server, creator)).toBe(creatorBefore + 35 + 50);
    expect(await balanceOf(server, counterpart)).toBe(counterpartBefore + 35);
    const after = (await listOf(deal.id, creator)).body.milestones.map((m) => m.status);
    expect(after).toEqual(['released', 'settled', 'refunded']);
    const shown = await server.get<Deal>(`/api/deals/${deal.id}`, { token: creator.token });
    expect(shown.body).toMatchObject({ is_completed: true, settled: true });
  });
});

describe('the books', () => {
  it('the ledger check names a milestone row that claims money it never got', async () => {
    const { deal, milestones } = await dealWithPlan(100, [
      { title: 'X', amount: 50 },
      { title: 'Y', amount: 50 },
    ]);
    await server.db
      .update(milestonesTable)
      .set({ creatorPaid: true })
      .where(eq(milestonesTable.id, milestones[1]!.id));
    const broken = await auditLedger(server.db);
    expect(broken).toEqual([
      `milestones disagree with their escrow or the ledger: ${JSON.stringify({
        deal_id: deal.id,
        milestone_id: String(milestones[1]!.id),
        status: 'open',
        held: '0',
        expected: '2500',
      })}`,
    ]);
    await server.db
      .update(milestonesTable)
      .set({ creatorPaid: false })
      .where(eq(milestonesTable.id, milestones[1]!.id));
  });
});

describe('what the participants hear', () => {
  it('a submitted milestone goes to the deal’s room, and the dealers are told how long they have', async () => {
    const { deal, milestones } = await dealWithPlan(100, [
      { title: 'Kick-off', amount: 25 },
      { title: 'Rest', amount: 75 },
    ]);
    await fund(milestones[0]!.id);
    const recorder = recordEvents(server);
    try {
      await milestoneCall(milestones[0]!.id, dealmaker, 'submit', { note: 'Done' });
      const recorded = recorder.take();
      const updates = domainEvents(recorded).filter((event) => event.event === 'milestone-updated');
      expect(updates).toEqual([
        {
          audience: { deals: [deal.id] },
          event: 'milestone-updated',
          payload: {
            dealId: deal.id,
            data: expect.objectContaining({ id: milestones[0]!.id, status: 'submitted', can: {} }),
            updateType: 'submitted',
          },
        },
      ]);
      const told = `${dealmaker.username} delivered milestone 1 "Kick-off" of "${deal.title}". Approve it, or raise a dispute; it is released by itself in ${autoReleaseSeconds} seconds.`;
      expect(noticesIn(recorded)).toEqual([
        { to: creator.user.id, kind: 'milestone-submitted', dealId: deal.id, message: told },
        { to: counterpart.user.id, kind: 'milestone-submitted', dealId: deal.id, message: told },
      ]);
    } finally {
      recorder.detach();
      await expect
        .poll(async () => (await listOf(deal.id, creator)).body.milestones[0]!.status, {
          timeout: 15_000,
          interval: 250,
        })
        .toBe('released');
    }
  });

  it('approvals racing the timer pay the dealmaker once', async () => {
    const { deal, milestones } = await dealWithPlan(100, [{ title: 'Race', amount: 100 }]);
    await fund(milestones[0]!.id);
    const before = await balanceOf(server, dealmaker);
    await milestoneCall(milestones[0]!.id, dealmaker, 'submit');
    await sleep(autoReleaseSeconds * 1000 - 150);
    const answers = await Promise.all([
      milestoneCall(milestones[0]!.id, creator, 'approve'),
      milestoneCall(milestones[0]!.id, counterpart, 'approve'),
    ]);
    for (const answer of answers) expect([200, 409]).toContain(answer.status);
    await expect
      .poll(async () => (await listOf(deal.id, creator)).body.milestones[0]!.status, {
        timeout: 15_000,
        interval: 250,
      })
      .toBe('released');
    expect(await balanceOf(server, dealmaker)).toBe(before + 100);
  });
});

describe('a lone share of a later milestone', () => {
  let quick: TestServer;
  beforeAll(async () => {
    quick = await startTestServer({ config: { escrowHalfTimeoutMs: 1500, jobPollingSeconds: 0.5 } });
  });
  afterAll(() => quick.close());

  it('is refunded by itself when the other share does not come in time, and milestone 1 stays funded', async () => {
    const [a, b, m] = await signUpMany(quick, 3);
    await deposit(quick, a, 1000);
    await deposit(quick, b, 1000);
    const deal = await dealWithDealmaker(quick, { creator: a, counterpart: b, dealmaker: m }, 100);
    const proposed = await quick.post<MilestonePlan>(`/api/deals/${deal.id}/milestone-plans`, {
      token: m.token,
      body: {
        milestones: [
          { title: 'First', amount: 30 },
          { title: 'Second', amount: 70 },
        ],
      },
    });
    for (const user of [a, b]) {
      await quick.post(`/api/deals/${deal.id}/milestone-plans/${proposed.body.id}/accept`, {
        token: user.token,
      });
    }
    const [first, second] = (
      await quick.get<MilestonesResponse>(`/api/deals/${deal.id}/milestones`, { token: a.token })
    ).body.milestones as [Milestone, Milestone];
    for (const user of [a, b]) {
      expect((await quick.post(`/api/milestones/${first.id}/pay`, { token: user.token })).status).toBe(200);
    }
    expect((await quick.post(`/api/milestones/${second.id}/pay`, { token: b.token })).status).toBe(200);
    await expect
      .poll(
        async () =>
          (
            await quick.get<MilestonesResponse>(`/api/deals/${deal.id}/milestones`, { token: a.token })
          ).body.milestones.map((each) => [each.status, each.creatorPaid, each.counterpartPaid]),
        { timeout: 15_000, interval: 250 },
      )
      .toEqual([
        ['funded', true, true],
        ['open', false, false],
      ]);
    expect(await balanceOf(quick, b)).toBe(1000 - 15);
    const notices = await quick.get('/api/notifications', { token: b.token });
    expect(notices.body.notifications[0]).toMatchObject({
      kind: 'escrow-expired',
      message: `Your share ($35.00) of milestone 2 "Second" of "${deal.title}" was refunded to your wallet: the other dealer did not pay within 2 seconds.`,
    });
    expect(await auditLedger(quick.db)).toEqual([]);
  });
});

describe('with two instances on one database, each running the timers', () => {
  it('releases each submitted milestone exactly once', async () => {
    const database = await createTestDatabase();
    const config = { milestoneAutoReleaseMs: 1_500, jobPollingSeconds: 0.5 };
    const one = await startTestServer({ database, keepDatabase: true, config });
    const two = await startTestServer({ database, keepDatabase: true, config });
    try {
      const [a, b, m] = await signUpMany(one, 3);
      await deposit(one, a, 1000);
      await deposit(one, b, 1000);
      const submitted: number[] = [];
      for (let index = 0; index < 4; index++) {
        const deal = await dealWithDealmaker(one, { creator: a, counterpart: b, dealmaker: m }, 10);
        const [only] = (
          await one.get<MilestonesResponse>(`/api/deals/${deal.id}/milestones`, { token: a.token })
        ).body.milestones as [Milestone];
        for (const user of [a, b]) await one.post(`/api/milestones/${only.id}/pay`, { token: user.token });
        // Half of them submitted through each instance: both hold due jobs.
        const on = index % 2 ? two : one;
        expect((await on.post(`/api/milestones/${only.id}/submit`, { token: m.token })).status).toBe(200);
        submitted.push(only.id);
      }
      await expect.poll(() => balanceOf(one, m), { timeout: 15_000, interval: 250 }).toBe(40);
      await sleep(1_500);
      expect(await balanceOf(one, m)).toBe(40);
      const releases = await one.db
        .select()
        .from(ledgerTransfers)
        .where(
          sql`${ledgerTransfers.kind} = 'escrow_release' and ${ledgerTransfers.milestoneId} in ${submitted}`,
        );
      expect(releases).toHaveLength(4);
      expect(await auditLedger(one.db)).toEqual([]);
    } finally {
      await two.close();
      await one.close();
      await database.close();
    }
  });
});

describe('a timer racing a dispute', () => {
  it('either releases the milestone or stops its timer, never both, and the books stay right', async () => {
    const results: string[] = [];
    for (let round = 0; round < 3; round++) {
      const { deal, milestones } = await dealWithPlan(100, [{ title: 'Raced', amount: 100 }]);
      const only = milestones[0]!;
      await fund(only.id);
      const submitted = await milestoneCall(only.id, dealmaker, 'submit');
      const due = Date.parse(submitted.body.milestone.autoReleaseAt!);
      await sleep(Math.max(0, due - Date.now() - 100 + round * 100));
      const raised = await server.post('/api/disputes', {
        token: creator.token,
        body: { dealId: deal.id, title: 'Raced', description: 'At the deadline' },
      });
      // A dispute is refused once the deal completed (the timer came first).
      expect([201, 409]).toContain(raised.status);
      await sleep(autoReleaseSeconds * 1000 + 1_000);
      const after = (await listOf(deal.id, creator)).body.milestones[0]!;
      if (raised.status === 201) {
        expect(after).toMatchObject({ status: 'submitted', autoReleaseAt: null });
      } else {
        expect(after.status).toBe('released');
      }
      results.push(after.status);
    }
    expect(results.length).toBe(3);
  });
});

describe('refusals of the milestone calls', () => {
  it('answers 401 without a session, 400 for a bad id or note, 404 for an unknown milestone, 403 to outsiders', async () => {
    const { deal, milestones } = await dealWithPlan(10, [{ title: 'Only', amount: 10 }]);
    const only = milestones[0]!;
    for (const action of ['pay', 'refund', 'submit', 'approve'] as const) {
      const anonymous = await server.post(`/api/milestones/${only.id}/${action}`);
      expect(anonymous.status, action).toBe(401);
      expect(anonymous.body, action).toEqual(signInFirst);
      const badId = await server.post(`/api/milestones/abc/${action}`, { token: creator.token });
      expect(badId.status, action).toBe(400);
      const unknown = await milestoneCall(unknownId, creator, action);
      expect(unknown.status, action).toBe(404);
      expect(unknown.body, action).toEqual({ message: 'Milestone not found.', code: 'NOT_FOUND' });
    }
    expect((await milestoneCall(only.id, outsider, 'pay')).body).toEqual(
      forbidden('Only the dealers of this deal can pay into its escrow.'),
    );
    expect((await milestoneCall(only.id, outsider, 'refund')).body).toEqual(
      forbidden('Only the dealers of this deal can take back an escrow payment.'),
    );
    expect((await milestoneCall(only.id, outsider, 'submit')).body).toEqual(
      forbidden('Only the dealmaker of this deal can submit a milestone for approval.'),
    );
    expect((await milestoneCall(only.id, outsider, 'approve')).body).toEqual(
      forbidden('Only the dealers of this deal can approve a milestone.'),
    );
    await fund(only.id);
    const long = await milestoneCall(only.id, dealmaker, 'submit', { note: 'x'.repeat(1001) });
    expect(long.status).toBe(400);
    expect(long.body).toEqual(badRequest('note', 'Note must be at most 1000 characters'));
    expect((await listOf(deal.id, creator)).body.milestones[0]!.status).toBe('funded');
    // Approving before it is submitted.
    expect((await milestoneCall(only.id, creator, 'approve')).body).toEqual(
      conflict('Only a milestone the dealmaker has submitted can be approved.'),
    );
    await milestoneCall(only.id, dealmaker, 'submit');
    await milestoneCall(only.id, creator, 'approve');
    await milestoneCall(only.id, counterpart, 'approve');
    expect((await milestoneCall(only.id, creator, 'pay')).body).toEqual(
      conflict('This deal is already completed.'),
    );
  });
});
