import { asc, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, idempotencyKeys, wallets, walletTransactions } from '../../db/schema';
import { signInFirst } from '../../test/expected-errors';
import { type SignedUpUser, signUp, startTestServer, type TestServer } from '../../test/harness';
import { auditLedger } from '../../test/ledger-audit';
import { balanceOf, dealWithDealmaker, deposit, payHalf } from '../../test/money-fixtures';
import { Deposits } from './deposits';

const isoTimestamp = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const validation = (message: string, field = 'amount') => ({
  message,
  code: 'VALIDATION_FAILED',
  fieldErrors: { [field]: [message] },
});
const notANumber = validation('Amount must be a number');
const badDecimals = validation('Amount must be a positive number with at most 2 decimals');
const depositRange = validation('Amount must be between $0.01 and $1,000,000.00');
const keyReused = {
  message: 'This Idempotency-Key was already used for a different request. Use a new key for a new request.',
  code: 'IDEMPOTENCY_KEY_REUSED',
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  expect(await auditLedger(server.db)).toEqual([]);
  await server.close();
});

async function transactionCount(user: SignedUpUser) {
  const [row] = await server.db
    .select({ n: count() })
    .from(walletTransactions)
    .where(eq(walletTransactions.userId, user.user.id));
  return row!.n;
}

/** Balance, totals and history length: what a refused call must leave exactly as it was. */
async function snapshot(user: SignedUpUser) {
  const wallet = await server.get('/api/wallet', { token: user.token });
  return { wallet: wallet.body, transactions: await transactionCount(user) };
}

const depositWith = (user: SignedUpUser, body: unknown, headers?: Record<string, string>) =>
  server.post('/api/wallet/deposit', { token: user.token, body, ...(headers ? { headers } : {}) });
const withdrawWith = (user: SignedUpUser, body: unknown, headers?: Record<string, string>) =>
  server.post('/api/wallet/withdraw', { token: user.token, body, ...(headers ? { headers } : {}) });

describe('GET /api/wallet', () => {
  it('needs a signed-in user', async () => {
    const response = await server.get('/api/wallet');
    expect(response.status).toBe(401);
    expect(response.body).toEqual(signInFirst);
  });

  it('shows zeros for a user who never had a wallet and creates the row once, even when asked at once', async () => {
    const user = await signUp(server);
    expect(await server.db.select().from(wallets).where(eq(wallets.userId, user.user.id))).toEqual([]);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => server.get('/api/wallet', { token: user.token })),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ balance: 0, totalDeposited: 0, totalWithdrawn: 0 });
    }
    expect(await server.db.select().from(wallets).where(eq(wallets.userId, user.user.id))).toHaveLength(1);
  });
});

