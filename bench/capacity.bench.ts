/**
 * Capacity: how many active users the built server (`dist/server.mjs`, run as `npm start` runs it) holds.
 *
 *   npm run bench:capacity                                  embedded database, steps up to 20,000 users
 *   BENCH_STEPS=200,500 BENCH_STEP_SECONDS=20 npm run bench:capacity        a quick try
 *   DATABASE_URL=postgres://… REDIS_URL=redis://… npm run bench:capacity    one instance on them
 *   … BENCH_INSTANCES=2 npm run bench:capacity              two instances behind HAProxy (deploy/haproxy.cfg)
 *   BENCH_IDLE=10000 npm run bench:capacity                 memory of idle signed-in sockets only
 *
 * Workload: an active user is one signed-in web app tab: one Socket.IO socket (WebSocket, `feeds: true` in
 * its handshake) and about one action every 30 s (uniformly 15–45 s apart, the first at a random point),
 * chosen by `actionMix` (capacity/protocol.ts): the Deals page (its first page, subscribed to the deals feed
 * while on it), a deal's page (the deal, and for a participant its history; watched, and its room joined
 * by a participant), a keyword search (the page and its count), a chat message on one of the user's
 * deals (delivered to every participant's socket), the wallet, a bid or a deposit, and now and then a
 * new deal (what the deals feed carries). capacity/worker.ts has the exact calls.
 *
 * Data (capacity/seed.ts): as many users as the largest step, each signed in once (a session row and a
 * token signed with the server's secret, no password hashing), ~2 deals in progress per user shared by
 * three users, 20 messages each, and open deals up to BENCH_DEALS (100,000) in all.
 *
 * Method: steps of active users (BENCH_STEPS, default 1,000 … 20,000). Each step connects its new users
 * (BENCH_CONNECT_RATE sockets/s, default 500), lets BENCH_RAMP_SECONDS (30, one action period) pass so
 * the new users' actions reach their steady rate, then measures BENCH_STEP_SECONDS (60): actions/s, the
 * latency of every HTTP call started in the window (queueing in the generator's pool included), chat
 * delivery (POST → each participant's `message-updated`), feed messages, errors since the step began
 * (non-2xx, no answer in 10 s, socket connect errors and disconnects, deliveries missing after 10 s,
 * refused room joins, rate-limit notices), CPU of every process (from /proc: server, database, HAProxy,
 * the generator, and the rest of the machine, which is shared), the server's RSS and, from its /metrics,
 * its own HTTP and query p99 and its event-loop delay over the window. A step holds
 * when HTTP p99 ≤ 200 ms, delivery p99 ≤ 200 ms and there are no errors; the ramp stops after the first
 * step that does not. The server runs under `--cpu-prof` from the start (all steps are measured under
 * the sampling profiler); the profile is cut to the last step's window, written next to the results, and
 * its top 15 self-time functions are in the report.
 *
 * The generator runs in BENCH_WORKERS (2) processes, each with a fixed pool of BENCH_CONNECTIONS (64)
 * kept-alive HTTP connections; a deal's participants are all in one worker, so deliveries are timed on one
 * clock. It shares the two cores with the server: its CPU is reported so that a result it limits shows.
 * Each socket is an open file in the server, in a worker and twice in HAProxy: steps beyond what the
 * open-file limit allows (raised as far as it may be) run as one step at the most that fits, and say so.
 *
 * Writes bench/results/<UTC time>-capacity-<mode>.md (and the profile as .cpuprofile).
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import pg from 'pg';
import { runningClusterUrl } from '../server/db/embedded-postgres';
import { dropDatabase, withAdmin, withDatabase } from '../server/test/test-database';
import { startHaproxy } from './capacity/haproxy';
import { profileWindow, type WindowProfile } from './capacity/profile';
import {
  actionMix,
  type CallName,
  type ErrorCounts,
  errorTotal,
  type FromWorker,
  noErrors,
  type ToWorker,
  type WorkerPlan,
  type WorkerReport,
} from './capacity/protocol';
import { type Seeded, seed, words } from './capacity/seed';
import { cpuTicks, freePort, root, startBuiltServer, stop, waitIdle } from './processes';

const env = process.env;
const steps = (env.BENCH_STEPS ?? '1000,2500,5000,10000,15000,20000').split(',').map(Number);
const stepSeconds = Number(env.BENCH_STEP_SECONDS ?? 60);
const rampSeconds = Number(env.BENCH_RAMP_SECONDS ?? 30);
const workerCount = Number(env.BENCH_WORKERS ?? 2);
const connectionsPerWorker = Number(env.BENCH_CONNECTIONS ?? 64);
const connectRate = Number(env.BENCH_CONNECT_RATE ?? 500);
const dealCount = Number(env.BENCH_DEALS ?? 100_000);
const idleSockets = Number(env.BENCH_IDLE ?? 0);
const instanceCount = Number(env.BENCH_INSTANCES ?? 1);
const actionSeconds = 30;
const target = { httpP99Ms: 200, deliveryP99Ms: 200, idleKbPerSocket: 20 };
const seedValue = 42;

const adminUrl = env.DATABASE_URL;
const redisUrl = env.REDIS_URL;
if (instanceCount !== 1 && !(instanceCount === 2 && adminUrl && redisUrl)) {
  throw new Error(
    'BENCH_INSTANCES=2 needs DATABASE_URL and REDIS_URL (two instances share them); 1 otherwise.',
  );
}
const mode = !adminUrl
  ? 'embedded'
  : `postgres${redisUrl ? '-redis' : ''}${instanceCount === 2 ? '-2-instances' : ''}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const nowUs = () => Number(process.hrtime.bigint() / 1000n);
const log = (text: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${text}`);

// ── The system under test ────────────────────────────────────────────────────────────────────────────
type Instance = {
  child: ChildProcess;
  port: number;
  metricsPort: number;
  dataDir: string;
  profileDir: string;
};
type System = {
  url: string;
  instances: Instance[];
  haproxy?: ChildProcess;
  /** The owner's connection string (seeding, and the embedded cluster's processes). */
  databaseUrl: string;
  databaseName?: string;
  /** The servers' JWT_SECRET: the seeded users' tokens are signed with it. */
  jwtSecret: string;
  /** Where the run's files go (data, profiles, the workers' plans); removed by cleanUp. */
  workDir: string;
  stopProcesses(): Promise<void>;
  cleanUp(): Promise<void>;
};

