import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deal } from '../../../contract/deals';
import type { Dispute } from '../../../contract/disputes';
import type { AuditEntry, LedgerCheck, OperatorDispute } from '../../../contract/operator';
import type { TimelineItem } from '../../../contract/timeline';
import type { Database } from '../../db/client';
import { type TotpApp, turnOnTotp } from '../../test/authenticators';
import { isoTimestamp, signUpMany } from '../../test/deal-fixtures';
import { dealNotFound, onlyParticipants, signInFirst, unknownId } from '../../test/expected-errors';
import { ok, type SignedUpUser, signUp, startTestServer, type TestServer } from '../../test/harness';
import { auditLedger } from '../../test/ledger-audit';
import { balanceOf, dealWithDealmaker, deposit, payHalf } from '../../test/money-fixtures';
import { grantOperator, operatorCommand as runOperatorCommand } from '../../test/operators';
import { createTestDatabase } from '../../test/test-database';
import { sessionStateTtlMs } from '../auth/sessions.service';

let database: Database & { url: string };
let server: TestServer;
let operator: SignedUpUser;
let creator: SignedUpUser;
let counterpart: SignedUpUser;
let dealmaker: SignedUpUser;
/** The operator's authenticator app, turned on in the first test. */
let operatorApp: TotpApp;

/** `npm run operator -- <args>` on the test database, as an operator of the server would run it. */
const operatorCommand = (...args: string[]) => runOperatorCommand(database, ...args);

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startTestServer({ database, keepDatabase: true });
  [operator, creator, counterpart, dealmaker] = await signUpMany(server, 4);
  for (const dealer of [creator, counterpart]) await deposit(server, dealer, 10_000);
});
afterAll(async () => {
  await server?.close();
  await database?.close();
});

const onlyOperators = { message: 'Only operators can do this.', code: 'FORBIDDEN' };
const secondFactorFirst = {
  message:
    'Operators must turn on two-factor sign-in (an authenticator app or a passkey) in My Profile before using the Operator console.',
  code: 'SECOND_FACTOR_REQUIRED',
};
const adminCalls = [
  ['GET', '/api/admin/disputes?escalated=true'],
  ['POST', '/api/admin/disputes/1/settle'],
  ['GET', '/api/admin/deals/1/timeline'],
  ['GET', '/api/admin/ledger/check'],
  ['GET', '/api/admin/audit'],
] as const;

type People = { creator: SignedUpUser; counterpart: SignedUpUser; dealmaker: SignedUpUser };

/** A deal with its escrow locked and a dispute the counterpart raised and (unless told not to) escalated. */
async function disputedDeal(people: People, budget: number, options: { escalate?: boolean } = {}) {
  for (const dealer of [people.creator, people.counterpart]) await deposit(server, dealer, budget);
  const deal = await dealWithDealmaker(server, people, budget);
  await ok(payHalf(server, people.creator, deal.id));
  await ok(payHalf(server, people.counterpart, deal.id));
  const dispute = await ok<Dispute>(
    server.post('/api/disputes', {
      token: people.counterpart.token,
      body: { dealId: deal.id, title: 'Late work', description: 'The report came a month late.' },
    }),
    201,
  );
  if (options.escalate ?? true) {
    await ok(server.post(`/api/disputes/${dispute.id}/escalate`, { token: people.counterpart.token }));
  }
  return { deal, dispute };
}

const settle = (disputeId: number, as: SignedUpUser, toDealmaker: number, resolution = 'Decided.') =>
  server.post(`/api/admin/disputes/${disputeId}/settle`, {
    token: as.token,
    body: { toDealmaker, resolution },
  });

const auditOfDeal = async (deal: Deal) =>
  (
    await ok<{ entries: AuditEntry[] }>(
      server.get(`/api/admin/audit?dealId=${deal.id}&limit=100`, { token: operator.token }),
    )
  ).entries;

const disputeOf = async (deal: Deal, participant: SignedUpUser) =>
  (await ok<Dispute[]>(server.get(`/api/disputes/deal/${deal.id}`, { token: participant.token })))[0]!;

