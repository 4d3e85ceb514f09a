/**
 * Money movements per second under contention: 200 deposits, escrow payments
 * and refunds in flight at once, most of them on a few hot wallets and deals,
 * on the embedded database (PGlite: one connection, transactions one after
 * another) and, when DATABASE_URL is set, on PostgreSQL (a pool, real row
 * locks), measured in the same run and printed with their ratio.
 *
 *   node --import tsx bench/ledger.bench.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/ledger.bench.ts
 *
 * The services are called directly (no HTTP, no auth): what is measured is the
 * money path itself — the transaction, its locks (idempotency key → deal →
 * escrow → wallet), the ledger rows and the idempotency record. Refusals (a
 * half already paid, not enough money) are counted apart: they take the same
 * locks but move nothing. Fixed seed; each round gets fresh deals so every
 * round does the same kind of work. The books are audited at the end.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { loadConfig } from '../server/config';
import { type Database, openDatabase } from '../server/db/client';
import { deals, users } from '../server/db/schema';
import { AppError } from '../server/lib/errors';
import { createServices, type Services } from '../server/services';
import { auditLedger } from '../server/test/ledger-audit';
import { dropDatabase, withAdmin, withDatabase } from '../server/test/test-database';
import { seedMoneyHistory } from './money-history';
import { openTemporaryEmbedded } from './temp-embedded';

const seed = 42;
const userCount = 50;
const hotUsers = 6;
const dealsPerRound = 12;
const operationsPerRound = 200;
const warmupRounds = 1;
const measuredRounds = Number(process.env.BENCH_ROUNDS ?? 5);
const startingFundsCents = 50_000;

/** Small seeded PRNG (mulberry32): the same workload on every run and on both databases. */
function random(seedValue: number) {
  let state = seedValue >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)) };
}

type Operation =
  | { kind: 'deposit'; user: number; cents: number; key?: string }
  | { kind: 'pay' | 'refund'; deal: number; side: 'creator' | 'counterpart'; key?: string };

type RoundPlan = {
  deals: Array<{ creator: number; counterpart: number; dealmaker: number; cents: number }>;
  operations: Operation[];
};

/** Every round's deals and operations, decided up front from the seed. */
function planRounds(rounds: number): RoundPlan[] {
  const rng = random(seed);
  return Array.from({ length: rounds }, (_, round) => {
    const roundDeals = Array.from({ length: dealsPerRound }, (_, i) => {
      const creator = i % hotUsers;
      const counterpart = (creator + 1 + (i % (hotUsers - 1))) % hotUsers;
      return {
        creator,
        counterpart,
        dealmaker: hotUsers + ((round * dealsPerRound + i) % (userCount - hotUsers)),
        cents: rng.int(100, 20_000),
      };
    });
    const operations: Operation[] = Array.from({ length: operationsPerRound }, (_, i) => {
      const key = rng.next() < 0.25 ? `bench-${round}-${i}` : undefined;
      const roll = rng.next();
      if (roll < 0.4) {
        const user = rng.next() < 0.7 ? rng.int(0, hotUsers - 1) : rng.int(0, userCount - 1);
        return { kind: 'deposit', user, cents: rng.int(1, 10_000), key };
      }
      return {
        kind: roll < 0.75 ? 'pay' : 'refund',
        deal: rng.int(0, dealsPerRound - 1),
        side: rng.next() < 0.5 ? 'creator' : 'counterpart',
        key,
      };
    });
    return { deals: roundDeals, operations };
  });
}

type RoundResult = { seconds: number; latenciesMs: number[]; moved: number; refused: number; failed: number };