async function startSystem(maxUsers: number, profile: boolean): Promise<System> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dealmaker-capacity-'));
  // Run as root, the embedded database runs as the postgres user: it must reach the data folders in here.
  fs.chmodSync(workDir, 0o755);
  const suffix = randomBytes(4).toString('hex');
  const databaseName = adminUrl ? `dealmaker_capacity_bench_${suffix}` : undefined;
  const redisPrefix = `dealmaker-capacity-${suffix}`;
  const instances: Instance[] = [];
  let haproxy: ChildProcess | undefined;
  const stopProcesses = async () => {
    if (haproxy) await stop(haproxy);
    await Promise.all(instances.map((instance) => stop(instance.child)));
  };
  const cleanUp = async () => {
    if (databaseName) await dropDatabase(adminUrl!, databaseName);
    if (redisUrl) await forgetRedisKeys(redisUrl, redisPrefix);
    fs.rmSync(workDir, { recursive: true, force: true });
  };
  try {
    if (databaseName) await withAdmin(adminUrl!, (client) => client.query(`CREATE DATABASE ${databaseName}`));
    const jwtSecret = randomBytes(32).toString('hex');
    for (let index = 0; index < instanceCount; index++) {
      const instance = {
        port: await freePort(),
        metricsPort: await freePort(),
        dataDir: path.join(workDir, `data-${index}`),
        profileDir: path.join(workDir, `profile-${index}`),
      };
      const child = await startBuiltServer(
        {
          PATH: env.PATH,
          HOME: env.HOME,
          PORT: String(instance.port),
          HOST: '127.0.0.1',
          DATA_DIR: instance.dataDir,
          JWT_SECRET: jwtSecret,
          LOG_LEVEL: 'warn',
          NODE_ENV: 'production',
          // As deployed: metrics on their own port (they give the event-loop delay).
          METRICS_PORT: String(instance.metricsPort),
          ...(databaseName ? { DATABASE_URL: withDatabase(adminUrl!, databaseName) } : {}),
          ...(redisUrl ? { REDIS_URL: redisUrl, REDIS_PREFIX: redisPrefix } : {}),
          ...(instanceCount > 1 ? { TRUST_PROXY: 'true' } : {}),
        },
        profile ? ['--cpu-prof', `--cpu-prof-dir=${instance.profileDir}`] : [],
      );
      instances.push({ ...instance, child });
    }
    let url = `http://127.0.0.1:${instances[0]!.port}`;
    if (instanceCount === 2) {
      const port = await freePort();
      haproxy = await startHaproxy({
        instances: [`127.0.0.1:${instances[0]!.port}`, `127.0.0.1:${instances[1]!.port}`],
        port,
        statsPort: await freePort(),
        workDir,
        // Client-side connections: the users' sockets and the generator's HTTP pools.
        maxconn: maxUsers + 1_000,
      });
      url = `http://127.0.0.1:${port}`;
    }
    const databaseUrl = databaseName
      ? withDatabase(adminUrl!, databaseName)
      : runningClusterUrl(instances[0]!.dataDir)!;
    return { url, instances, haproxy, databaseUrl, databaseName, jwtSecret, workDir, stopProcesses, cleanUp };
  } catch (error) {
    await stopProcesses();
    await cleanUp();
    throw error;
  }
}

async function forgetRedisKeys(url: string, prefix: string) {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/**
 * Every process of the machine the run is made of, for their CPU: the server(s), the database (the
 * embedded cluster's processes, or our database's backends of the machine's PostgreSQL), Redis (shared
 * with whatever else uses it), HAProxy and the generator's workers.
 */
type Meters = Record<string, () => Promise<number[]>>;

async function meters(
  system: System,
  workers: ChildProcess[],
): Promise<{ groups: Meters; close(): Promise<void> }> {
  const result: Meters = {};
  system.instances.forEach((instance, index) => {
    result[`server ${index + 1}`] = async () => [instance.child.pid!];
  });
  let admin: pg.Client | undefined;
  if (system.databaseName) {
    admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    const client = admin;
    result.PostgreSQL = async () =>
      (
        await client.query<{ pid: number }>(`select pid from pg_stat_activity where datname = $1`, [
          system.databaseName,
        ])
      ).rows.map((row) => row.pid);
  } else {
    const pidFile = path.join(system.instances[0]!.dataDir, 'pg', 'postmaster.pid');
    result.PostgreSQL = async () => {
      const postmaster = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
      return [postmaster, ...childPids(postmaster)];
    };
  }
  if (redisUrl) {
    const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    const pid = Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1]);
    redis.disconnect();
    if (fs.existsSync(`/proc/${pid}`)) result['Redis (shared)'] = async () => [pid];
  }
  if (system.haproxy) result.HAProxy = async () => [system.haproxy!.pid!];
  workers.forEach((worker, index) => {
    result[`generator ${index + 1}`] = async () => [worker.pid!];
  });
  return { groups: result, close: async () => void (await admin?.end()) };
}

function childPids(parent: number): number[] {
  return execFileSync('ps', ['-o', 'pid=', '--ppid', String(parent)], { encoding: 'utf8' })
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter(Boolean);
}