describe('operators', () => {
  it('are refused to everyone else, and made only by the command on the server', async () => {
    for (const [method, path] of adminCalls) {
      const refused = await server.request(method, path, {
        token: operator.token,
        ...(method === 'POST' ? { body: { toDealmaker: 1, resolution: 'x' } } : {}),
      });
      expect(refused.status, path).toBe(403);
      expect(refused.body, path).toEqual(onlyOperators);
      const anonymous = await server.request(method, path);
      expect(anonymous.status, path).toBe(401);
      expect(anonymous.body, path).toEqual(signInFirst);
    }
    // No route changes it: a profile update that names it is ignored.
    await server.post('/api/user-profile', {
      token: operator.token,
      body: { isOperator: true, is_operator: true },
    });
    expect(
      (await ok<{ isOperator: boolean }>(server.get('/api/auth/me', { token: operator.token }))).isOperator,
    ).toBe(false);

    const granted = await operatorCommand('grant', operator.username.toUpperCase());
    expect(granted.stdout.trim()).toBe(
      `${operator.username} is now an operator: the Operator console is at /operator.`,
    );
    expect((await operatorCommand('grant', operator.username)).stdout.trim()).toBe(
      `${operator.username} is already an operator: nothing changed.`,
    );
    expect((await operatorCommand('list')).stdout.trim()).toBe(operator.username);
    await expect(operatorCommand('grant', 'nobody-at-all')).rejects.toMatchObject({
      code: 1,
      stderr: 'No user is called "nobody-at-all".\n',
    });
    await expect(operatorCommand('promote', 'x')).rejects.toMatchObject({ code: 2 });
    await sleep(sessionStateTtlMs + 100);
    expect(
      (await ok<{ isOperator: boolean }>(server.get('/api/auth/me', { token: operator.token }))).isOperator,
    ).toBe(true);
    // An operator's password alone opens nothing: the console needs a second factor turned on first.
    for (const [method, path] of adminCalls) {
      const refused = await server.request(method, path, {
        token: operator.token,
        ...(method === 'POST' ? { body: { toDealmaker: 1, resolution: 'x' } } : {}),
      });
      expect(refused.status, path).toBe(403);
      expect(refused.body, path).toEqual(secondFactorFirst);
    }
    operatorApp = (await turnOnTotp(server, operator)).app;
    const audit = await ok<{ entries: AuditEntry[] }>(
      server.get('/api/admin/audit?limit=5', { token: operator.token }),
    );
    expect(audit.entries.find((entry) => entry.action === 'operator.grant')).toEqual({
      id: expect.any(Number),
      createdAt: isoTimestamp,
      actor: null,
      action: 'operator.grant',
      dealId: null,
      subject: `user:${operator.user.id}`,
      before: { username: operator.username, isOperator: false },
      after: { username: operator.username, isOperator: true, by: 'npm run operator' },
      address: null,
    });
    // Five runs of the command, each a Node process of its own: slow on a busy machine.
  }, 60_000);
});