describe('POST /api/wallet/deposit', () => {
  it('adds the amount and answers with the wallet and the new history row', async () => {
    const user = await signUp(server);
    const response = await depositWith(user, { amount: 10.5 });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      message: 'Successfully deposited $10.50',
      wallet: { balance: 10.5, totalDeposited: 10.5, totalWithdrawn: 0 },
      transaction: {
        id: expect.any(Number),
        type: 'deposit',
        amount: 10.5,
        balanceAfter: 10.5,
        description: 'Deposit of $10.50',
        createdAt: isoTimestamp,
      },
    });
    const second = await depositWith(user, { amount: 0.2 });
    expect(second.body.wallet).toEqual({ balance: 10.7, totalDeposited: 10.7, totalWithdrawn: 0 });
    expect(second.body.transaction.balanceAfter).toBe(10.7);
    expect(await server.get('/api/wallet', { token: user.token })).toMatchObject({
      status: 200,
      body: { balance: 10.7, totalDeposited: 10.7, totalWithdrawn: 0 },
    });
  });

  it('accepts the smallest and the largest deposit exactly', async () => {
    const user = await signUp(server);
    expect((await depositWith(user, { amount: 0.01 })).body.wallet.balance).toBe(0.01);
    expect((await depositWith(user, { amount: 1_000_000 })).body.wallet.balance).toBe(1_000_000.01);
    // Values that are not exact in binary floating point still add up to the cent.
    const user2 = await signUp(server);
    await deposit(server, user2, 0.1);
    await deposit(server, user2, 0.2);
    expect(await balanceOf(server, user2)).toBe(0.3);
  });

  it.each([
    ['zero', 0, depositRange],
    ['a negative amount', -5, badDecimals],
    ['more than 2 decimals', 1.001, badDecimals],
    ['a tiny fraction', 0.001, badDecimals],
    ['more than the maximum', 1_000_000.01, depositRange],
    ['an absurd size', 1e21, badDecimals],
    ['a string in exponent notation', '1e3', badDecimals],
    ['a string with spaces', ' 12', badDecimals],
    ['a string with 3 decimals', '12.345', badDecimals],
    ['a negative string', '-5', badDecimals],
    ['an empty string', '', badDecimals],
    ['the string NaN', 'NaN', badDecimals],
    ['the string 0', '0', depositRange],
    ['an array', [10], notANumber],
    ['null (what NaN and Infinity become in JSON)', null, notANumber],
    ['a boolean', true, notANumber],
  ])('refuses %s with 400 and changes nothing', async (_name, amount, body) => {
    const user = await signUp(server);
    await deposit(server, user, 5);
    const before = await snapshot(user);
    const response = await depositWith(user, { amount });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(body);
    expect(await snapshot(user)).toEqual(before);
  });

  it.each([
    ['10', 10],
    ['10.5', 10.5],
    ['10.50', 10.5],
  ])('takes the amount %j as a decimal string, exactly', async (amount, dollars) => {
    const user = await signUp(server);
    const response = await depositWith(user, { amount });
    expect(response.status).toBe(200);
    expect(response.body.wallet.balance).toBe(dollars);
    expect(response.body.transaction.amount).toBe(dollars);
  });

  it('refuses a missing amount, a missing body, an overflowing number and bad JSON', async () => {
    const user = await signUp(server);
    const before = await snapshot(user);
    expect(await depositWith(user, {})).toMatchObject({ status: 400, body: notANumber });
    expect(
      await server.post('/api/wallet/deposit', {
        token: user.token,
        headers: { 'content-type': 'application/json' },
      }),
    ).toMatchObject({
      status: 400,
      body: { message: 'Request body is missing.', code: 'VALIDATION_FAILED' },
    });
    const huge = await server.post('/api/wallet/deposit', {
      token: user.token,
      rawBody: '{"amount": 1e400}',
      headers: { 'content-type': 'application/json' },
    });
    expect(huge).toMatchObject({ status: 400, body: notANumber });
    const broken = await server.post('/api/wallet/deposit', {
      token: user.token,
      rawBody: '{"amount": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken).toMatchObject({ status: 400, body: { code: 'INVALID_JSON' } });
    expect(await snapshot(user)).toEqual(before);
  });

  it('needs a signed-in user', async () => {
    const response = await server.post('/api/wallet/deposit', { body: { amount: 5 } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(signInFirst);
  });
});

describe('Concurrent deposits into one wallet', () => {
  /** The wallet's history, oldest first: what each row added and the balance it left. */
  const history = (user: SignedUpUser) =>
    server.db
      .select()
      .from(walletTransactions)
      .where(eq(walletTransactions.userId, user.user.id))
      .orderBy(asc(walletTransactions.id));

  it('answers each with its own history row and the balance right after it, and loses none', async () => {
    const user = await signUp(server);
    await deposit(server, user, 1);
    const amounts = Array.from({ length: 40 }, (_, i) => i + 1);
    const responses = await Promise.all(amounts.map((amount) => depositWith(user, { amount })));
    expect(responses.map((response) => response.status)).toEqual(amounts.map(() => 200));

    const rows = await history(user);
    expect(rows).toHaveLength(41);
    // Each row's balance is the one before it plus its own amount: the history reads as one sequence.
    for (const [i, row] of rows.entries()) {
      expect(row.balanceAfterCents).toBe((rows[i - 1]?.balanceAfterCents ?? 0) + row.amountCents);
    }
    expect(rows.at(-1)!.balanceAfterCents).toBe(100 + 820 * 100);
    for (const [i, response] of responses.entries()) {
      const row = rows.find((candidate) => candidate.id === response.body.transaction.id)!;
      expect(row.amountCents).toBe(amounts[i]! * 100);
      expect(response.body).toEqual({
        message: `Successfully deposited $${amounts[i]}.00`,
        wallet: {
          balance: row.balanceAfterCents / 100,
          totalDeposited: row.balanceAfterCents / 100,
          totalWithdrawn: 0,
        },
        transaction: {
          id: row.id,
          type: 'deposit',
          amount: amounts[i],
          balanceAfter: row.balanceAfterCents / 100,
          description: `Deposit of $${amounts[i]}.00`,
          createdAt: row.createdAt.toISOString(),
        },
      });
    }
    expect((await server.get('/api/wallet', { token: user.token })).body).toEqual({
      balance: 821,
      totalDeposited: 821,
      totalWithdrawn: 0,
    });
    // The audit log names the depositor of every one.
    const audited = await server.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subject, `wallet:${user.user.id}`));
    expect(audited).toHaveLength(41);
    expect(new Set(audited.map((entry) => `${entry.action} ${entry.actorUsername}`))).toEqual(
      new Set([`money.deposit ${user.user.username}`]),
    );
  });

  it('writes the deposits that wait for the wallet together, in their order, after the one in flight', async () => {
    const user = await signUp(server);
    const deposits = new Deposits(server.db);
    const moved = await Promise.all(
      [100, 200, 300, 400].map((amountCents) =>
        deposits.add(user.user.id, { amountCents, description: `Deposit of ${amountCents} cents` }),
      ),
    );
    expect(moved.map(({ wallet }) => wallet.balanceCents)).toEqual([100, 300, 600, 1000]);
    expect(moved.map(({ wallet }) => wallet.totalDepositedCents)).toEqual([100, 300, 600, 1000]);
    const rows = await history(user);
    expect(rows.map((row) => [row.id, row.amountCents, row.balanceAfterCents, row.description])).toEqual(
      moved.map(({ transaction }) => [
        transaction.id,
        transaction.amountCents,
        transaction.balanceAfterCents,
        `Deposit of ${transaction.amountCents} cents`,
      ]),
    );
    // The first went alone; the three that arrived meanwhile went in one statement (one transaction time).
    expect(rows.map((row) => row.createdAt.getTime())).toEqual([
      rows[0]!.createdAt.getTime(),
      rows[1]!.createdAt.getTime(),
      rows[1]!.createdAt.getTime(),
      rows[1]!.createdAt.getTime(),
    ]);
    expect(rows[0]!.createdAt.getTime()).not.toBe(rows[1]!.createdAt.getTime());
  });

  it('fails only the deposits of a statement that fails, and the wallet serves the next ones', async () => {
    const user = await signUp(server);
    const deposits = new Deposits(server.db);
    const results = await Promise.allSettled([
      deposits.add(user.user.id, { amountCents: 100, description: 'first' }),
      deposits.add(user.user.id, { amountCents: 200, description: 'second' }),
      deposits.add(user.user.id, { amountCents: -5, description: 'not an amount' }),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    const next = await deposits.add(user.user.id, { amountCents: 50, description: 'after' });
    expect(next.wallet.balanceCents).toBe(150);
    expect((await history(user)).map((row) => row.description)).toEqual(['first', 'after']);
  });
});

describe('POST /api/wallet/withdraw', () => {
  it('takes money out up to the balance and counts it in totalWithdrawn', async () => {
    const user = await signUp(server);
    await deposit(server, user, 100);
    const response = await withdrawWith(user, { amount: 40.25 });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      message: 'Successfully withdrew $40.25',
      wallet: { balance: 59.75, totalDeposited: 100, totalWithdrawn: 40.25 },
      transaction: {
        id: expect.any(Number),
        type: 'withdraw',
        amount: 40.25,
        balanceAfter: 59.75,
        description: 'Withdrawal of $40.25',
        createdAt: isoTimestamp,
      },
    });
    const all = await withdrawWith(user, { amount: 59.75 });
    expect(all.status).toBe(200);
    expect(all.body.wallet).toEqual({ balance: 0, totalDeposited: 100, totalWithdrawn: 100 });
  });

  it('refuses more than the balance with 409 INSUFFICIENT_FUNDS and changes nothing', async () => {
    const user = await signUp(server);
    await deposit(server, user, 12.34);
    const before = await snapshot(user);
    const response = await withdrawWith(user, { amount: 12.35 });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({
      message: 'Insufficient balance: you asked to withdraw $12.35, your balance is $12.34.',
      code: 'INSUFFICIENT_FUNDS',
    });
    expect(await snapshot(user)).toEqual(before);

    const empty = await signUp(server);
    expect(await withdrawWith(empty, { amount: 0.01 })).toMatchObject({
      status: 409,
      body: {
        message: 'Insufficient balance: you asked to withdraw $0.01, your balance is $0.00.',
        code: 'INSUFFICIENT_FUNDS',
      },
    });
  });

  it.each([
    ['zero', 0, validation('Amount must be between $0.01 and $1,000,000,000.00')],
    ['a negative amount', -1, badDecimals],
    ['more than 2 decimals', 5.555, badDecimals],
    ['a string with 3 decimals', '5.555', badDecimals],
    ['a string in exponent notation', '5e0', badDecimals],
    ['a boolean', true, notANumber],
  ])('refuses %s with 400', async (_name, amount, body) => {
    const user = await signUp(server);
    await deposit(server, user, 10);
    const before = await snapshot(user);
    const response = await withdrawWith(user, { amount });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(body);
    expect(await snapshot(user)).toEqual(before);
  });

  it('takes the amount as a decimal string, exactly', async () => {
    const user = await signUp(server);
    await deposit(server, user, 10);
    const response = await withdrawWith(user, { amount: '2.5' });
    expect(response.status).toBe(200);
    expect(response.body.wallet.balance).toBe(7.5);
  });

  it('never lets concurrent withdrawals overdraw the wallet', async () => {
    const user = await signUp(server);
    await deposit(server, user, 100);
    const answers = await Promise.all(Array.from({ length: 10 }, () => withdrawWith(user, { amount: 30 })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(7);
    expect(answers.every((a) => a.status === 200 || a.body.code === 'INSUFFICIENT_FUNDS')).toBe(true);
    expect(await balanceOf(server, user)).toBe(10);
  });
});

describe('GET /api/wallet/transactions', () => {
  it('lists the own history newest first, with unsigned amounts and the balance after each row', async () => {
    const user = await signUp(server);
    const other = await signUp(server);
    await deposit(server, other, 1);
    await deposit(server, user, 50);
    await withdrawWith(user, { amount: 20 });
    await deposit(server, user, 5.55);
    const response = await server.get('/api/wallet/transactions', { token: user.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      {
        id: expect.any(Number),
        type: 'deposit',
        amount: 5.55,
        balanceAfter: 35.55,
        description: 'Deposit of $5.55',
        createdAt: isoTimestamp,
      },
      {
        id: expect.any(Number),
        type: 'withdraw',
        amount: 20,
        balanceAfter: 30,
        description: 'Withdrawal of $20.00',
        createdAt: isoTimestamp,
      },
      {
        id: expect.any(Number),
        type: 'deposit',
        amount: 50,
        balanceAfter: 50,
        description: 'Deposit of $50.00',
        createdAt: isoTimestamp,
      },
    ]);
    const ids = response.body.map((t: { id: number }) => t.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });

  it('pages with limit and before', async () => {
    const user = await signUp(server);
    for (let i = 1; i <= 5; i++) await deposit(server, user, i);
    const first = await server.get('/api/wallet/transactions?limit=2', { token: user.token });
    expect(first.body.map((t: { amount: number }) => t.amount)).toEqual([5, 4]);
    const second = await server.get(`/api/wallet/transactions?limit=2&before=${first.body[1].id}`, {
      token: user.token,
    });
    expect(second.body.map((t: { amount: number }) => t.amount)).toEqual([3, 2]);
    const last = await server.get(`/api/wallet/transactions?limit=2&before=${second.body[1].id}`, {
      token: user.token,
    });
    expect(last.body.map((t: { amount: number }) => t.amount)).toEqual([1]);
  });

  it('answers an empty list for a new user and refuses bad paging with 400', async () => {
    const user = await signUp(server);
    expect(await server.get('/api/wallet/transactions', { token: user.token })).toMatchObject({
      status: 200,
      body: [],
    });
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'before=-1', 'before=0']) {
      const response = await server.get(`/api/wallet/transactions?${query}`, { token: user.token });
      expect(response.status, query).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
    expect((await server.get('/api/wallet/transactions')).status).toBe(401);
  });

  it('defaults to 50 rows and allows up to 100', async () => {
    const user = await signUp(server);
    await Promise.all(Array.from({ length: 60 }, () => deposit(server, user, 1)));
    expect((await server.get('/api/wallet/transactions', { token: user.token })).body).toHaveLength(50);
    expect((await server.get('/api/wallet/transactions?limit=100', { token: user.token })).body).toHaveLength(
      60,
    );
  });
});

describe('GET /api/wallet/transactions?type=', () => {
  it('keeps one type, pages within it, and refuses an unknown type with 400', async () => {
    const user = await signUp(server);
    await deposit(server, user, 30);
    await withdrawWith(user, { amount: 5 });
    await deposit(server, user, 20);
    await deposit(server, user, 10);
    const deposits = await server.get('/api/wallet/transactions?type=deposit', { token: user.token });
    expect(deposits.status).toBe(200);
    expect(deposits.body.map((t: { type: string; amount: number }) => [t.type, t.amount])).toEqual([
      ['deposit', 10],
      ['deposit', 20],
      ['deposit', 30],
    ]);
    const page = await server.get(
      `/api/wallet/transactions?type=deposit&limit=1&before=${deposits.body[0].id}`,
      {
        token: user.token,
      },
    );
    expect(page.body.map((t: { amount: number }) => t.amount)).toEqual([20]);
    const withdrawals = await server.get('/api/wallet/transactions?type=withdraw', { token: user.token });
    expect(withdrawals.body).toMatchObject([{ type: 'withdraw', amount: 5, balanceAfter: 25 }]);
    expect(
      (await server.get('/api/wallet/transactions?type=escrow_lock', { token: user.token })).body,
    ).toEqual([]);
    const unknown = await server.get('/api/wallet/transactions?type=gift', { token: user.token });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('VALIDATION_FAILED');
  });
});

describe('GET /api/wallet/transactions.csv', () => {
  it('downloads the whole own history newest first, with signed amounts, balances before and after and the deal', async () => {
    const [creator, counterpart, dealmaker, other] = await Promise.all([
      signUp(server),
      signUp(server),
      signUp(server),
      signUp(server),
    ]);
    const deal = await dealWithDealmaker(server, { creator, counterpart, dealmaker }, 2500.02);
    await deposit(server, other, 7);
    await deposit(server, creator, 25000);
    expect((await payHalf(server, creator, deal.id)).status).toBe(200);
    await withdrawWith(creator, { amount: 0.5 });
    const history = (await server.get('/api/wallet/transactions', { token: creator.token })).body;

    const response = await server.get('/api/wallet/transactions.csv', { token: creator.token });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="dealmaker-transactions-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const ref = (id: number) => `TX-${String(id).padStart(6, '0')}`;
    expect(response.body.split('\r\n')).toEqual([
      'reference,date,type,description,amount,balance_before,balance_after,deal_id',
      `${ref(history[0].id)},${history[0].createdAt},withdraw,Withdrawal of $0.50,-0.50,23749.99,23749.49,`,
      `${ref(history[1].id)},${history[1].createdAt},escrow_lock,"Escrow payment for ""${deal.title}""",-1250.01,25000.00,23749.99,${deal.id}`,
      `${ref(history[2].id)},${history[2].createdAt},deposit,"Deposit of $25,000.00",25000.00,0.00,25000.00,`,
      '',
    ]);
  });

  it('exports one type, neutralises text a spreadsheet would run, and needs a signed-in user', async () => {
    const [creator, counterpart, dealmaker] = await Promise.all([
      signUp(server),
      signUp(server),
      signUp(server),
    ]);
    const deal = await dealWithDealmaker(server, { creator, counterpart, dealmaker }, 10);
    await deposit(server, creator, 20);
    await payHalf(server, creator, deal.id);
    const locks = await server.get('/api/wallet/transactions.csv?type=escrow_lock', { token: creator.token });
    expect(locks.status).toBe(200);
    expect(locks.headers.get('content-disposition')).toMatch(/dealmaker-transactions-escrow_lock-/);
    const lines = locks.body.trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(',escrow_lock,');

    await server.db
      .update(walletTransactions)
      .set({ description: '=HYPERLINK("http://evil.test")' })
      .where(eq(walletTransactions.userId, creator.user.id));
    const all = await server.get('/api/wallet/transactions.csv', { token: creator.token });
    expect(all.body).toContain(',"\'=HYPERLINK(""http://evil.test"")",');
    expect(all.body).not.toMatch(/,=HYPERLINK/);

    expect((await server.get('/api/wallet/transactions.csv')).status).toBe(401);
    expect(
      (await server.get('/api/wallet/transactions.csv?type=gift', { token: creator.token })).status,
    ).toBe(400);
  });

  it('is a header line alone for a new user', async () => {
    const user = await signUp(server);
    const response = await server.get('/api/wallet/transactions.csv', { token: user.token });
    expect(response.body).toBe(
      'reference,date,type,description,amount,balance_before,balance_after,deal_id\r\n',
    );
  });
});

describe('Idempotency-Key on deposit and withdraw', () => {
  it('replays the first answer for a retry and moves the money once', async () => {
    const user = await signUp(server);
    const first = await depositWith(user, { amount: 25 }, { 'idempotency-key': 'deposit-1' });
    const retry = await depositWith(user, { amount: 25 }, { 'idempotency-key': 'deposit-1' });
    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await snapshot(user)).toEqual({
      wallet: { balance: 25, totalDeposited: 25, totalWithdrawn: 0 },
      transactions: 1,
    });
  });

  it('moves the money once when the same key arrives many times at once', async () => {
    const user = await signUp(server);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => depositWith(user, { amount: 7.77 }, { 'idempotency-key': 'burst' })),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(answers[0]!.body);
    }
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(11);
    expect(await balanceOf(server, user)).toBe(7.77);
    expect(await transactionCount(user)).toBe(1);
  });

  it('refuses the same key for a different amount or another call with 409 IDEMPOTENCY_KEY_REUSED', async () => {
    const user = await signUp(server);
    await depositWith(user, { amount: 30 }, { 'idempotency-key': 'k' });
    const before = await snapshot(user);
    const otherAmount = await depositWith(user, { amount: 31 }, { 'idempotency-key': 'k' });
    expect(otherAmount.status).toBe(409);
    expect(otherAmount.body).toEqual(keyReused);
    const otherCall = await withdrawWith(user, { amount: 30 }, { 'idempotency-key': 'k' });
    expect(otherCall.status).toBe(409);
    expect(otherCall.body).toEqual(keyReused);
    expect(await snapshot(user)).toEqual(before);
  });

  it('keeps keys per user', async () => {
    const [a, b] = [await signUp(server), await signUp(server)];
    await depositWith(a, { amount: 1 }, { 'idempotency-key': 'shared' });
    const answer = await depositWith(b, { amount: 2 }, { 'idempotency-key': 'shared' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('idempotent-replayed')).toBeNull();
    expect(await balanceOf(server, a)).toBe(1);
    expect(await balanceOf(server, b)).toBe(2);
  });

  it('stores no refused attempt: a retry after fixing the cause runs', async () => {
    const user = await signUp(server);
    const refused = await withdrawWith(user, { amount: 10 }, { 'idempotency-key': 'payout' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('INSUFFICIENT_FUNDS');
    expect(
      await server.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.userId, user.user.id)),
    ).toEqual([]);
    await deposit(server, user, 10);
    const retried = await withdrawWith(user, { amount: 10 }, { 'idempotency-key': 'payout' });
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    const again = await withdrawWith(user, { amount: 10 }, { 'idempotency-key': 'payout' });
    expect(again.body).toEqual(retried.body);
    expect(await balanceOf(server, user)).toBe(0);
  });

  it('accepts keys up to 200 characters and refuses longer or empty ones with 400', async () => {
    const user = await signUp(server);
    expect((await depositWith(user, { amount: 1 }, { 'idempotency-key': 'k'.repeat(200) })).status).toBe(200);
    const tooLong = await depositWith(user, { amount: 1 }, { 'idempotency-key': 'k'.repeat(201) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual(
      validation('Idempotency-Key must be at most 200 characters', 'idempotency-key'),
    );
    const empty = await depositWith(user, { amount: 1 }, { 'idempotency-key': '' });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual(validation('Idempotency-Key must not be empty', 'idempotency-key'));
    expect(await balanceOf(server, user)).toBe(1);
  });
});