/** Ticks used so far by each process of each meter. */
async function cpuSnapshot(all: Meters): Promise<Map<string, Map<number, number>>> {
  const snapshot = new Map<string, Map<number, number>>();
  for (const [name, pidsOf] of Object.entries(all)) {
    const ticks = new Map<number, number>();
    for (const pid of await pidsOf()) {
      try {
        ticks.set(pid, cpuTicks(pid));
      } catch {
        // gone meanwhile
      }
    }
    snapshot.set(name, ticks);
  }
  return snapshot;
}

/** % of one core each meter used between two snapshots (a process new at the end counts whole). */
function cpuShares(
  before: Map<string, Map<number, number>>,
  after: Map<string, Map<number, number>>,
  seconds: number,
) {
  const shares: Record<string, number> = {};
  for (const [name, ticks] of after) {
    let used = 0;
    for (const [pid, value] of ticks) used += value - (before.get(name)?.get(pid) ?? 0);
    // 100 ticks per second: ticks / seconds is % of a core.
    shares[name] = used / seconds;
  }
  return shares;
}

/** CPU ticks all cores spent busy so far (/proc/stat: everything but idle and iowait). */
function machineBusyTicks(): number {
  const fields = fs
    .readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1, 9)
    .map(Number);
  return fields.reduce((sum, value) => sum + value, 0) - fields[3]! - fields[4]!;
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.split(/\s+/)[1] ?? 0);
}

/**
 * The server's /metrics, each metric summed over its labels but a histogram bucket's bound (`name{le="…"}`).
 * Scraping also restarts its event-loop histogram.
 */
