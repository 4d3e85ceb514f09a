import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { escrowMessages } from '../../../contract/escrow';
import { dollarsToCents, formatCents, formatUsdCents } from '../../../contract/money';
import { type ApiResponse, type SignedUpUser, startTestServer, type TestServer } from '../../test/harness';
import { auditLedger } from '../../test/ledger-audit';
import { dealWithDealmaker, signUpMany } from '../../test/money-fixtures';

/**
 * Model-based test: random sequences of deposit / withdraw / pay / refund /
 * complete (some sent twice with the same Idempotency-Key) go through the
 * HTTP API, and after every step the answer and every balance must match a
 * plain in-memory model of the rules.
 */

type Side = 'creator' | 'counterpart';
type DealModel = {
  id: number;
  creator: number;
  counterpart: number;
  dealmaker: number;
  amountCents: number;
  paid: Record<Side, boolean>;
  marked: Record<Side, boolean>;
  status: 'pending' | 'locked' | 'completed';
};
type Model = { balances: number[]; deals: DealModel[] };
type Real = { server: TestServer; users: SignedUpUser[] };
type Expected = { status: number; message?: string; code?: string };

let server: TestServer;
let users: SignedUpUser[];
let keyCounter = 0;

beforeAll(async () => {
  server = await startTestServer();
  users = await signUpMany(server, 4);
});
afterAll(async () => {
  expect(await auditLedger(server.db)).toEqual([]);
  await server.close();
});

async function balances(): Promise<number[]> {
  return Promise.all(
    users.map(async (user) => {
      const wallet = await server.get('/api/wallet', { token: user.token });
      return dollarsToCents(wallet.body.balance)!;
    }),
  );
}

/** Sends the call (twice with one key when `retry`), checks the answer, then every balance. */
async function perform(
  model: Model,
  send: (headers: Record<string, string> | undefined) => Promise<ApiResponse>,
  expected: Expected,
  retry: boolean,
) {
  const headers = retry ? { 'idempotency-key': `model-${process.pid}-${++keyCounter}` } : undefined;
  const response = await send(headers);
  expect({ status: response.status, message: response.body.message, code: response.body.code }).toEqual({
    status: expected.status,
    message: expected.message ?? expect.anything(),
    code: expected.code,
  });
  if (retry) {
    const again = await send(headers);
    if (response.status === 200) {
      // The stored answer comes back and nothing moves a second time.
      expect(again.status).toBe(200);
      expect(again.body).toEqual(response.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
    } else {
      // Refusals are not stored: the retry is judged again, on a state that has not changed.
      expect(again.status).toBe(response.status);
      expect(again.body).toEqual(response.body);
    }
  }
  expect((await balances()).map(formatCents)).toEqual(model.balances.map(formatCents));
}

class Deposit implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly user: number,
    readonly cents: number,
    readonly retry: boolean,
  ) {}
  check = () => true;
  async run(model: Model) {
    model.balances[this.user]! += this.cents;
    await perform(
      model,
      (headers) =>
        server.post('/api/wallet/deposit', {
          token: users[this.user]!.token,
          body: { amount: this.cents / 100 },
          ...(headers ? { headers } : {}),
        }),
      { status: 200, message: `Successfully deposited ${formatUsdCents(this.cents)}` },
      this.retry,
    );
  }
  toString = () => `deposit(u${this.user}, ${formatCents(this.cents)}${this.retry ? ', retried' : ''})`;
}

class Withdraw implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly user: number,
    readonly cents: number,
    readonly retry: boolean,
  ) {}
  check = () => true;
  async run(model: Model) {
    const balance = model.balances[this.user]!;
    let expected: Expected;
    if (balance < this.cents) {
      expected = { status: 409, code: 'INSUFFICIENT_FUNDS' };
    } else {
      model.balances[this.user] = balance - this.cents;
      expected = { status: 200, message: `Successfully withdrew ${formatUsdCents(this.cents)}` };
    }
    await perform(
      model,
      (headers) =>
        server.post('/api/wallet/withdraw', {
          token: users[this.user]!.token,
          body: { amount: this.cents / 100 },
          ...(headers ? { headers } : {}),
        }),
      expected,
      this.retry,
    );
  }
  toString = () => `withdraw(u${this.user}, ${formatCents(this.cents)}${this.retry ? ', retried' : ''})`;
}

/** The creator pays the odd cent. */
const shareOf = (deal: DealModel, side: Side) =>
  side === 'creator' ? Math.ceil(deal.amountCents / 2) : Math.floor(deal.amountCents / 2);
const userOf = (deal: DealModel, side: Side) => (side === 'creator' ? deal.creator : deal.counterpart);
const other = (side: Side): Side => (side === 'creator' ? 'counterpart' : 'creator');

class Pay implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly deal: number,
    readonly side: Side,
    readonly retry: boolean,
  ) {}
  check = () => true;
  async run(model: Model) {
    const deal = model.deals[this.deal]!;
    const user = userOf(deal, this.side);
    const share = shareOf(deal, this.side);
    let expected: Expected;
    if (deal.status === 'completed') {
      expected = { status: 409, message: 'This deal is already completed.', code: 'CONFLICT' };
    } else if (deal.paid[this.side]) {
      expected = { status: 409, message: 'You have already paid your half', code: 'CONFLICT' };
    } else if (model.balances[user]! < share) {
      expected = { status: 409, code: 'INSUFFICIENT_FUNDS' };
    } else {
      model.balances[user]! -= share;
      deal.paid[this.side] = true;
      const locked = deal.paid[other(this.side)];
      if (locked) deal.status = 'locked';
      expected = {
        status: 200,
        message: locked
          ? escrowMessages.locked
          : `Your half (${formatUsdCents(share)}) has been paid successfully. Waiting for the other party.`,
      };
    }
    await perform(
      model,
      (headers) =>
        server.post(`/api/wallet/escrow/${deal.id}/lock`, {
          token: users[user]!.token,
          ...(headers ? { headers } : {}),
        }),
      expected,
      this.retry,
    );
  }
  toString = () => `pay(d${this.deal}, ${this.side}${this.retry ? ', retried' : ''})`;
}