describe('the disputes queue', () => {
  it('lists escalated disputes with their deal, escrow, participants and timeline, and an operator settles one', async () => {
    const deal = await dealWithDealmaker(server, { creator, counterpart, dealmaker }, 300);
    await ok(payHalf(server, creator, deal.id));
    await ok(payHalf(server, counterpart, deal.id));
    const dispute = await ok<Dispute>(
      server.post('/api/disputes', {
        token: counterpart.token,
        body: { dealId: deal.id, title: 'No show', description: 'The dealmaker vanished.' },
      }),
      201,
    );
    const quiet = await ok<{ disputes: OperatorDispute[] }>(
      server.get('/api/admin/disputes?escalated=true', { token: operator.token }),
    );
    expect(quiet.disputes.map((entry) => entry.dispute.id)).not.toContain(dispute.id);
    await ok(server.post(`/api/disputes/${dispute.id}/escalate`, { token: counterpart.token }));

    const queue = await ok<{ disputes: OperatorDispute[] }>(
      server.get('/api/admin/disputes?escalated=true', { token: operator.token }),
    );
    const entry = queue.disputes.find((listed) => listed.dispute.id === dispute.id)!;
    expect(entry.dispute).toMatchObject({ id: dispute.id, escalated: true, status: 'open' });
    expect(entry.deal).toMatchObject({ id: deal.id, title: deal.title });
    expect(entry.escrow).toMatchObject({ amount: 300, status: 'locked' });
    expect(entry.participants).toEqual({
      creator: creator.username,
      counterpart: counterpart.username,
      dealmaker: dealmaker.username,
    });
    expect(entry.timeline.slice(0, 2).map((item) => (item.type === 'event' ? item.kind : 'message'))).toEqual(
      ['dispute-escalated', 'dispute-raised'],
    );

    const before = await Promise.all(
      [creator, counterpart, dealmaker].map((user) => balanceOf(server, user)),
    );
    for (const body of [{ toDealmaker: 300.01, resolution: 'x' }, { toDealmaker: 10 }, { resolution: 'x' }]) {
      const refused = await server.post(`/api/admin/disputes/${dispute.id}/settle`, {
        token: operator.token,
        body,
      });
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
    const settled = await ok<Dispute>(
      server.post(`/api/admin/disputes/${dispute.id}/settle`, {
        token: operator.token,
        body: { toDealmaker: 100, resolution: 'The dealmaker did a third of the work.' },
      }),
    );
    expect(settled).toMatchObject({
      status: 'resolved',
      resolution: 'The dealmaker did a third of the work.',
      resolvedByUsername: operator.username,
      settlement: {
        toDealmaker: 100,
        refundToCreator: 100,
        refundToCounterpart: 100,
        by: 'operator',
        proposalId: null,
      },
    });
    const after = await Promise.all([creator, counterpart, dealmaker].map((user) => balanceOf(server, user)));
    expect(after.map((balance, index) => balance - before[index]!)).toEqual([100, 100, 100]);
    const again = await server.post(`/api/admin/disputes/${dispute.id}/settle`, {
      token: operator.token,
      body: { toDealmaker: 1, resolution: 'Again' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'This dispute is not open.', code: 'CONFLICT' });
    expect(
      (
        await server.post('/api/admin/disputes/2147483647/settle', {
          token: operator.token,
          body: { toDealmaker: 1, resolution: 'x' },
        })
      ).status,
    ).toBe(404);

    const audit = await ok<{ entries: AuditEntry[] }>(
      server.get(`/api/admin/audit?dealId=${deal.id}&limit=100`, { token: operator.token }),
    );
    const settle = audit.entries.find((item) => item.action === 'operator.settle')!;
    expect(settle).toMatchObject({
      actor: { id: operator.user.id, username: operator.username },
      dealId: deal.id,
      subject: `disputes:${dispute.id}`,
      after: {
        toDealmakerCents: 10_000,
        refundToCreatorCents: 10_000,
        refundToCounterpartCents: 10_000,
        resolution: 'The dealmaker did a third of the work.',
      },
      address: '127.0.0.1',
    });
    // The money moved by the settlement is in the log too, each with the operator as actor.
    const payouts = audit.entries.filter(
      (item) => item.action.startsWith('money.') && item.actor?.id === operator.user.id,
    );
    expect(payouts.map((item) => item.action).sort()).toEqual([
      'money.escrow_refund',
      'money.escrow_refund',
      'money.payment_received',
    ]);
    expect(await auditLedger(server.db)).toEqual([]);
  });

  it('settles once when an operator and the last acceptance race', async () => {
    for (let round = 0; round < 3; round++) {
      const deal = await dealWithDealmaker(server, { creator, counterpart, dealmaker }, 90);
      await ok(payHalf(server, creator, deal.id));
      await ok(payHalf(server, counterpart, deal.id));
      const dispute = await ok<Dispute>(
        server.post('/api/disputes', {
          token: creator.token,
          body: { dealId: deal.id, title: 'Race', description: 'Who settles?' },
        }),
        201,
      );
      await ok(server.post(`/api/disputes/${dispute.id}/escalate`, { token: creator.token }));
      const proposal = await ok<{ id: number }>(
        server.post(`/api/disputes/${dispute.id}/proposals`, {
          token: creator.token,
          body: { toDealmaker: 30 },
        }),
        201,
      );
      await ok(
        server.post(`/api/disputes/${dispute.id}/proposals/${proposal.id}/accept`, {
          token: dealmaker.token,
        }),
      );
      const [agreed, decided] = await Promise.all([
        server.post(`/api/disputes/${dispute.id}/proposals/${proposal.id}/accept`, {
          token: counterpart.token,
        }),
        server.post(`/api/admin/disputes/${dispute.id}/settle`, {
          token: operator.token,
          body: { toDealmaker: 60, resolution: 'Operator decides.' },
        }),
      ]);
      expect([agreed.status, decided.status].sort()).toEqual([200, 409]);
      const [final] = await ok<Dispute[]>(
        server.get(`/api/disputes/deal/${deal.id}`, { token: creator.token }),
      );
      expect(final!.settlement!.by).toBe(decided.status === 200 ? 'operator' : 'agreement');
      expect(await auditLedger(server.db)).toEqual([]);
    }
  });

  it('refuses a dispute whose escrow is not locked', async () => {
    const deal = await dealWithDealmaker(server, { creator, counterpart, dealmaker }, 50);
    const dispute = await ok<Dispute>(
      server.post('/api/disputes', {
        token: creator.token,
        body: { dealId: deal.id, title: 'Early', description: 'Nothing paid yet.' },
      }),
      201,
    );
    await ok(server.post(`/api/disputes/${dispute.id}/escalate`, { token: creator.token }));
    const refused = await server.post(`/api/admin/disputes/${dispute.id}/settle`, {
      token: operator.token,
      body: { toDealmaker: 1, resolution: 'x' },
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      message: 'A settlement splits a locked escrow: both halves must be paid first.',
      code: 'CONFLICT',
    });
  });
  it('asks the operator for a fresh second factor before money moves', async () => {
    const people = { creator, counterpart, dealmaker };
    const { deal, dispute } = await disputedDeal(people, 40);
    await server.db.execute(
      sql`update sessions set factor_at = now() - interval '11 minutes' where user_id = ${operator.user.id}`,
    );
    await sleep(sessionStateTtlMs + 50);
    const refused = await settle(dispute.id, operator, 10);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      message:
        'Please confirm it is you first: enter a code from your authenticator app or use your passkey.',
      code: 'STEP_UP_REQUIRED',
    });
    expect((await disputeOf(deal, creator)).status).toBe('open');
    await ok(
      server.post('/api/auth/step-up', {
        token: operator.token,
        body: { code: await operatorApp.nextCode() },
      }),
    );
    expect((await settle(dispute.id, operator, 10)).status).toBe(200);
    expect((await disputeOf(deal, creator)).status).toBe('resolved');
  });

  it('refuses a dispute not escalated yet: nothing moves, and the attempt is audited', async () => {
    const people = { creator, counterpart, dealmaker };
    const { deal, dispute } = await disputedDeal(people, 90, { escalate: false });
    const before = await Promise.all(
      [creator, counterpart, dealmaker].map((user) => balanceOf(server, user)),
    );

    const refused = await settle(dispute.id, operator, 30);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      message: 'This dispute has not been escalated to the operators yet.',
      code: 'CONFLICT',
    });
    expect(
      await Promise.all([creator, counterpart, dealmaker].map((user) => balanceOf(server, user))),
    ).toEqual(before);
    expect(await disputeOf(deal, creator)).toMatchObject({
      status: 'open',
      escalated: false,
      settlement: null,
    });
    const entries = await auditOfDeal(deal);
    expect(entries.filter((entry) => entry.action === 'operator.settle')).toEqual([]);
    expect(entries.find((entry) => entry.action === 'operator.settle-refused')).toMatchObject({
      actor: { id: operator.user.id, username: operator.username },
      subject: `disputes:${dispute.id}`,
      after: {
        toDealmakerCents: 3_000,
        refusal: 'This dispute has not been escalated to the operators yet.',
      },
    });

    // Once a dealer escalates it, the operator decides.
    await ok(server.post(`/api/disputes/${dispute.id}/escalate`, { token: creator.token }));
    expect(await ok<Dispute>(settle(dispute.id, operator, 30))).toMatchObject({
      status: 'resolved',
      settlement: { toDealmaker: 30, refundToCreator: 30, refundToCounterpart: 30, by: 'operator' },
    });
    expect(await auditLedger(server.db)).toEqual([]);
  });

  it('refuses an operator who takes part in the deal, in any role; another operator settles it', async () => {
    const others = [creator, counterpart, dealmaker];
    for (const role of ['creator', 'counterpart', 'dealmaker'] as const) {
      // The operator takes `role`; the other two roles go to users who are not operators.
      const [first, second] = others;
      const people: People =
        role === 'creator'
          ? { creator: operator, counterpart: first!, dealmaker: second! }
          : role === 'counterpart'
            ? { creator: first!, counterpart: operator, dealmaker: second! }
            : { creator: first!, counterpart: second!, dealmaker: operator };
      const { deal, dispute } = await disputedDeal(people, 120);
      const everyone = [operator, ...others];
      const before = await Promise.all(everyone.map((user) => balanceOf(server, user)));

      // The whole escrow to themselves, or nothing to the others: either way, refused.
      const refused = await settle(dispute.id, operator, role === 'dealmaker' ? 120 : 0, 'Mine.');
      expect(refused.status, role).toBe(403);
      expect(refused.body, role).toEqual({
        message: 'You take part in this deal: another operator must settle it.',
        code: 'FORBIDDEN',
      });
      expect(await Promise.all(everyone.map((user) => balanceOf(server, user))), role).toEqual(before);
      expect(await disputeOf(deal, people.creator), role).toMatchObject({ status: 'open', settlement: null });
      const entries = await auditOfDeal(deal);
      expect(
        entries.filter((entry) => entry.action === 'operator.settle'),
        role,
      ).toEqual([]);
      expect(
        entries.filter((entry) => entry.action === 'operator.settle-refused'),
        role,
      ).toMatchObject([
        {
          actor: { id: operator.user.id },
          subject: `disputes:${dispute.id}`,
          after: { refusal: 'You take part in this deal: another operator must settle it.' },
        },
      ]);
      if (role === 'dealmaker') {
        // An operator with no part in it decides instead.
        const colleague = await grantOperator(server, database, await signUp(server));
        expect(await ok<Dispute>(settle(dispute.id, colleague, 60))).toMatchObject({
          status: 'resolved',
          resolvedByUsername: colleague.username,
          settlement: { toDealmaker: 60, refundToCreator: 30, refundToCounterpart: 30, by: 'operator' },
        });
      }
    }
    expect(await auditLedger(server.db)).toEqual([]);
  }, 60_000);
});