/** `ownerUrl`: the database's owner, who alone may ANALYZE (the services run as the server's restricted role). */
async function runOn(name: string, database: Database, ownerUrl: string, plans: RoundPlan[]) {
  const log = Fastify({ logger: false }).log;
  const config = loadConfig({
    DATA_DIR: '/nonexistent-bench-data-dir',
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'ledger-bench-secret-0123456789-abcdef',
  });
  const services: Services = await createServices({
    config,
    db: database.db,
    executeSql: database.executeSql,
    mailer: { async send() {} },
    log,
  });
  const db = database.db;
  const suffix = randomBytes(3).toString('hex');
  const userIds = (
    await db
      .insert(users)
      .values(
        Array.from({ length: userCount }, (_, i) => ({
          username: `bench_${suffix}_${i}`,
          email: `bench_${suffix}_${i}@example.test`,
          fullName: `Bench User ${i}`,
          passwordHash: 'not-a-password-hash',
          verifiedAt: new Date(),
        })),
      )
      .returning({ id: users.id })
  ).map((row) => row.id);
  const [historyUser] = await db
    .insert(users)
    .values({
      username: `bench_${suffix}_history`,
      email: `bench_${suffix}_history@example.test`,
      fullName: 'Bench History',
      passwordHash: 'not-a-password-hash',
      verifiedAt: new Date(),
    })
    .returning({ id: users.id });
  // A ledger like an established marketplace's, not a fresh install's (money-history.ts).
  await withAdmin(ownerUrl, (client) =>
    seedMoneyHistory((text, values) => client.query(text, values), historyUser!.id, 20_000),
  );
  for (let i = 0; i < hotUsers; i++) await services.wallet.deposit(userIds[i]!, startingFundsCents);

  const results: RoundResult[] = [];
  for (const plan of plans) {
    const dealRows = await db
      .insert(deals)
      .values(
        plan.deals.map((d, i) => ({
          title: `Bench deal ${i}`,
          description: 'Contended escrow',
          budgetCents: d.cents,
          timeline: 'now',
          creatorId: userIds[d.creator]!,
          counterpartId: userIds[d.counterpart]!,
          dealmakerId: userIds[d.dealmaker]!,
        })),
      )
      .returning({ id: deals.id });
    // As assigning a dealmaker does: the deal's escrow opens with it.
    await db.transaction(async (tx) => {
      for (const [i, row] of dealRows.entries()) await services.escrow.open(tx, row.id, plan.deals[i]!.cents);
    });
    const latenciesMs: number[] = [];
    let moved = 0;
    let refused = 0;
    let failed = 0;
    const run = async (op: Operation) => {
      const idempotency = op.key ? { key: op.key, fingerprint: op.key } : undefined;
      const started = performance.now();
      try {
        if (op.kind === 'deposit') {
          await services.wallet.deposit(userIds[op.user]!, op.cents, idempotency);
        } else {
          const d = plan.deals[op.deal]!;
          const dealId = dealRows[op.deal]!.id;
          const userId = userIds[op.side === 'creator' ? d.creator : d.counterpart]!;
          await (op.kind === 'pay'
            ? services.escrow.pay(dealId, userId, idempotency)
            : services.escrow.refund(dealId, userId, idempotency));
        }
        moved++;
      } catch (error) {
        if (error instanceof AppError && error.statusCode === 409) refused++;
        else {
          failed++;
          console.error(`${name}: ${op.kind} failed:`, error);
        }
      }
      latenciesMs.push(performance.now() - started);
    };
    const started = performance.now();
    await Promise.all(plan.operations.map(run));
    results.push({ seconds: (performance.now() - started) / 1000, latenciesMs, moved, refused, failed });
  }
  const problems = await auditLedger(db);
  await services.close();
  return { results: results.slice(warmupRounds), problems };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

function summarize(results: RoundResult[]) {
  const opsPerSecond = median(results.map((r) => operationsPerRound / r.seconds));
  const latencies = results.flatMap((r) => r.latenciesMs);
  return {
    opsPerSecond,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    moved: results.reduce((sum, r) => sum + r.moved, 0),
    refused: results.reduce((sum, r) => sum + r.refused, 0),
    failed: results.reduce((sum, r) => sum + r.failed, 0),
  };
}

async function main() {
  const plans = planRounds(warmupRounds + measuredRounds);
  const rows: Array<{ name: string; summary: ReturnType<typeof summarize>; problems: string[] }> = [];

  const only = process.env.BENCH_DATABASES?.split(',');
  if (!only || only.includes('embedded')) {
    const embedded = await openTemporaryEmbedded();
    try {
      const { results, problems } = await runOn('embedded', embedded, embedded.url, plans);
      rows.push({ name: 'embedded PostgreSQL', summary: summarize(results), problems });
    } finally {
      await embedded.close();
    }
  }

  const adminUrl = process.env.DATABASE_URL;
  if (adminUrl && (!only || only.includes('postgres'))) {
    const name = `dealmaker_bench_${randomBytes(6).toString('hex')}`;
    await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
    try {
      const ownerUrl = withDatabase(adminUrl, name);
      const postgres = await openDatabase({
        kind: 'postgres',
        url: ownerUrl,
        poolSize: Number(process.env.BENCH_POOL ?? 20),
      });
      try {
        const { results, problems } = await runOn('postgresql', postgres, ownerUrl, plans);
        rows.push({
          name: `PostgreSQL (pool ${process.env.BENCH_POOL ?? 20})`,
          summary: summarize(results),
          problems,
        });
      } finally {
        await postgres.close();
      }
    } finally {
      await dropDatabase(adminUrl, name);
    }
  }

  console.log(
    `Ledger under contention: ${operationsPerRound} concurrent deposits / escrow payments / refunds per round ` +
      `(${userCount} users, ${hotUsers} hot wallets, ${dealsPerRound} deals), median of ${measuredRounds} rounds ` +
      `after ${warmupRounds} warm-up, seed ${seed}; services called directly.`,
  );
  console.log('');
  console.log('database               ops/s    p50 ms   p99 ms   moved  refused  failed  books');
  for (const { name, summary: s, problems } of rows) {
    console.log(
      [
        name.padEnd(20),
        s.opsPerSecond.toFixed(0).padStart(7),
        s.p50.toFixed(1).padStart(9),
        s.p99.toFixed(1).padStart(8),
        String(s.moved).padStart(7),
        String(s.refused).padStart(8),
        String(s.failed).padStart(7),
        problems.length === 0 ? '  balanced' : `  ${problems.length} PROBLEMS`,
      ].join(' '),
    );
    for (const problem of problems) console.log(`    ${problem}`);
  }
  if (rows.length === 2) {
    const ratio = rows[1]!.summary.opsPerSecond / rows[0]!.summary.opsPerSecond;
    console.log('');
    console.log(`ratio PostgreSQL / embedded: ${ratio.toFixed(2)}x`);
  } else {
    console.log('');
    console.log('Set DATABASE_URL to also measure PostgreSQL and print the ratio.');
  }
  if (rows.some((r) => r.problems.length > 0 || r.summary.failed > 0)) process.exitCode = 1;
}

await main();