async function scrape(instance: Instance): Promise<Map<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${instance.metricsPort}/metrics`)).text();
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const bound = /le="([^"]+)"/.exec(line)?.[1];
    const name = line.slice(0, line.search(/[{ ]/)) + (bound ? `{le="${bound}"}` : '');
    values.set(name, (values.get(name) ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  return values;
}

/**
 * A quantile of one of the server's histograms over the window (between two scrapes), as the upper bound
 * of the bucket it falls in (ms): the server's own view of its latency, without the network and the
 * generator's queue.
 */
function serverQuantileMs(before: Map<string, number>, after: Map<string, number>, name: string, q: number) {
  const buckets = [...after.keys()]
    .filter((key) => key.startsWith(`${name}_bucket{`))
    .map((key) => ({
      bound: Number(/le="([^"]+)"/.exec(key)![1]),
      count: after.get(key)! - (before.get(key) ?? 0),
    }))
    .sort((a, b) => a.bound - b.bound);
  const total = buckets.at(-1)?.count ?? 0;
  if (total === 0) return Number.NaN;
  return buckets.find((bucket) => bucket.count >= q * total)!.bound * 1000;
}

// ── The generator ────────────────────────────────────────────────────────────────────────────────────
type Worker = { child: ChildProcess; next(type: FromWorker['type']): Promise<FromWorker> };

async function startWorkers(system: System, seeded: Seeded, acting: boolean): Promise<Worker[]> {
  return Promise.all(
    Array.from({ length: workerCount }, async (_, index) => {
      const plan: WorkerPlan = {
        worker: index,
        url: system.url,
        users: seeded.users.filter((_, user) => user % workerCount === index),
        openDeals: seeded.openDeals,
        words,
        connections: connectionsPerWorker,
        actionSeconds: acting ? actionSeconds : false,
        seed: seedValue,
      };
      const planFile = path.join(system.workDir, `worker-${index}.json`);
      fs.writeFileSync(planFile, JSON.stringify(plan));
      const child = fork(path.join(root, 'bench', 'capacity', 'worker.ts'), [planFile], {
        execArgv: ['--import', 'tsx'],
        serialization: 'advanced',
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      const inbox: FromWorker[] = [];
      let waiting: { type: string; resolve: (message: FromWorker) => void } | undefined;
      child.on('message', (message: FromWorker) => {
        if (waiting?.type === message.type) {
          const { resolve } = waiting;
          waiting = undefined;
          resolve(message);
        } else inbox.push(message);
      });
      const exited = new Promise<never>((_, reject) =>
        child.once('exit', (code) => reject(new Error(`generator worker ${index + 1} exited (${code})`))),
      );
      exited.catch(() => undefined);
      const worker: Worker = {
        child,
        next: (type) => {
          const queued = inbox.findIndex((message) => message.type === type);
          if (queued >= 0) return Promise.resolve(inbox.splice(queued, 1)[0]!);
          return Promise.race([new Promise<FromWorker>((resolve) => (waiting = { type, resolve })), exited]);
        },
      };
      await worker.next('ready');
      return worker;
    }),
  );
}

const tell = (workers: Worker[], message: ToWorker) => {
  for (const worker of workers) worker.child.send(message);
};

/** Connects the first `users` users (user u is in worker u % workers); resolves with the sockets connected. */
async function connectUsers(workers: Worker[], users: number): Promise<number> {
  workers.forEach((worker, index) => {
    const share = Math.max(0, Math.ceil((users - index) / workerCount));
    worker.child.send({
      type: 'step',
      users: share,
      perSecond: connectRate / workerCount,
    } satisfies ToWorker);
  });
  const answers = await Promise.all(workers.map((worker) => worker.next('connected')));
  return answers.reduce((sum, answer) => sum + (answer.type === 'connected' ? answer.connected : 0), 0);
}

async function stopWorkers(workers: Worker[]) {
  await Promise.all(
    workers.map(async (worker) => {
      if (worker.child.exitCode !== null) return;
      const exited = new Promise((resolve) => worker.child.once('exit', resolve));
      worker.child.send({ type: 'stop' } satisfies ToWorker);
      await Promise.race([exited, sleep(15_000).then(() => worker.child.kill('SIGKILL'))]);
    }),
  );
}

/**
 * Event-loop delay from prom-client's histogram (perf_hooks.monitorEventLoopDelay): it records the time
 * between timer callbacks meant to run every 10 ms, so 10 ms is no delay; shown beyond that.
 */
function loopDelayMs(metrics: Map<string, number>, which: 'p50' | 'p99' | 'max'): number {
  const seconds = metrics.get(`nodejs_eventloop_lag_${which}_seconds`);
  return seconds === undefined ? Number.NaN : Math.max(0, seconds * 1000 - 10);
}

// ── A step ───────────────────────────────────────────────────────────────────────────────────────────
type Quantiles = { count: number; p50: number; p95: number; p99: number; max: number };
function quantiles(values: number[]): Quantiles {
  const sorted = Float64Array.from(values).sort();
  const at = (q: number) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : Number.NaN;
  return {
    count: sorted.length,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

type Row = {
  users: number;
  connected: number;
  seconds: number;
  window: [fromUs: number, toUs: number];
  actionsPerSecond: number;
  http: Quantiles;
  perCall: Partial<Record<CallName, Quantiles>>;
  delivery: Quantiles;
  feedPerSecond: number;
  feedChangesPerSecond: number;
  /** Socket events the generator received per second, all kinds. */
  eventsPerSecond: number;
  events: Record<string, number>;
  errors: ErrorCounts;
  errorCount: number;
  /** % of one core, per process group (servers, database, HAProxy, Redis, generator workers). */
  cpu: Record<string, number>;
  mainCpu: number;
  /** % of one core the rest of the machine used meanwhile: other people's processes, and the kernel's own work. */
  otherCpu: number;
  rssMiB: number[];
  peakRssMiB: number[];
  /** Per instance: event-loop delay over the window (ms), sockets it counts, events it sent per second. */
  servers: Array<{
    /** The server's own p99 of its HTTP answers and of its database queries (bucket bounds, ms). */
    httpP99: number;
    queryP99: number;
    loopP50: number;
    loopP99: number;
    loopMax: number;
    sockets: number;
    sentPerSecond: number;
  }>;
  load: string;
  holds: boolean;
};

async function measureStep(system: System, workers: Worker[], all: Meters, users: number): Promise<Row> {
  log(`${users.toLocaleString('en-US')} users: connecting`);
  const connected = await connectUsers(workers, users);
  log(`  ${connected.toLocaleString('en-US')} sockets connected; ramp-in ${rampSeconds} s`);
  await sleep(rampSeconds * 1000);
  const before = await Promise.all(system.instances.map(scrape));
  const cpuBefore = await cpuSnapshot(all);
  const machineBefore = machineBusyTicks();
  const mainBefore = process.cpuUsage();
  const fromUs = nowUs();
  tell(workers, { type: 'window-start' });
  await sleep(stepSeconds * 1000);
  tell(workers, { type: 'window-end' });
  const toUs = nowUs();
  const seconds = (toUs - fromUs) / 1e6;
  const cpuAfter = await cpuSnapshot(all);
  const machine = (machineBusyTicks() - machineBefore) / seconds;
  const main = process.cpuUsage(mainBefore);
  const after = await Promise.all(system.instances.map(scrape));
  const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const reports = (await Promise.all(workers.map((worker) => worker.next('report')))).map(
    (message) => (message as { report: WorkerReport }).report,
  );

  const latencies: Partial<Record<CallName, number[]>> = {};
  const errors = noErrors();
  const events: Record<string, number> = {};
  let actions = 0;
  let feedChanges = 0;
  for (const report of reports) {
    for (const [name, values] of Object.entries(report.latencies) as Array<[CallName, number[]]>) {
      latencies[name] = [...(latencies[name] ?? []), ...values];
    }
    for (const [key, count] of Object.entries(report.errors.http))
      errors.http[key] = (errors.http[key] ?? 0) + count;
    errors.connectErrors += report.errors.connectErrors;
    errors.disconnects += report.errors.disconnects;
    errors.lostDeliveries += report.errors.lostDeliveries;
    errors.refusedJoins += report.errors.refusedJoins;
    errors.notices += report.errors.notices;
    errors.examples.push(...report.errors.examples);
    for (const [name, count] of Object.entries(report.events)) events[name] = (events[name] ?? 0) + count;
    actions += Object.values(report.actions).reduce((sum, count) => sum + count, 0);
    feedChanges += report.feedChanges;
  }
  const http = quantiles(Object.values(latencies).flat());
  const delivery = quantiles(reports.flatMap((report) => report.deliveries));
  const errorCount = errorTotal(errors);
  const cpu = cpuShares(cpuBefore, cpuAfter, seconds);
  const row: Row = {
    users,
    connected: reports.reduce((sum, report) => sum + report.connected, 0),
    seconds,
    window: [fromUs, toUs],
    actionsPerSecond: actions / seconds,
    http,
    perCall: Object.fromEntries(Object.entries(latencies).map(([name, values]) => [name, quantiles(values)])),
    delivery,
    feedPerSecond: (events['deals-feed'] ?? 0) / seconds,
    feedChangesPerSecond: feedChanges / seconds,
    eventsPerSecond: Object.values(events).reduce((sum, count) => sum + count, 0) / seconds,
    events,
    errors,
    errorCount,
    cpu,
    mainCpu: (main.user + main.system) / 1e4 / seconds,
    otherCpu: Math.max(0, machine - Object.values(cpu).reduce((sum, share) => sum + share, 0)),
    rssMiB: system.instances.map((instance) => statusKb(instance.child.pid!, 'VmRSS') / 1024),
    peakRssMiB: system.instances.map((instance) => statusKb(instance.child.pid!, 'VmHWM') / 1024),
    servers: after.map((metrics, index) => ({
      httpP99: serverQuantileMs(before[index]!, metrics, 'dealmaker_http_request_duration_seconds', 0.99),
      queryP99: serverQuantileMs(before[index]!, metrics, 'dealmaker_db_query_duration_seconds', 0.99),
      loopP50: loopDelayMs(metrics, 'p50'),
      loopP99: loopDelayMs(metrics, 'p99'),
      loopMax: loopDelayMs(metrics, 'max'),
      sockets: metrics.get('dealmaker_socket_connected') ?? Number.NaN,
      sentPerSecond:
        ((metrics.get('dealmaker_socket_events_sent_total') ?? 0) -
          (before[index]!.get('dealmaker_socket_events_sent_total') ?? 0)) /
        seconds,
    })),
    load,
    holds:
      http.p99 <= target.httpP99Ms &&
      (delivery.count === 0 || delivery.p99 <= target.deliveryP99Ms) &&
      errorCount === 0,
  };
  log(
    `  ${fmt(row.actionsPerSecond, 1)} actions/s, HTTP p50/p95/p99 ${fmt(http.p50, 1)}/${fmt(http.p95, 1)}/${fmt(http.p99, 1)} ms, ` +
      `delivery p99 ${fmt(delivery.p99, 1)} ms, ${errorCount} errors, CPU ${cpuText(row)} → ${row.holds ? 'holds' : 'BREAKS'}`,
  );
  return row;
}

// ── Output ───────────────────────────────────────────────────────────────────────────────────────────
const fmt = (value: number, digits = 0) =>
  Number.isFinite(value)
    ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : '–';
const isGenerator = (name: string) => name.startsWith('generator');
const cpuText = (row: Row) =>
  Object.entries(row.cpu)
    .map(([name, share]) => `${name} ${fmt(share)}%`)
    .join(', ');

function stepTable(rows: Row[]): string[] {
  const lines = [
    '| Active users | Sockets | Actions/s | HTTP req/s | HTTP p50 / p95 / p99 ms | Server-side HTTP / query p99 ms | Delivery p50 / p99 ms (n) | Feed msgs/s (deals carried/s) | Errors | Server CPU % | Server RSS MiB (peak) | Event-loop delay p99 / max ms | Database CPU % | Generator CPU % | Rest of machine CPU % | Load avg 1/5/15 min | Holds |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const serverCpu = Object.entries(row.cpu)
      .filter(([name]) => name.startsWith('server'))
      .map(([, share]) => fmt(share));
    const generator = Object.entries(row.cpu).filter(([name]) => isGenerator(name));
    lines.push(
      `| ${fmt(row.users)} | ${fmt(row.connected)} | ${fmt(row.actionsPerSecond, 1)} | ${fmt(row.http.count / row.seconds, 1)} | ` +
        `${fmt(row.http.p50, 1)} / ${fmt(row.http.p95, 1)} / ${fmt(row.http.p99, 1)} | ` +
        `${row.servers.map((server) => `≤ ${fmt(server.httpP99, 1)} / ≤ ${fmt(server.queryP99, 1)}`).join(' + ')} | ` +
        `${fmt(row.delivery.p50, 1)} / ${fmt(row.delivery.p99, 1)} (${fmt(row.delivery.count)}) | ` +
        `${fmt(row.feedPerSecond, 1)} (${fmt(row.feedChangesPerSecond, 1)}) | ${fmt(row.errorCount)} | ${serverCpu.join(' + ')} | ` +
        `${row.rssMiB.map((rss, index) => `${fmt(rss)} (${fmt(row.peakRssMiB[index]!)})`).join(' + ')} | ` +
        `${row.servers.map((server) => `${fmt(server.loopP99, 1)} / ${fmt(server.loopMax, 1)}`).join(' + ')} | ` +
        `${fmt(row.cpu.PostgreSQL ?? Number.NaN)} | ${generator.map(([, share]) => fmt(share)).join(' + ')} = ${fmt(generator.reduce((sum, [, share]) => sum + share, 0))} | ` +
        `${fmt(row.otherCpu)} | ${row.load} | ${row.holds ? '✓' : '✗'} |`,
    );
  }
  return lines;
}

function callTable(rows: Row[]): string[] {
  const names = [...new Set(rows.flatMap((row) => Object.keys(row.perCall)))] as CallName[];
  const lines = [
    `| Call | ${rows.map((row) => `${fmt(row.users)} users: n, p50 / p99 ms`).join(' | ')} |`,
    `|---|${rows.map(() => '---').join('|')}|`,
  ];
  for (const name of names) {
    lines.push(
      `| \`${name}\` | ${rows
        .map((row) => {
          const q = row.perCall[name];
          return q ? `${fmt(q.count)}, ${fmt(q.p50, 1)} / ${fmt(q.p99, 1)}` : '–';
        })
        .join(' | ')} |`,
    );
  }
  return lines;
}

