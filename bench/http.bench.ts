/**
 * The hot HTTP calls against the built server (`dist/server.mjs`, run as `npm start` runs it), each
 * next to a bare Fastify route in its own process measured in the same round, so every figure is
 * also a ratio that survives a noisy machine.
 *
 *   node --import tsx bench/http.bench.ts            embedded PostgreSQL only
 *   DATABASE_URL=postgres://… node --import tsx bench/http.bench.ts   also on that PostgreSQL
 *
 * Method: autocannon, 20 connections; per call a discarded warm-up, then three rounds of
 * (bare, ours), each after the server is idle again; min/median/max. Data: 100,000 deals (1% of the
 * titles hold "zephyr"), 200 messages on the bench user's deal. After the deposit runs, the wallet
 * must hold exactly the acknowledged deposits (no lost update). Peak RSS is the kernel's VmHWM of
 * the server process after the deals-list load, plus the embedded PostgreSQL's processes.
 *
 * Writes the table to bench/results/<date>-http.md (BENCH_NO_SAVE=1 to skip). BENCH_CALLS=wallet,zephyr
 * runs only the calls whose name contains one of the words; BENCH_DATABASES=postgres (or embedded) only
 * that database; BENCH_PROFILE_DIR=<dir> runs the server under `node --cpu-prof` and leaves its profile
 * there (one per database).
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import pg from 'pg';
import { runningClusterUrl } from '../server/db/embedded-postgres';
import { dropDatabase, withAdmin, withDatabase } from '../server/test/test-database';
import { seedMoneyHistory } from './money-history';
import { root, start, startBuiltServer, stop, waitIdle } from './processes';

const connections = 20;
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = 3;
const dealCount = Number(process.env.BENCH_DEALS ?? 100_000);
const messageCount = 200;
const serverPort = 3461;
const barePort = 3499;
const password = 'bench-password-1';

type Call = {
  name: string;
  path: string;
  method?: 'GET' | 'POST';
  body?: unknown;
  /** The target, as a share of bare Fastify, per database. */
  target: { postgres: number; embedded: number };
  /** Figures before this work (req/s), PostgreSQL / embedded PGlite. */
  before: string;
};

const calls = (dealId: number): Call[] => [
  {
    name: 'GET /api/wallet',
    path: '/api/wallet',
    target: { postgres: 0.25, embedded: 0 },
    before: '1,007 / 400 (5%)',
  },
  {
    name: 'GET /api/deals/all (first page)',
    path: '/api/deals/all',
    target: { postgres: 0.2, embedded: 0.1 },
    before: '244–300 / 116–124 (1.5%, 10k deals)',
  },
  {
    name: 'GET /api/deals/all/zephyr',
    path: '/api/deals/all/zephyr',
    target: { postgres: 0.1, embedded: 0.05 },
    before: '53–56 / 18–19 (0.3%, 10k deals)',
  },
  {
    name: 'GET /api/deals/{id} (its creator, on the deal page)',
    path: `/api/deals/${dealId}`,
    target: { postgres: 0, embedded: 0 },
    before: '—',
  },
  {
    name: `GET /api/messages/deal/{id} (${messageCount} messages)`,
    path: `/api/messages/deal/${dealId}`,
    target: { postgres: 0, embedded: 0 },
    before: '589 / 182 (3%)',
  },
  {
    name: 'POST /api/messages/send',
    path: '/api/messages/send',
    method: 'POST',
    body: { dealId, content: 'Bench message: the numbers look right.' },
    target: { postgres: 0.1, embedded: 0 },
    before: '381–529 / 164–189 (2.5%)',
  },
  {
    name: 'POST /api/wallet/deposit',
    path: '/api/wallet/deposit',
    method: 'POST',
    body: { amount: 1 },
    target: { postgres: 0.1, embedded: 0 },
    before: '188 / 157 (1%)',
  },
];

type Run = { rps: number; p99: number; ok: number; errors: number };