describe("the deal's messages and timeline, as evidence", () => {
  it('are read by operators, read-only, paged as the participants read them, each read audited', async () => {
    const { deal } = await disputedDeal({ creator, counterpart, dealmaker }, 70);
    for (const [user, content] of [
      [creator, 'I paid my half on the first day.'],
      [dealmaker, 'The report is late because the data came late.'],
      [counterpart, 'The data came on time.'],
    ] as const) {
      await ok(
        server.post('/api/messages/send', { token: user.token, body: { dealId: deal.id, content } }),
        201,
      );
    }

    // The queue shows the deal's system entries only: its chat is read through the audited call.
    const queue = await ok<{ disputes: OperatorDispute[] }>(
      server.get('/api/admin/disputes?escalated=true&limit=100', { token: operator.token }),
    );
    const queued = queue.disputes.find((entry) => entry.deal.id === deal.id)!;
    expect(queued.timeline.length).toBeGreaterThan(0);
    expect(queued.timeline.every((item) => item.type === 'event')).toBe(true);

    const timelineOf = (query = '') =>
      ok<{ items: TimelineItem[] }>(
        server.get(`/api/admin/deals/${deal.id}/timeline${query}`, { token: operator.token }),
      );
    const read = await timelineOf();
    // The same list its participants get.
    const own = await ok<{ items: TimelineItem[] }>(
      server.get(`/api/deals/${deal.id}/timeline`, { token: creator.token }),
    );
    expect(read).toEqual(own);
    const line = (item: TimelineItem) =>
      item.type === 'message' ? `${item.senderUsername}: ${item.content}` : item.kind;
    expect(read.items.slice(0, 5).map(line)).toEqual([
      `${counterpart.username}: The data came on time.`,
      `${dealmaker.username}: The report is late because the data came late.`,
      `${creator.username}: I paid my half on the first day.`,
      'dispute-escalated',
      'dispute-raised',
    ]);
    const newest = await timelineOf('?limit=2');
    expect(newest.items).toEqual(read.items.slice(0, 2));
    const older = await timelineOf(`?limit=2&before=${newest.items[1]!.id}`);
    expect(older.items).toEqual(read.items.slice(2, 4));
    const caughtUp = await timelineOf(`?after=${read.items[3]!.id}`);
    expect(caughtUp.items).toEqual(read.items.slice(0, 3).reverse());

    // One entry per read, naming the operator and the deal.
    const reads = (await auditOfDeal(deal)).filter((entry) => entry.action === 'operator.read-deal');
    expect(reads).toHaveLength(4);
    expect(reads[0]).toEqual({
      id: expect.any(Number),
      createdAt: isoTimestamp,
      actor: { id: operator.user.id, username: operator.username },
      action: 'operator.read-deal',
      dealId: deal.id,
      subject: `deals:${deal.id}`,
      before: null,
      after: { limit: 50, before: null, after: read.items[3]!.id, entries: 3, messages: 3 },
      address: '127.0.0.1',
    });

    // Refused: a participant who is no operator, anyone signed out, an unknown deal, bad ids and pages.
    const refusals: Array<[string, SignedUpUser | null, number, unknown]> = [
      [
        `/api/admin/deals/${deal.id}/timeline`,
        creator,
        403,
        { message: 'Only operators can do this.', code: 'FORBIDDEN' },
      ],
      [`/api/admin/deals/${deal.id}/timeline`, null, 401, signInFirst],
      [`/api/admin/deals/${unknownId}/timeline`, operator, 404, dealNotFound],
    ];
    for (const [path, user, status, body] of refusals) {
      const refused = await server.get(path, user ? { token: user.token } : {});
      expect(refused.status, path).toBe(status);
      expect(refused.body, path).toEqual(body);
    }
    for (const path of [
      '/api/admin/deals/abc/timeline',
      '/api/admin/deals/0/timeline',
      '/api/admin/deals/-1/timeline',
      `/api/admin/deals/${deal.id}/timeline?limit=0`,
      `/api/admin/deals/${deal.id}/timeline?before=x`,
      `/api/admin/deals/${deal.id}/timeline?before=9&after=1`,
    ]) {
      const refused = await server.get(path, { token: operator.token });
      expect(refused.status, path).toBe(400);
      expect(refused.body.code, path).toBe('VALIDATION_FAILED');
    }
    // Read-only: the operator cannot write to the chat, nor read it outside the audited call.
    const posted = await server.post('/api/messages/send', {
      token: operator.token,
      body: { dealId: deal.id, content: 'An operator speaking.' },
    });
    expect(posted.status).toBe(403);
    expect(posted.body).toEqual(onlyParticipants);
    expect((await server.get(`/api/messages/deal/${deal.id}`, { token: operator.token })).status).toBe(403);
    expect((await server.get(`/api/deals/${deal.id}/timeline`, { token: operator.token })).status).toBe(403);
    expect(
      (await server.post(`/api/admin/deals/${deal.id}/timeline`, { token: operator.token, body: {} })).status,
    ).toBe(404);
    expect((await timelineOf()).items).toEqual(read.items);
    // No refusal was recorded as a read; the last read was.
    expect((await auditOfDeal(deal)).filter((entry) => entry.action === 'operator.read-deal')).toHaveLength(
      5,
    );
  });
});