function detailLines(rows: Row[]): string[] {
  const lines: string[] = [];
  for (const row of rows) {
    const other = Object.entries(row.cpu)
      .filter(([name]) => !name.startsWith('server') && !isGenerator(name) && name !== 'PostgreSQL')
      .map(([name, share]) => `${name} ${fmt(share)}%`);
    const events = Object.entries(row.events)
      .sort((a, b) => b[1] - a[1])
      .map(([name, count]) => `${name} ${fmt(count / row.seconds, 1)}/s`);
    lines.push(
      `- **${fmt(row.users)} users** (${fmt(row.seconds, 1)} s measured): server(s) counted ` +
        `${row.servers.map((server) => fmt(server.sockets)).join(' + ')} sockets and sent ` +
        `${row.servers.map((server) => fmt(server.sentPerSecond, 1)).join(' + ')} events/s (one per room emit); ` +
        `event-loop delay p50 ${row.servers.map((server) => fmt(server.loopP50, 1)).join(' + ')} ms. ` +
        `Generator received ${fmt(row.eventsPerSecond, 1)} events/s (${events.join(', ') || 'none'}). ` +
        `Bench main process ${fmt(row.mainCpu, 1)}% CPU${other.length ? `; ${other.join(', ')}` : ''}.`,
    );
    if (row.errorCount > 0) {
      const kinds = [
        ...Object.entries(row.errors.http).map(([key, count]) => `${key}: ${count}`),
        ...(['connectErrors', 'disconnects', 'lostDeliveries', 'refusedJoins', 'notices'] as const)
          .filter((key) => row.errors[key] > 0)
          .map((key) => `${key}: ${row.errors[key]}`),
      ];
      lines.push(`  - errors: ${kinds.join('; ')}`);
      for (const example of row.errors.examples.slice(0, 5))
        lines.push(`    - \`${example.replace(/`/g, "'")}\``);
    }
  }
  return lines;
}