function autocannon(
  url: string,
  call: Pick<Call, 'method' | 'body'>,
  token: string | null,
  duration: number,
): Run {
  const args = [
    path.join(root, 'node_modules', 'autocannon', 'autocannon.js'),
    '-j',
    '-c',
    String(connections),
  ];
  args.push('-d', String(duration));
  if (token) args.push('-H', `authorization=Bearer ${token}`);
  if (call.method === 'POST') {
    args.push('-m', 'POST', '-H', 'content-type=application/json', '-b', JSON.stringify(call.body));
  }
  args.push(url);
  const out = execFileSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  const result = JSON.parse(out) as {
    requests: { average: number };
    latency: { p99: number };
    '2xx': number;
    non2xx: number;
    errors: number;
  };
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    ok: result['2xx'],
    errors: result.non2xx + result.errors,
  };
}

function statusKb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.split(/\s+/)[1] ?? 0);
}

/** The RSS of each process of the embedded cluster (its postmaster and everything under it). */
function clusterRssMiB(dataDir: string): number[] {
  const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return [];
  const postmaster = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' })
    .split('\n')
    .map((s) => Number(s.trim()))
    .filter(Boolean);
  return [postmaster, ...children].map((pid) => statusKb(pid, 'VmRSS') / 1024);
}

/** The bench user, their deal with its messages, and the deals, straight into the database. */
async function seed(url: string): Promise<{ dealId: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Seeding is not a state change anyone did: the audit triggers stay out of it.
    await client.query(`SET session_replication_role = replica`);
    const passwordHash = await hash(password);
    const user = await client.query<{ id: number }>(
      `insert into users (username, email, full_name, password_hash, verified_at)
       values ('bencher', 'bencher@example.test', 'Bench User', $1, now()) returning id`,
      [passwordHash],
    );
    const userId = user.rows[0]!.id;
    await client.query(`insert into wallets (user_id) values ($1) on conflict do nothing`, [userId]);
    await client.query(
      `insert into deals (title, description, budget_cents, timeline, creator_id)
       select case when g % 100 = 0 then 'Acquire the zephyr fleet ' || g
                   else (array['Freight','Packaging','Warehouse','Courier','Bakery','Software'])[1 + g % 6] || ' deal ' || g end,
              'Deal ' || g || ' about logistics, supply and finance for a regional buyer with a long history',
              100000 + g, '4 weeks', $1
         from generate_series(1, $2::int) g`,
      [userId, dealCount],
    );
    const deal = await client.query<{ id: number }>(`select max(id) as id from deals`);
    const dealId = deal.rows[0]!.id;
    // The chat's deal has its three participants, as every deal people talk on does: a message
    // notifies the other two.
    const others = await client.query<{ id: number }>(
      `insert into users (username, email, full_name, password_hash, verified_at)
       values ('bench_counterpart', 'bench_counterpart@example.test', 'Bench Counterpart', $1, now()),
              ('bench_dealmaker', 'bench_dealmaker@example.test', 'Bench Dealmaker', $1, now())
       returning id`,
      [passwordHash],
    );
    await client.query(`update deals set counterpart_id = $2, dealmaker_id = $3 where id = $1`, [
      dealId,
      others.rows[0]!.id,
      others.rows[1]!.id,
    ]);
    await client.query(
      `insert into escrows (deal_id, amount_cents, creator_share_cents, counterpart_share_cents)
       select id, budget_cents, budget_cents - budget_cents / 2, budget_cents / 2 from deals where id = $1`,
      [dealId],
    );
    await client.query(
      `insert into messages (deal_id, sender_id, content)
       select $1, $2, 'Message ' || g || ' about the deal' from generate_series(1, $3::int) g`,
      [dealId, userId, messageCount],
    );
    // A money history like an established marketplace's (money-history.ts), on a user the bench leaves alone.
    await seedMoneyHistory((text, values) => client.query(text, values), others.rows[1]!.id, 20_000);
    await client.query(`SET session_replication_role = origin`);
    await client.query(`vacuum analyze`);
    return { dealId };
  } finally {
    await client.end();
  }
}

async function login(base: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bencher', password }),
  });
  if (!response.ok) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/** Stores our answer to a GET call in the bare server; answers the bare URL that serves it. */