class Refund implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly deal: number,
    readonly side: Side,
    readonly retry: boolean,
  ) {}
  check = () => true;
  async run(model: Model) {
    const deal = model.deals[this.deal]!;
    const user = userOf(deal, this.side);
    let expected: Expected;
    if (deal.status === 'completed') {
      expected = { status: 409, code: 'CONFLICT' };
    } else if (deal.status === 'locked') {
      expected = { status: 409, code: 'CONFLICT' };
    } else if (!deal.paid[this.side]) {
      expected = {
        status: 409,
        message: 'You have not paid your half, so there is nothing to refund.',
        code: 'CONFLICT',
      };
    } else {
      const share = shareOf(deal, this.side);
      model.balances[user]! += share;
      deal.paid[this.side] = false;
      expected = {
        status: 200,
        message: `Your half (${formatUsdCents(share)}) has been refunded to your wallet.`,
      };
    }
    await perform(
      model,
      (headers) =>
        server.post(`/api/wallet/escrow/${deal.id}/refund`, {
          token: users[user]!.token,
          ...(headers ? { headers } : {}),
        }),
      expected,
      this.retry,
    );
  }
  toString = () => `refund(d${this.deal}, ${this.side}${this.retry ? ', retried' : ''})`;
}

class Complete implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly deal: number,
    readonly side: Side,
  ) {}
  check = () => true;
  async run(model: Model) {
    const deal = model.deals[this.deal]!;
    let expected: Expected;
    if (deal.status === 'completed') {
      expected = { status: 200, message: 'This deal is already completed.' };
    } else if (deal.marked[this.side]) {
      expected = {
        status: 200,
        message: 'You have already marked this deal as finished. Waiting for the other party.',
      };
    } else if (deal.status !== 'locked') {
      expected = { status: 409, code: 'CONFLICT' };
    } else {
      deal.marked[this.side] = true;
      if (deal.marked[other(this.side)]) {
        deal.status = 'completed';
        model.balances[deal.dealmaker]! += deal.amountCents;
        expected = { status: 200, message: escrowMessages.released };
      } else {
        expected = {
          status: 200,
          message: 'You marked this deal as finished. Waiting for the other party to mark it too.',
        };
      }
    }
    await perform(
      model,
      () =>
        server.put(`/api/progress/deal/${deal.id}/complete`, {
          token: users[userOf(deal, this.side)]!.token,
        }),
      expected,
      false,
    );
  }
  toString = () => `complete(d${this.deal}, ${this.side})`;
}

const user = fc.integer({ min: 0, max: 3 });
const deal = fc.integer({ min: 0, max: 1 });
const side = fc.constantFrom<Side>('creator', 'counterpart');
const commands = fc.commands(
  [
    fc
      .tuple(user, fc.integer({ min: 1, max: 40_000 }), fc.boolean())
      .map(([u, c, r]) => new Deposit(u, c, r)),
    fc
      .tuple(user, fc.integer({ min: 1, max: 50_000 }), fc.boolean())
      .map(([u, c, r]) => new Withdraw(u, c, r)),
    fc.tuple(deal, side, fc.boolean()).map(([d, s, r]) => new Pay(d, s, r)),
    fc.tuple(deal, side, fc.boolean()).map(([d, s, r]) => new Refund(d, s, r)),
    fc.tuple(deal, side).map(([d, s]) => new Complete(d, s)),
  ],
  { maxCommands: 18 },
);
// Odd and even cents, one-cent budgets included (a zero counterpart share).
const budgets = fc.tuple(
  fc.oneof(fc.integer({ min: 1, max: 60_000 }), fc.constant(1)),
  fc.integer({ min: 1, max: 60_000 }),
);

it('matches a plain model of the wallet and escrow rules', async () => {
  await fc.assert(
    fc.asyncProperty(commands, budgets, async (cmds, [budget0, budget1]) => {
      // Fresh deals each run, between the same four users, whose wallets carry over: the model starts from them.
      // Deal 0: u0 creates, u1 joins, u2 is the dealmaker. Deal 1: u2 creates, u3 joins, u0 is the dealmaker.
      const people = [
        { creator: 0, counterpart: 1, dealmaker: 2, amountCents: budget0 },
        { creator: 2, counterpart: 3, dealmaker: 0, amountCents: budget1 },
      ];
      const deals: DealModel[] = [];
      for (const p of people) {
        const created = await dealWithDealmaker(
          server,
          { creator: users[p.creator]!, counterpart: users[p.counterpart]!, dealmaker: users[p.dealmaker]! },
          p.amountCents / 100,
        );
        deals.push({
          ...p,
          id: created.id,
          paid: { creator: false, counterpart: false },
          marked: { creator: false, counterpart: false },
          status: 'pending',
        });
      }
      const model: Model = { balances: await balances(), deals };
      await fc.asyncModelRun(() => ({ model, real: { server, users } }), cmds);
    }),
    { numRuns: 20 },
  );
  expect(await auditLedger(server.db)).toEqual([]);
}, 240_000);