function profileLines(
  profiles: Array<{ instance: number; file: string; window: WindowProfile }>,
  row: Row,
): string[] {
  const lines: string[] = [];
  for (const { instance, file, window } of profiles) {
    const busy = window.sampledMs - window.idleMs;
    lines.push(
      '',
      `Server ${instance + 1}, ${fmt(row.users)} users' window: ${fmt(window.sampledMs / 1000, 1)} s sampled, ` +
        `busy in ${fmt((busy / window.sampledMs) * 100)}% of the samples (the rest idle, waiting for I/O; the profiler samples ` +
        `wall time, so a busy thread waiting for a core counts as busy: /proc charged it ${fmt(row.cpu[`server ${instance + 1}`] ?? Number.NaN)}% of a core). ` +
        `Profile: \`${path.relative(root, file)}\`.`,
      '',
      ...(window.writevBy.length
        ? [
            `\`writev\` (the write syscalls) by the package that wrote: ${window.writevBy
              .map(({ writer, share }) => `${writer} ${fmt(share * 100)}%`)
              .join(', ')}.`,
            '',
          ]
        : []),
      '| # | Self ms | % of busy | Function | Where |',
      '|---|---|---|---|---|',
      ...window.top.map(
        (entry, index) =>
          `| ${index + 1} | ${fmt(entry.selfMs)} | ${fmt(entry.share * 100, 1)}% | \`${entry.name}\` | ${entry.where ? `\`${entry.where}\`` : '(native)'} |`,
      ),
    );
  }
  return lines;
}

function header(title: string): string[] {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  const dirty = git('status', '--porcelain', '--', 'server', 'contract').length > 0;
  const built = fs
    .statSync(path.join(root, 'dist', 'server.mjs'))
    .mtime.toISOString()
    .slice(0, 16);
  return [
    `# ${title}`,
    '',
    `Commit ${git('rev-parse', '--short', 'HEAD')}${dirty ? ' with uncommitted changes in server/ or contract/' : ''}; dist/server.mjs built ${built} UTC.`,
    '',
    `\`${commandLine()}\` — node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), ` +
      `${fmt(os.totalmem() / 2 ** 30, 1)} GiB, a shared machine.`,
    '',
  ];
}

function commandLine(): string {
  const set = [
    'DATABASE_URL',
    'REDIS_URL',
    'BENCH_INSTANCES',
    'BENCH_STEPS',
    'BENCH_STEP_SECONDS',
    'BENCH_RAMP_SECONDS',
    'BENCH_WORKERS',
    'BENCH_CONNECTIONS',
    'BENCH_CONNECT_RATE',
    'BENCH_DEALS',
    'BENCH_IDLE',
  ]
    .filter((name) => env[name])
    .map((name) => `${name}=${name.endsWith('_URL') ? '…' : env[name]}`);
  return [...set, 'npm run bench:capacity'].join(' ');
}

function save(name: string, lines: string[]) {
  const stamp = new Date().toISOString().slice(0, 16).replace(':', '');
  const file = path.join(root, 'bench', 'results', `${stamp}-capacity-${name}.md`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  log(`saved ${path.relative(root, file)}`);
  return file;
}

// ── Runs ─────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Each socket is an open file in the server and in a worker, and two in HAProxy (its client side and its
 * server side). The children inherit this process's limit, raised here with prlimit as far as allowed (a
 * hard limit above the current one needs CAP_SYS_RESOURCE, which a container may not grant). Returns the
 * limit and the most active users it lets every process hold, with room for each one's other files.
 */