async function storeSameBody(url: string, token: string, name: string) {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  const key = encodeURIComponent(name.replace(/[^a-z0-9]+/gi, '-'));
  const stored = await fetch(`http://127.0.0.1:${barePort}/same-body/${key}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: text,
  });
  if (!stored.ok) throw new Error(`storing the body of ${name} failed: ${stored.status}`);
  return { url: `http://127.0.0.1:${barePort}/same-body/${key}`, bytes: Buffer.byteLength(text) };
}

async function balanceOf(base: string, token: string): Promise<number> {
  const response = await fetch(`${base}/api/wallet`, { headers: { authorization: `Bearer ${token}` } });
  return ((await response.json()) as { balance: number }).balance;
}

type Row = {
  call: Call;
  database: 'postgres' | 'embedded';
  ours: number[];
  bare: number[];
  /** Bare Fastify answering the very body of this call (GET calls), in the same rounds. */
  sameBody: number[];
  bodyBytes: number;
  p99: number;
  note: string;
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

type Result = { database: 'postgres' | 'embedded'; rows: Row[]; rss: string };

async function benchDatabase(database: 'postgres' | 'embedded', bare: ChildProcess): Promise<Result> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dealmaker-http-bench-'));
  const adminUrl = process.env.DATABASE_URL;
  const dbName = `dealmaker_http_bench_${process.pid}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(serverPort),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    // The chat send is measured by flooding one user's chat: lift the per-user limit a person never meets.
    RATE_LIMITS: JSON.stringify({ messagesPerUser: { points: 1_000_000_000, seconds: 60 } }),
  };
  if (database === 'postgres') {
    await withAdmin(adminUrl!, (client) => client.query(`CREATE DATABASE ${dbName}`));
    env.DATABASE_URL = withDatabase(adminUrl!, dbName);
  }
  const base = `http://127.0.0.1:${serverPort}`;
  const profiling = process.env.BENCH_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE_DIR)}`]
    : [];
  const server = await startBuiltServer(env, profiling);
  try {
    const started = Date.now();
    const { dealId } = await seed(env.DATABASE_URL ?? runningClusterUrl(dataDir)!);
    console.log(
      `${database}: seeded ${fmt(dealCount)} deals in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    const token = await login(base);
    const rows: Row[] = [];
    let rss = '';
    const only = process.env.BENCH_CALLS?.split(',').filter(Boolean);
    for (const call of calls(dealId).filter((c) => !only || only.some((word) => c.name.includes(word)))) {
      const url = `${base}${call.path}`;
      const balanceBefore = await balanceOf(base, token);
      // Warm-up, discarded (its deposits still count in the balance check below).
      let acknowledged = autocannon(url, call, token, 2).ok;
      const row: Row = { call, database, ours: [], bare: [], sameBody: [], bodyBytes: 0, p99: 0, note: '' };
      const sameBodyUrl = call.method === 'POST' ? null : await storeSameBody(url, token, call.name);
      if (sameBodyUrl) row.bodyBytes = sameBodyUrl.bytes;
      const p99s: number[] = [];
      for (let round = 0; round < rounds; round++) {
        await waitIdle(bare.pid!);
        row.bare.push(autocannon(`http://127.0.0.1:${barePort}/bare`, {}, null, seconds).rps);
        if (sameBodyUrl) {
          await waitIdle(bare.pid!);
          row.sameBody.push(autocannon(sameBodyUrl.url, {}, null, seconds).rps);
        }
        await waitIdle(server.pid!);
        const run = autocannon(url, call, token, seconds);
        row.ours.push(run.rps);
        p99s.push(run.p99);
        acknowledged += run.ok;
        if (run.errors > 0) row.note += `${run.errors} non-2xx/errors in round ${round + 1}. `;
      }
      row.p99 = median(p99s);
      if (call.path === '/api/wallet/deposit') {
        // Every acknowledged deposit added $1.00, so the balance grew by at least that many dollars. It may
        // grow by up to `connections` more per run: requests in flight when autocannon stops are applied
        // but their answers are not counted.
        const grewBy = Math.round((await balanceOf(base, token)) - balanceBefore);
        const lost = Math.max(0, acknowledged - grewBy);
        row.note += `${fmt(acknowledged)} deposits acknowledged, balance +$${fmt(grewBy)}: ${lost} lost. `;
      }
      if (call.path === '/api/deals/all') {
        const nodeMiB = statusKb(server.pid!, 'VmHWM') / 1024;
        const cluster = database === 'embedded' ? clusterRssMiB(dataDir) : [];
        rss =
          `Node peak RSS ${nodeMiB.toFixed(0)} MiB after the list load` +
          (cluster.length
            ? `; embedded PostgreSQL ${cluster.length} processes, largest ${Math.max(...cluster).toFixed(0)} MiB, together ${cluster.reduce((a, b) => a + b, 0).toFixed(0)} MiB`
            : '');
      }
      rows.push(row);
      console.log(
        `  ${call.name}: ours ${row.ours.map(fmt).join(' / ')} req/s, bare ${row.bare.map(fmt).join(' / ')} req/s, ratio ${((median(row.ours) / median(row.bare)) * 100).toFixed(1)}%`,
      );
    }
    return { database, rows, rss };
  } finally {
    await stop(server);
    if (database === 'postgres') {
      await dropDatabase(adminUrl!, dbName);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Body size, bare Fastify answering that same body, and our share of it (GET calls only). */
function sameBody(row: Row): string {
  if (row.sameBody.length === 0) return '— | — | —';
  const kb = row.bodyBytes >= 1024 ? `${(row.bodyBytes / 1024).toFixed(1)} KB` : `${row.bodyBytes} B`;
  return `${kb} | ${fmt(median(row.sameBody))} | ${((median(row.ours) / median(row.sameBody)) * 100).toFixed(0)}%`;
}

function table(results: Result[]): string {
  const lines = [
    `HTTP hot calls, ${fmt(dealCount)} deals, ${connections} connections, ${rounds} rounds of ${seconds} s (node ${process.version}, ${os.cpus().length} cores)`,
    '',
    '| Call | Database | Ours req/s (min / median / max) | p99 ms | Bare Fastify req/s (median) | Ours ÷ bare | Target | Body | Bare, same body (median) | Ours ÷ same body | Before (PG / PGlite, share) | Notes |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const { rows } of results) {
    for (const row of rows) {
      const sorted = [...row.ours].sort((a, b) => a - b);
      const ratio = median(row.ours) / median(row.bare);
      const target = row.call.target[row.database];
      const verdict = target === 0 ? '—' : `${(target * 100).toFixed(0)}% ${ratio >= target ? '✓' : '✗'}`;
      lines.push(
        `| ${row.call.name} | ${row.database} | ${sorted.map(fmt).join(' / ')} | ${row.p99} | ${fmt(median(row.bare))} | ${(ratio * 100).toFixed(1)}% | ${verdict} | ${sameBody(row)} | ${row.call.before} | ${row.note.trim()} |`,
      );
    }
  }
  lines.push('');
  for (const { database, rss } of results) lines.push(`- ${database}: ${rss}`);
  return lines.join('\n');
}

async function main() {
  if (!fs.existsSync(path.join(root, 'dist', 'server.mjs'))) {
    execFileSync(process.execPath, [path.join(root, 'scripts', 'start.mjs'), '--build-only'], {
      stdio: 'inherit',
    });
  }
  const bare = await start(
    process.execPath,
    [path.join(root, 'bench', 'bare-server.mjs'), String(barePort)],
    process.env,
    (out) => out.includes('ready'),
  );
  const results: Result[] = [];
  try {
    const only = process.env.BENCH_DATABASES?.split(',');
    if (process.env.DATABASE_URL && (!only || only.includes('postgres'))) {
      results.push(await benchDatabase('postgres', bare));
    }
    if (!only || only.includes('embedded')) results.push(await benchDatabase('embedded', bare));
  } finally {
    await stop(bare);
  }
  const output = table(results);
  console.log(`\n${output}`);
  if (!process.env.BENCH_NO_SAVE) {
    const file = path.join(
      root,
      'bench',
      'results',
      `${new Date().toISOString().slice(0, 16).replace(':', '')}-http.md`,
    );
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${output}\n`);
    console.log(`\nSaved to ${path.relative(root, file)}`);
  }
}

await main();
