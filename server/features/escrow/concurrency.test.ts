import { count, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escrowMessages, splitEscrow } from '../../../contract/escrow';
import { dollarsToCents, formatCents } from '../../../contract/money';
import { ledgerTransfers } from '../../db/schema';
import { type ApiResponse, type SignedUpUser, startTestServer, type TestServer } from '../../test/harness';
import { auditLedger } from '../../test/ledger-audit';
import { dealWithDealmaker, deposit, signUpMany } from '../../test/money-fixtures';

/**
 * Many users fire hundreds of mixed money calls at once: deposits,
 * withdrawals, payments, refunds, double clicks, both dealers finishing at the
 * same moment and retries with the same Idempotency-Key. Afterwards the books
 * must balance (auditLedger) and every wallet must hold exactly what the
 * successful answers add up to — so no refused call moved any money.
 * The requests really run in parallel on PostgreSQL.
 */

const userCount = 14;
const dealCount = 10;
const waves = 3;
const callsPerWave = 180;

/** A small deterministic generator, so a failing run can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
  };
}

type Kind = 'deposit' | 'withdraw' | 'pay' | 'refund' | 'complete' | 'reused-key' | 'outsider-pay';
type Call = {
  kind: Kind;
  user: number;
  deal?: number;
  amountCents?: number;
  key?: string;
};
type Result = { call: Call; response: ApiResponse };

let server: TestServer;
let users: SignedUpUser[];
/** The deals under test: their people as indexes into `users`, and the escrow amount. */
let deals: Array<{
  id: number;
  creator: number;
  counterpart: number;
  dealmaker: number;
  amountCents: number;
}>;
const initialCents = 30_000;

beforeAll(async () => {
  server = await startTestServer();
  users = await signUpMany(server, userCount);
  await Promise.all(users.map((user) => deposit(server, user, initialCents / 100)));
  const rng = random(7);
  deals = [];
  for (let i = 0; i < dealCount; i++) {
    // Creator, counterpart and dealmaker are three different users; people overlap across deals.
    const creator = i % userCount;
    const counterpart = (i + 1 + (i % 3)) % userCount;
    const dealmaker = (i + 5) % userCount;
    const amountCents = rng.int(1, 40_000);
    const deal = await dealWithDealmaker(
      server,
      { creator: users[creator]!, counterpart: users[counterpart]!, dealmaker: users[dealmaker]! },
      amountCents / 100,
    );
    deals.push({ id: deal.id, creator, counterpart, dealmaker, amountCents });
  }
}, 120_000);

afterAll(() => server.close());

function plan(rng: ReturnType<typeof random>, wave: number): Call[] {
  const calls: Call[] = [];
  const dealerOf = (d: number) => {
    const deal = deals[d]!;
    return rng.next() < 0.5 ? deal.creator : deal.counterpart;
  };
  while (calls.length < callsPerWave) {
    const roll = rng.next();
    const user = rng.int(0, userCount - 1);
    const deal = rng.int(0, dealCount - 1);
    if (roll < 0.2) {
      const call: Call = { kind: 'deposit', user, amountCents: rng.int(1, 20_000) };
      if (rng.next() < 0.4) {
        // A retried deposit: the same key two or three times, all in flight together.
        call.key = `w${wave}-dep-${calls.length}`;
        for (let copies = rng.int(2, 3); copies > 0; copies--) calls.push({ ...call });
      } else calls.push(call);
    } else if (roll < 0.35) {
      const call: Call = { kind: 'withdraw', user, amountCents: rng.int(1, 30_000) };
      if (rng.next() < 0.3) {
        call.key = `w${wave}-wd-${calls.length}`;
        calls.push({ ...call }, { ...call });
      } else calls.push(call);
    } else if (roll < 0.62) {
      const payer = dealerOf(deal);
      const call: Call = { kind: 'pay', user: payer, deal };
      if (rng.next() < 0.3) {
        call.key = `w${wave}-pay-${calls.length}`;
        calls.push({ ...call }, { ...call }, { ...call });
      } else if (rng.next() < 0.5) {
        calls.push(call, { ...call }); // a double click, no key
      } else calls.push(call);
    } else if (roll < 0.75) {
      const call: Call = { kind: 'refund', user: dealerOf(deal), deal };
      if (rng.next() < 0.3) {
        call.key = `w${wave}-ref-${calls.length}`;
        calls.push({ ...call }, { ...call });
      } else calls.push(call);
    } else if (roll < 0.92) {
      // Both dealers finish at the same moment, sometimes twice each.
      const d = deals[deal]!;
      calls.push(
        { kind: 'complete', user: d.creator, deal },
        { kind: 'complete', user: d.counterpart, deal },
      );
      if (rng.next() < 0.3) calls.push({ kind: 'complete', user: d.creator, deal });
    } else if (roll < 0.96) {
      // Not a dealer of the deal: refused.
      calls.push({ kind: 'outsider-pay', user: deals[deal]!.dealmaker, deal });
    } else {
      // The same key for a different body: refused, whatever the first call did.
      const key = `w${wave}-reuse-${calls.length}`;
      calls.push(
        { kind: 'reused-key', user, amountCents: 100, key },
        { kind: 'reused-key', user, amountCents: 200, key },
      );
    }
  }
  // Shuffle so that retries and double clicks interleave with everything else.
  for (let i = calls.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [calls[i], calls[j]] = [calls[j]!, calls[i]!];
  }
  return calls;
}