function fileLimit(wantedUsers: number): { limit: number; fit: number } {
  const read = () => {
    const [, soft, hard] = /Max open files\s+(\d+)\s+(\d+)/.exec(
      fs.readFileSync('/proc/self/limits', 'utf8'),
    )!;
    return { soft: Number(soft), hard: Number(hard) };
  };
  const wanted = 3 * wantedUsers + 10_000;
  if (read().soft < wanted) {
    const prlimit = (value: number) =>
      execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${value}:${value}`], {
        stdio: 'pipe',
      });
    try {
      prlimit(wanted);
    } catch {
      prlimit(read().hard);
    }
  }
  const limit = read().soft;
  // A server's pools, listeners and files, a worker's HTTP pool: well under a thousand.
  const room = limit - 1_000;
  const perProcess = [
    instanceCount * room,
    workerCount * room,
    ...(instanceCount === 2 ? [Math.floor(room / 2)] : []),
  ];
  return { limit, fit: Math.min(...perProcess) };
}

async function runSteps() {
  const { limit, fit } = fileLimit(Math.max(...steps));
  // Steps beyond what the open-file limit lets the processes hold run as one step at the most that fits.
  const planned = [...new Set(steps.map((users) => Math.min(users, fit)))];
  const clamped =
    planned.length < steps.length || steps.some((users) => users > fit)
      ? `Steps above ${fmt(fit)} users were run as one step of ${fmt(fit)}: each process may have ${fmt(limit)} open files here (the hard limit; raising it needs CAP_SYS_RESOURCE), and ${instanceCount === 2 ? 'HAProxy holds two per user' : 'the server holds one per user beside its other files'}.`
      : undefined;
  if (clamped) log(clamped);
  const maxUsers = Math.max(...planned);
  log(`mode ${mode}: starting ${instanceCount} server instance(s) under --cpu-prof`);
  const system = await startSystem(maxUsers, true);
  let workers: Worker[] = [];
  const rows: Row[] = [];
  let seedSeconds = 0;
  try {
    const started = performance.now();
    const seeded = await seed(system.databaseUrl, {
      userCount: maxUsers,
      workers: workerCount,
      dealCount,
      jwtSecret: system.jwtSecret,
    });
    seedSeconds = (performance.now() - started) / 1000;
    log(`seeded ${fmt(maxUsers)} users, ${fmt(dealCount)} deals in ${fmt(seedSeconds, 1)} s`);
    if (seeded.openDeals.length === 0) throw new Error('BENCH_DEALS leaves no open deal to bid on');
    workers = await startWorkers(system, seeded, true);
    const all = await meters(
      system,
      workers.map((worker) => worker.child),
    );
    try {
      for (const pid of system.instances.map((instance) => instance.child.pid!)) await waitIdle(pid);
      for (const users of planned) {
        const row = await measureStep(system, workers, all.groups, users);
        rows.push(row);
        if (!row.holds) break;
      }
    } finally {
      await all.close();
    }
  } finally {
    await stopWorkers(workers);
    log('stopping the server(s): the profile is written at exit');
    await system.stopProcesses();
  }
  try {
    const last = rows.at(-1);
    const profiles = last
      ? system.instances.map((instance, index) => {
          const file = fs
            .readdirSync(instance.profileDir)
            .find((name) => name.includes(`.${instance.child.pid}.`));
          if (!file) throw new Error(`no profile of server ${index + 1} in ${instance.profileDir}`);
          return {
            instance: index,
            file: path.join(instance.profileDir, file),
            window: profileWindow(path.join(instance.profileDir, file), last.window[0], last.window[1]),
          };
        })
      : [];
    report(rows, profiles, seedSeconds, planned, clamped);
  } finally {
    await system.cleanUp();
  }
}

function report(
  rows: Row[],
  profiles: Array<{ instance: number; file: string; window: WindowProfile }>,
  seedSeconds: number,
  planned: number[],
  clamped: string | undefined,
) {
  const last = rows.at(-1)!;
  const broke = rows.find((row) => !row.holds);
  const held = rows.filter((row) => row.holds).at(-1);
  const stamp = new Date().toISOString().slice(0, 16).replace(':', '');
  // The cut profiles go next to the report, one per instance.
  const saved = profiles.map((profile) => {
    const file = path.join(
      root,
      'bench',
      'results',
      `${stamp}-capacity-${mode}${profiles.length > 1 ? `-server${profile.instance + 1}` : ''}.cpuprofile`,
    );
    fs.writeFileSync(file, JSON.stringify(profile.window.profile));
    return { ...profile, file };
  });
  const setup =
    instanceCount === 2
      ? 'two instances on PostgreSQL and Redis, behind HAProxy (deploy/haproxy.cfg without its third server)'
      : adminUrl
        ? `one instance on the machine's PostgreSQL${redisUrl ? ' and Redis' : ''}`
        : 'one instance on its embedded PostgreSQL';
  const lines = [
    ...header(`Capacity: active users, ${setup}`),
    `**Result:** ${held ? `holds at ${fmt(held.users)} active users` : 'no step held'}` +
      (broke ? `; breaks at ${fmt(broke.users)}` : rows.length === planned.length ? ' (the last step)' : '') +
      ` (hold: HTTP p99 ≤ ${target.httpP99Ms} ms, delivery p99 ≤ ${target.deliveryP99Ms} ms, no errors).`,
    '',
    '## Method',
    '',
    `- **Users**: each active user is a signed-in tab: one Socket.IO socket (WebSocket, \`auth: { token, feeds: true }\`) and about one action every ${actionSeconds} s (uniformly ${actionSeconds / 2}–${(actionSeconds * 3) / 2} s apart, the first at a random point), the calls as the web app makes them (bench/capacity/worker.ts). Mix: ${Object.entries(
      actionMix,
    )
      .map(([kind, weight]) => `${kind} ${weight}%`)
      .join(', ')}.`,
    '- **Pages**: on the Deals page (list or search) the socket is subscribed to the deals feed; on a deal page it watches the deal (and a participant joins its room); leaving unsubscribes. A chat message goes from the deal page, so sending on another deal opens it first (GET the deal and its history).',
    ...(clamped ? [`- **Open files**: ${clamped}`] : []),
    `- **Data**: ${fmt(Math.max(...planned))} users seeded signed in (session rows, tokens signed with the server's secret), ~2 deals in progress per user shared by three users (20 messages each), open deals up to ${fmt(dealCount)}, 20,000 deposits of money history on a user left alone; seeding took ${fmt(seedSeconds, 1)} s.`,
    `- **Steps**: new users connect at ${fmt(connectRate)} sockets/s, then ${rampSeconds} s of ramp-in (one action period: the new users reach their steady rate), then ${stepSeconds} s measured. Latency: every HTTP call started in the window, from the request to the last byte, waiting in the generator's pool included; delivery: the POST's start to each participant's socket receiving \`message-updated\` (sender included). Errors count from the step's start (ramp-in included): non-2xx, no answer in 10 s, socket connect errors and disconnects, deliveries missing after 10 s, refused room joins, rate-limit notices.`,
    `- **Generator**: ${workerCount} worker processes, each with a fixed pool of ${connectionsPerWorker} kept-alive HTTP connections (node:http) and its users' sockets (socket.io-client); a deal's participants are all in one worker. It runs on the same two cores as the server: its CPU is in the table.`,
    "- **Measured from outside**: CPU of every process from /proc (% of one core; the server, the database — the embedded cluster's processes or our database's backends —, HAProxy, Redis, the generator), the server's RSS (VmRSS, and the peak VmHWM) at the end of the window, event-loop delay from the server's /metrics (prom-client's histogram, restarted at the window's start; shown beyond its 10 ms sampling interval). The server runs under `node --cpu-prof` for the whole run (a sampling profiler: a few % of CPU), its profile cut to the last step's window.",
    '',
    '## Steps',
    '',
    ...stepTable(rows),
    '',
    'HTTP latency is the generator\'s (request to last byte, waiting for a pooled connection included); the server-side p99s are from its /metrics histograms (the bound of the bucket the p99 falls in: 2, 5, 10, 25, 50, 100, 250 ms…; queries 0.5, 1, 2, 5, 10, 25 ms…), from the request reaching Fastify to the answer sent. Server CPU, RSS and event-loop delay per instance (a + b with two). Generator CPU per worker process. CPU in % of one core (two cores: 200%); "rest of machine" is everything else the two cores did in the window (other processes on this shared machine, and kernel work no process is charged with).',
    '',
    '### Latency per call',
    '',
    ...callTable(rows),
    '',
    '### Details',
    '',
    ...detailLines(rows),
    '',
    `## Where the server's time went at ${fmt(last.users)} users`,
    ...profileLines(saved, last),
    '',
  ];
  console.log(`\n${[...stepTable(rows), '', ...callTable(rows)].join('\n')}`);
  save(mode, lines);
}

/** RSS of the server(s), the median of five readings a second apart. */
async function steadyRssKb(system: System): Promise<number> {
  const readings: number[] = [];
  for (let i = 0; i < 5; i++) {
    readings.push(
      system.instances.reduce((sum, instance) => sum + statusKb(instance.child.pid!, 'VmRSS'), 0),
    );
    await sleep(1000);
  }
  return readings.sort((a, b) => a - b)[2]!;
}

async function heapUsedBytes(system: System): Promise<number> {
  const scraped = await Promise.all(system.instances.map(scrape));
  return scraped.reduce((sum, metrics) => sum + (metrics.get('nodejs_heap_size_used_bytes') ?? 0), 0);
}

/** BENCH_IDLE=N: what N signed-in idle sockets cost the server in memory, per socket. */
async function runIdle() {
  const { limit, fit } = fileLimit(idleSockets);
  if (idleSockets > fit) {
    throw new Error(
      `${fmt(idleSockets)} sockets do not fit in ${fmt(limit)} open files per process: at most ${fmt(fit)} here.`,
    );
  }
  log(`mode ${mode}, idle sockets: starting ${instanceCount} server instance(s)`);
  const system = await startSystem(idleSockets, false);
  let workers: Worker[] = [];
  try {
    const seeded = await seed(system.databaseUrl, {
      userCount: idleSockets,
      workers: workerCount,
      dealCount: 0,
      jwtSecret: system.jwtSecret,
    });
    workers = await startWorkers(system, seeded, false);
    const settle = async () => {
      for (const instance of system.instances) await waitIdle(instance.child.pid!);
      await sleep(10_000);
    };
    await settle();
    const rssBefore = await steadyRssKb(system);
    const heapBefore = await heapUsedBytes(system);
    log(`no sockets: RSS ${fmt(rssBefore / 1024, 1)} MiB; connecting ${fmt(idleSockets)}`);
    const connected = await connectUsers(workers, idleSockets);
    await settle();
    const rssAfter = await steadyRssKb(system);
    const heapAfter = await heapUsedBytes(system);
    const perSocketKb = (rssAfter - rssBefore) / connected;
    const heapPerSocketKb = (heapAfter - heapBefore) / 1024 / connected;
    const summary =
      `${fmt(connected)} idle signed-in sockets: server RSS ${fmt(rssBefore / 1024, 1)} → ${fmt(rssAfter / 1024, 1)} MiB, ` +
      `**${fmt(perSocketKb, 1)} KB per socket** (target ≤ ${target.idleKbPerSocket} KB ${perSocketKb <= target.idleKbPerSocket ? '✓' : '✗'}); ` +
      `V8 heap used ${fmt(heapBefore / 2 ** 20, 1)} → ${fmt(heapAfter / 2 ** 20, 1)} MiB, ${fmt(heapPerSocketKb, 1)} KB per socket ` +
      `(load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}).`;
    log(summary);
    save(`idle-${mode}`, [
      ...header(`Capacity: memory of idle signed-in sockets (${mode})`),
      summary,
      '',
      '## Method',
      '',
      `${fmt(idleSockets)} users seeded signed in; the server (no profiler) idle, then its RSS (VmRSS, the median of five readings a second apart, summed over instances) and V8 heap used (/metrics) with no socket; then ${fmt(idleSockets)} sockets connect (WebSocket, \`feeds: true\`, ${fmt(connectRate)}/s, from ${workerCount} generator processes) and do nothing; once the server is idle again and 10 s later, the same readings. Per socket: the difference divided by the sockets connected. RSS also holds garbage V8 has not collected yet and heap it keeps for later, so it is an upper bound; the heap figure is the live objects plus that garbage.`,
    ]);
  } finally {
    await stopWorkers(workers);
    await system.stopProcesses();
    await system.cleanUp();
  }
}

try {
  if (idleSockets > 0) await runIdle();
  else await runSteps();
  process.exit(0);
} catch (error) {
  console.error(error);
  process.exit(1);
}