describe('the audit log', () => {
  it('records sign-ins, deal changes and money with actor, time, before/after and address', async () => {
    const deal = await dealWithDealmaker(server, { creator, counterpart, dealmaker }, 40);
    await ok(payHalf(server, creator, deal.id));
    // A deposit without an Idempotency-Key is one statement outside a transaction: it names its actor too.
    await deposit(server, creator, 7);
    await server.post('/api/auth/login', {
      body: { username: creator.username, password: 'wrong password!' },
    });
    const entries = (
      await ok<{ entries: AuditEntry[] }>(
        server.get(`/api/admin/audit?username=${creator.username.toUpperCase()}&limit=100`, {
          token: operator.token,
        }),
      )
    ).entries;
    expect(entries.every((entry) => entry.actor?.username === creator.username)).toBe(true);
    const created = entries.find((entry) => entry.action === 'deals.insert' && entry.dealId === deal.id)!;
    expect(created).toMatchObject({
      before: null,
      after: { id: deal.id, title: deal.title },
      address: '127.0.0.1',
    });
    const paid = entries.find((entry) => entry.action === 'money.escrow_lock' && entry.dealId === deal.id)!;
    expect(paid).toMatchObject({ subject: `wallet:${creator.user.id}` });
    expect((paid.after as { balanceCents: number }).balanceCents).toBe(
      (paid.before as { balanceCents: number }).balanceCents - 2_000,
    );
    const balanceCents = (side: unknown) => (side as { balanceCents: number }).balanceCents;
    const deposited = entries.find(
      (entry) =>
        entry.action === 'money.deposit' && balanceCents(entry.after) - balanceCents(entry.before) === 700,
    );
    expect(deposited).toMatchObject({ subject: `wallet:${creator.user.id}`, address: '127.0.0.1' });
    const escrowChange = entries.find(
      (entry) => entry.action === 'escrows.update' && entry.dealId === deal.id,
    )!;
    expect(escrowChange.before).toMatchObject({ creator_paid: false });
    expect(escrowChange.after).toMatchObject({ creator_paid: true });
    expect(entries.some((entry) => entry.action === 'auth.sign-in')).toBe(true);

    const failures = await ok<{ entries: AuditEntry[] }>(
      server.get('/api/admin/audit?limit=100', { token: operator.token }),
    );
    expect(failures.entries.find((entry) => entry.action === 'auth.sign-in-failed')).toMatchObject({
      actor: null,
      subject: `user:${creator.user.id}`,
      after: { username: creator.username },
      address: '127.0.0.1',
    });
  });

  it('pages newest first and filters by deal', async () => {
    const all = (
      await ok<{ entries: AuditEntry[] }>(server.get('/api/admin/audit?limit=10', { token: operator.token }))
    ).entries;
    const ids = all.map((entry) => entry.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const older = (
      await ok<{ entries: AuditEntry[] }>(
        server.get(`/api/admin/audit?limit=3&before=${ids[4]}`, { token: operator.token }),
      )
    ).entries;
    expect(older.map((entry) => entry.id)).toEqual(ids.slice(5, 8));
    for (const query of ['?limit=0', '?before=x', '?dealId=-1', `?username=${'u'.repeat(31)}`]) {
      const refused = await server.get(`/api/admin/audit${query}`, { token: operator.token });
      expect(refused.status, query).toBe(400);
    }
  });

  it('cannot be changed or deleted, even in the database', async () => {
    for (const statement of [
      sql`update audit_log set action = 'nothing happened'`,
      sql`delete from audit_log`,
      sql`truncate audit_log`,
    ]) {
      const refusal = await server.db.execute(statement).then(
        () => 'accepted',
        (error: Error & { cause?: Error }) => (error.cause ?? error).message,
      );
      // The server's own database role may not even try (no UPDATE, DELETE or TRUNCATE privilege on it);
      // a role that may is stopped by the trigger.
      expect(refusal).toMatch(
        /^(the audit log is never changed or deleted \((UPDATE|DELETE|TRUNCATE)\)|permission denied for table audit_log)$/,
      );
    }
  });
});

describe('the ledger check', () => {
  it('passes on sound books and names each broken rule with its rows', async () => {
    const sound = await ok<LedgerCheck>(server.get('/api/admin/ledger/check', { token: operator.token }));
    expect(sound.ok).toBe(true);
    expect(sound.checks.map((check) => check.name)).toEqual([
      'transfer and wallet rows disagree',
      'accounts do not sum to zero',
      'account below zero',
      'wallet differs from its ledger account',
      'balance_after chain broken',
      'last balance_after differs from the wallet',
      'escrow holds the wrong amount',
      'milestones disagree with their escrow or the ledger',
      'half paid twice or refunded unpaid',
      'escrow status disagrees with its halves or its deal',
      'dealmaker not paid exactly once',
      'settlement does not add up',
    ]);
    expect(sound.counts.transfers).toBeGreaterThan(0);

    // Broken on purpose: a wallet that does not match its ledger, and an escrow that claims a half it never got.
    await server.db.execute(
      sql`update wallets set balance_cents = balance_cents + 1 where user_id = ${creator.user.id}`,
    );
    const deal = await dealWithDealmaker(server, { creator, counterpart, dealmaker }, 10);
    await server.db.execute(sql`update escrows set creator_paid = true where deal_id = ${deal.id}`);
    const broken = await ok<LedgerCheck>(server.get('/api/admin/ledger/check', { token: operator.token }));
    expect(broken.ok).toBe(false);
    const failed = Object.fromEntries(
      broken.checks.filter((check) => !check.ok).map((check) => [check.name, check.violations]),
    );
    expect(Object.keys(failed).sort()).toEqual(
      [
        'escrow holds the wrong amount',
        'last balance_after differs from the wallet',
        // The escrow row claims a half its milestone does not have.
        'milestones disagree with their escrow or the ledger',
        'wallet differs from its ledger account',
      ].sort(),
    );
    expect(failed['escrow holds the wrong amount']).toEqual([
      { deal_id: deal.id, status: 'pending', held: '0', expected: '500' },
    ]);
    const audit = await ok<{ entries: AuditEntry[] }>(
      server.get('/api/admin/audit?limit=1', { token: operator.token }),
    );
    expect(audit.entries[0]).toMatchObject({
      action: 'operator.ledger-check',
      after: { ok: false, failed: expect.arrayContaining(['escrow holds the wrong amount']) },
    });
  });
});