function send(call: Call): Promise<ApiResponse> {
  const user = users[call.user]!;
  const headers = call.key ? { 'idempotency-key': call.key } : undefined;
  const dealId = call.deal !== undefined ? deals[call.deal]!.id : 0;
  const options = { token: user.token, ...(headers ? { headers } : {}) };
  switch (call.kind) {
    case 'deposit':
    case 'reused-key':
      return server.post('/api/wallet/deposit', { ...options, body: { amount: call.amountCents! / 100 } });
    case 'withdraw':
      return server.post('/api/wallet/withdraw', { ...options, body: { amount: call.amountCents! / 100 } });
    case 'pay':
    case 'outsider-pay':
      return server.post(`/api/wallet/escrow/${dealId}/lock`, options);
    case 'refund':
      return server.post(`/api/wallet/escrow/${dealId}/refund`, options);
    case 'complete':
      return server.put(`/api/progress/deal/${dealId}/complete`, options);
  }
}

describe('hundreds of concurrent money calls', () => {
  const results: Result[] = [];

  it('answers every call with 200 or a clean 409, never a 500', async () => {
    const rng = random(20_261_122);
    for (let wave = 0; wave < waves; wave++) {
      const calls = plan(rng, wave);
      const responses = await Promise.all(calls.map(send));
      calls.forEach((call, i) => {
        results.push({ call, response: responses[i]! });
      });
    }
    expect(results.length).toBeGreaterThanOrEqual(waves * callsPerWave);
    // The deal's dealmaker trying to pay a dealer's half: always 403.
    for (const r of results.filter((r) => r.call.kind === 'outsider-pay')) {
      expect(r.response.status).toBe(403);
    }
    const unexpected = results.filter(
      ({ call, response }) =>
        call.kind !== 'outsider-pay' && response.status !== 200 && response.status !== 409,
    );
    expect(
      unexpected.map((r) => ({ call: r.call, status: r.response.status, body: r.response.body })),
    ).toEqual([]);
    const codes = new Set(results.filter((r) => r.response.status === 409).map((r) => r.response.body.code));
    for (const code of codes)
      expect(['CONFLICT', 'INSUFFICIENT_FUNDS', 'IDEMPOTENCY_KEY_REUSED']).toContain(code);
    // The mix really exercised every path.
    const ok = (kind: Kind) =>
      results.filter((r) => r.call.kind === kind && r.response.status === 200).length;
    for (const kind of ['deposit', 'withdraw', 'pay', 'refund', 'complete'] as const) {
      expect(ok(kind), kind).toBeGreaterThan(0);
    }
    expect(results.some((r) => r.response.body?.message === escrowMessages.released)).toBe(true);
    expect(results.some((r) => r.response.body?.code === 'INSUFFICIENT_FUNDS')).toBe(true);
  }, 240_000);

  it('replays one answer per Idempotency-Key and moves its money at most once', () => {
    const byKey = new Map<string, Result[]>();
    for (const result of results) {
      if (!result.call.key || result.call.kind === 'reused-key') continue;
      const key = `${result.call.user}:${result.call.key}`;
      byKey.set(key, [...(byKey.get(key) ?? []), result]);
    }
    expect(byKey.size).toBeGreaterThan(20);
    for (const [key, group] of byKey) {
      const succeeded = group.filter((r) => r.response.status === 200);
      const fresh = succeeded.filter((r) => r.response.headers.get('idempotent-replayed') !== 'true');
      expect(fresh.length, key).toBeLessThanOrEqual(1);
      // A replay only ever follows a stored success, and repeats it exactly.
      if (succeeded.length > 0) expect(fresh.length, key).toBe(1);
      for (const replay of succeeded) expect(replay.response.body, key).toEqual(fresh[0]!.response.body);
    }
    // A key sent with two different amounts: at most one of them ran, the other was refused.
    const reused = new Map<string, Result[]>();
    for (const result of results.filter((r) => r.call.kind === 'reused-key')) {
      const key = `${result.call.user}:${result.call.key}`;
      reused.set(key, [...(reused.get(key) ?? []), result]);
    }
    for (const [key, group] of reused) {
      expect(group.filter((r) => r.response.status === 200).length, key).toBe(1);
      expect(group.filter((r) => r.response.body.code === 'IDEMPOTENCY_KEY_REUSED').length, key).toBe(1);
    }
  });

  it('leaves every wallet holding exactly what the successful answers add up to', async () => {
    const expected = users.map(() => initialCents);
    let movements = userCount; // the initial deposits
    let fromWorld = initialCents * userCount;
    const releases = new Map<number, number>();
    for (const { call, response } of results) {
      if (response.status !== 200 || response.headers.get('idempotent-replayed') === 'true') continue;
      const deal = call.deal !== undefined ? deals[call.deal]! : undefined;
      const share = () => {
        const split = splitEscrow(deal!.amountCents);
        return call.user === deal!.creator ? split.creatorShareCents : split.counterpartShareCents;
      };
      switch (call.kind) {
        case 'deposit':
        case 'reused-key':
          expected[call.user]! += call.amountCents!;
          fromWorld += call.amountCents!;
          movements++;
          break;
        case 'withdraw':
          expected[call.user]! -= call.amountCents!;
          fromWorld -= call.amountCents!;
          movements++;
          break;
        case 'pay':
          expected[call.user]! -= share();
          if (share() > 0) movements++;
          break;
        case 'refund':
          expected[call.user]! += share();
          if (share() > 0) movements++;
          break;
        case 'complete':
          if (response.body.message === escrowMessages.released) {
            expected[deal!.dealmaker]! += deal!.amountCents;
            releases.set(call.deal!, (releases.get(call.deal!) ?? 0) + 1);
            movements++;
          }
          break;
      }
    }
    // Every answer's wallet is consistent with what it says; the final state is the sum of the successes.
    const actual = await Promise.all(
      users.map(async (user) => {
        const wallet = await server.get('/api/wallet', { token: user.token });
        return dollarsToCents(wallet.body.balance);
      }),
    );
    expect(actual.map((c) => formatCents(c!))).toEqual(expected.map(formatCents));
    const [transfers] = await server.db.select({ n: count() }).from(ledgerTransfers);
    expect(transfers!.n).toBe(movements);
    for (const [deal, times] of releases) expect(times, `deal ${deal}`).toBe(1);
    // Nothing was created or lost: the wallets plus the escrows hold what came in from outside, net.
    const [row] = (
      (await server.db.execute(sql`
        select (select coalesce(sum(balance_cents), 0) from wallets)::text as wallets,
               (select coalesce(sum(case when to_account like 'escrow:%' then amount_cents else -amount_cents end), 0)
                  from ledger_transfers
                 where to_account like 'escrow:%' or from_account like 'escrow:%')::text as escrows
      `)) as unknown as { rows: Array<{ wallets: string; escrows: string }> }
    ).rows;
    expect(Number(row!.wallets) + Number(row!.escrows)).toBe(fromWorld);
  });

  it('keeps every ledger invariant', async () => {
    expect(await auditLedger(server.db)).toEqual([]);
  });
});
