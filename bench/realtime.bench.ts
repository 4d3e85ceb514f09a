/**
 * Deal chat fan-out at a fixed rate (REALTIME_RATE, default 500 messages/s, open loop): delivery latency (HTTP send →
 * receipt by every socket of every participant), next to a bare Socket.IO
 * server relaying the same fan-out (no HTTP, no auth, no database) measured in
 * the same run, so the ratios mean something on a noisy machine.
 *
 *   node --import tsx bench/realtime.bench.ts
 *
 * One instance on the embedded database; with DATABASE_URL and REDIS_URL also
 * two instances sharing PostgreSQL and Redis (against two bare servers joined
 * by the same Redis adapter). Fixed seed, loopback only, well under a minute.
 * The product runs as the built server in its own process(es), as in production;
 * the clients (and the bare baseline servers, whose work is negligible) share
 * this one.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { io as connect, type Socket } from 'socket.io-client';
import type { Message } from '../contract/messages';
import type { ServerEvents } from '../contract/realtime';
import { type Database, openDatabase } from '../server/db/client';
import { deals, sessions, users } from '../server/db/schema';
import { TokenSigner } from '../server/features/auth/tokens';
import { dropDatabase, withAdmin, withDatabase } from '../server/test/test-database';
import { freePort, startBuiltServer, stop, waitIdle } from './processes';
import { openTemporaryEmbedded } from './temp-embedded';

const seed = 42;
const dealCount = 200;
/** Creator, counterpart and dealmaker: a deal has no more participants. */
const participantsPerDeal = 3;
/** Share of participants with a second socket (a second tab). */
const secondSocketShare = 2 / 3;
/** Messages sent per second through the API (open loop: each on time, whatever the others did). */
const rate = Number(process.env.REALTIME_RATE ?? 500);
/** Sending connections (HTTP clients or, for the baseline, sockets) the messages are spread over. */
const senderCount = 16;
/**
 * Discarded, and reported apart ("warm-up p99"): freshly started instances run their HTTP path for the
 * first time at full rate (code not yet optimised, each user's session read once), fall behind by up to
 * ~1 s and, two instances sharing two cores with PostgreSQL, Redis and these clients, take ~6 s to catch
 * up. A 0.5 s warm-up let that into the window: p99 swung from 200 ms to 2 s while the rest of the run
 * stayed under 40 ms.
 */
const warmupMs = 8_000;
const measureMs = 5_000;
const deliveryTimeoutMs = 10_000;
const jwtSecret = 'realtime-bench-secret-0123456789-abcdef';
const userCount = dealCount * participantsPerDeal;

/** Small seeded PRNG (mulberry32): the same workload on every run. */
function random(seedValue: number) {
  let state = seedValue >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rng = random(seed);
/** Sockets per user (index = user index), and the planned messages: which deal, which participant sends. */
const socketsPerUser = Array.from({ length: userCount }, () => (rng() < secondSocketShare ? 2 : 1));
const plan = Array.from({ length: 100_000 }, () => ({
  deal: Math.floor(rng() * dealCount),
  sender: Math.floor(rng() * participantsPerDeal),
}));
const socketCount = socketsPerUser.reduce((sum, count) => sum + count, 0);
const participantsOf = (deal: number) =>
  Array.from({ length: participantsPerDeal }, (_, role) => deal * participantsPerDeal + role);
const socketsOfDeal = (deal: number) =>
  participantsOf(deal).reduce((sum, user) => sum + socketsPerUser[user]!, 0);

/** What a run needs from a system under test. */
type Target = {
  urls: string[];
  /** Handshake auth of a user's sockets. */
  auth(user: number): Record<string, unknown>;
  /** The product's server processes (none for the baseline, which runs in this one). */
  pids: number[];
  /** Sends one message; resolves when the sender's call is answered. */
  send(worker: number, deal: number, sender: number, clientId: string): Promise<void>;
  close(): Promise<void>;
};

type Result = {
  messagesPerSecond: number;
  p50: number;
  p99: number;
  /** p99 of the discarded warm-up: how a just-started instance does. */
  coldP99: number;
  delivered: number;
  lost: number;
};

async function connectAll(target: Target) {
  const sockets: Socket[] = [];
  const pending = new Map<string, { remaining: number; done: () => void }>();
  const users = Array.from({ length: userCount }, (_, user) => user);
  for (let from = 0; from < users.length; from += 50) {
    await Promise.all(
      users.slice(from, from + 50).flatMap((user) =>
        Array.from({ length: socketsPerUser[user]! }, async (_, copy) => {
          const socket = connect(target.urls[(user + copy) % target.urls.length]!, {
            transports: ['websocket'],
            auth: target.auth(user),
            reconnection: false,
            forceNew: true,
          });
          await new Promise<void>((resolve, reject) => {
            socket.once('connect', resolve);
            socket.once('connect_error', reject);
          });
          // As the web app does on a deal's page (messages themselves go to the user rooms).
          const deal = Math.floor(user / participantsPerDeal);
          const joined = await socket.timeout(5_000).emitWithAck('join-deal-room', deal + 1);
          if (!joined.ok) throw new Error(`join-deal-room refused: ${JSON.stringify(joined)}`);
          socket.on('message-updated', (event: ServerEvents['message-updated']) => {
            const entry = pending.get(event.messageData.clientId ?? '');
            if (entry && --entry.remaining === 0) entry.done();
          });
          sockets.push(socket);
        }),
      ),
    );
  }
  return { sockets, pending };
}

async function measure(target: Target): Promise<Result> {
  const { sockets, pending } = await connectAll(target);
  // A thousand handshakes keep the servers busy for a while after the last one is answered: the run
  // starts once they are idle again, as every benchmark here does between runs.
  for (const pid of target.pids) await waitIdle(pid);
  const begin = performance.now();
  const measureFrom = begin + warmupMs;
  const end = measureFrom + measureMs;
  const latencies: number[] = [];
  const coldLatencies: number[] = [];
  let delivered = 0;
  let lost = 0;
  const runId = randomBytes(4).toString('hex');

  /** One message, due at `due`: its latency counts from then, so a sender that falls behind shows it. */
  async function sendOne(index: number, due: number) {
    const planned = plan[index]!;
    const clientId = `${runId}-${index}`;
    const fannedOut = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), deliveryTimeoutMs);
      pending.set(clientId, {
        remaining: socketsOfDeal(planned.deal),
        done: () => {
          clearTimeout(timer);
          resolve(true);
        },
      });
    });
    await target.send(index % senderCount, planned.deal, planned.sender, clientId).catch(() => undefined);
    const ok = await fannedOut;
    const finished = performance.now();
    pending.delete(clientId);
    if (!ok) {
      lost++;
      return;
    }
    // Throughput: fan-outs completed in the window; latency: of every message due in it.
    if (finished >= measureFrom && finished <= end) delivered++;
    if (due >= measureFrom && due < end) latencies.push(finished - due);
    else if (due < measureFrom) coldLatencies.push(finished - due);
  }

  // Open loop: message i is due at begin + i / rate, whatever happened to the ones before it.
  const sends: Promise<void>[] = [];
  for (let index = 0; index < plan.length; index++) {
    const due = begin + (index * 1000) / rate;
    if (due >= end) break;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    sends.push(sendOne(index, due));
  }
  await Promise.all(sends);
  for (const socket of sockets) socket.disconnect();
  const quantile = (values: number[], q: number) => {
    values.sort((x, y) => x - y);
    return values[Math.min(values.length - 1, Math.floor(q * values.length))] ?? Number.NaN;
  };
  return {
    messagesPerSecond: delivered / (measureMs / 1000),
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    coldP99: quantile(coldLatencies, 0.99),
    delivered,
    lost,
  };
}

/** Bare Socket.IO servers: user rooms, a deal-to-participants map in memory, a `send` event relayed to the participants. */
async function bareTarget(instances: number, redisUrl?: string): Promise<Target> {
  const redisKey = `bench-bare-${randomUUID()}`;
  const redisClients: Redis[] = [];
  const servers = await Promise.all(
    Array.from({ length: instances }, async () => {
      const httpServer = http.createServer();
      const io = new Server(httpServer, { serveClient: false });
      if (redisUrl) {
        const pub = new Redis(redisUrl);
        const sub = pub.duplicate();
        redisClients.push(pub, sub);
        io.adapter(createAdapter(pub, sub, { key: redisKey }));
      }
      let sequence = 0;
      io.on('connection', (socket) => {
        const user = Number(socket.handshake.auth.user);
        void socket.join(`user:${user}`);
        socket.on('join-deal-room', (deal: number, ack: (answer: { ok: boolean }) => void) => {
          void socket.join(`deal:${deal}`);
          ack({ ok: true });
        });
        socket.on('send', (input: { deal: number; sender: number; clientId: string }, ack: () => void) => {
          const messageData: Message = {
            id: ++sequence,
            dealId: input.deal + 1,
            content: `Message ${input.clientId}`,
            createdAt: new Date().toISOString(),
            senderId: input.sender,
            sender: { id: input.sender, username: `user${input.sender}`, full_name: `User ${input.sender}` },
            senderUsername: `user${input.sender}`,
            clientId: input.clientId,
          };
          io.to(participantsOf(input.deal).map((participant) => `user:${participant}`)).emit(
            'message-updated',
            {
              dealId: messageData.dealId,
              messageData,
              updateType: 'sent',
            },
          );
          ack();
        });
      });
      await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
      return { io, url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}` };
    }),
  );
  const urls = servers.map((server) => server.url);
  // One sending socket per worker, beside the participants' sockets.
  const senders = await Promise.all(
    Array.from({ length: senderCount }, async (_, worker) => {
      const socket = connect(urls[worker % urls.length]!, {
        transports: ['websocket'],
        auth: { user: -1 - worker },
        forceNew: true,
      });
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      return socket;
    }),
  );
  return {
    urls,
    pids: [],
    auth: (user) => ({ user }),
    async send(worker, deal, sender, clientId) {
      await senders[worker]!.timeout(deliveryTimeoutMs).emitWithAck('send', {
        deal,
        sender: participantsOf(deal)[sender],
        clientId,
      });
    },
    async close() {
      for (const socket of senders) socket.disconnect();
      await Promise.all(
        servers.map((server) => new Promise<void>((resolve) => server.io.close(() => resolve()))),
      );
      await Promise.all(redisClients.map((client) => client.quit()));
    },
  };
}

/** The product: users and deals inserted directly, messages sent over HTTP, events through its Socket.IO. */
async function dealmakerTarget(
  instances: number,
  database: Database & { url: string },
  redisUrl?: string,
): Promise<Target> {
  const signer = new TokenSigner(jwtSecret);
  const runId = randomBytes(4).toString('hex');
  const userRows = await database.db
    .insert(users)
    .values(
      Array.from({ length: userCount }, (_, user) => ({
        username: `bench_${runId}_${user}`,
        email: `bench_${runId}_${user}@example.test`,
        fullName: `Bench User ${user}`,
        passwordHash: 'not-a-password-hash',
        verifiedAt: new Date(),
      })),
    )
    .returning({ id: users.id, username: users.username, email: users.email });
  const dealRows = await database.db
    .insert(deals)
    .values(
      Array.from({ length: dealCount }, (_, deal) => {
        const [creator, counterpart, dealmaker] = participantsOf(deal).map((user) => userRows[user]!.id);
        return {
          title: `Bench deal ${deal}`,
          description: 'A deal for the realtime benchmark',
          budgetCents: 100_000,
          timeline: '1 week',
          creatorId: creator!,
          counterpartId: counterpart!,
          dealmakerId: dealmaker!,
        };
      }),
    )
    .returning({ id: deals.id });
  if (dealRows.some((row, index) => row.id !== index + 1))
    throw new Error('expected deal ids 1…n in a fresh database');
  // Each bench user is signed in once: a token is good only with its open session.
  const sessionRows = await database.db
    .insert(sessions)
    .values(
      userRows.map((row) => ({
        id: `bench-session-${row.id}`,
        userId: row.id,
        expiresAt: new Date(Date.now() + 24 * 3_600_000),
        device: 'Benchmark client',
      })),
    )
    .returning({ id: sessions.id, expiresAt: sessions.expiresAt });
  const tokens = await Promise.all(
    userRows.map((row, index) => signer.sign({ ...row, tokenVersion: 0 }, sessionRows[index]!)),
  );

  // Each instance is the built server in its own process, as in production: the clients here do not
  // share its event loop.
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dealmaker-realtime-bench-'));
  const servers: Array<{ child: ChildProcess; url: string }> = [];
  // BENCH_PROFILE_DIR=<dir>: each server runs under `node --cpu-prof` and leaves its profile there.
  const profiling = process.env.BENCH_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE_DIR)}`]
    : [];
  for (let index = 0; index < instances; index++) {
    const port = await freePort();
    const child = await startBuiltServer(
      {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: path.join(dataDir, String(index)),
        DATABASE_URL: database.url,
        ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
        JWT_SECRET: jwtSecret,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
        // The senders flood their chats on purpose: lift the per-user limit a person never meets.
        RATE_LIMITS: JSON.stringify({ messagesPerUser: { points: 1_000_000_000, seconds: 60 } }),
      },
      profiling,
    );
    servers.push({ child, url: `http://127.0.0.1:${port}` });
  }
  const urls = servers.map((server) => server.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: senderCount });
  return {
    urls,
    pids: servers.map((server) => server.child.pid!),
    auth: (user) => ({ token: tokens[user] }),
    async send(worker, deal, sender, clientId) {
      const user = participantsOf(deal)[sender]!;
      const { status, text } = await postJson(
        agent,
        `${urls[worker % urls.length]}/api/messages/send`,
        tokens[user]!,
        { dealId: deal + 1, content: `Message ${clientId}`, clientId },
      );
      if (status !== 201) throw new Error(`send answered ${status}: ${text}`);
    },
    async close() {
      agent.destroy();
      for (const server of servers) await stop(server.child);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One POST over a kept-alive connection. node:http rather than fetch: fetch costs the load generator
 * several times more CPU per request, and on two cores that CPU is taken from the server measured.
 */
function postJson(agent: http.Agent, url: string, token: string, body: unknown) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const payload = JSON.stringify(body);
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

async function postgresDatabase(adminUrl: string) {
  const name = `dealmaker_bench_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = withDatabase(adminUrl, name);
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 30 });
  return {
    ...database,
    url,
    close: async () => {
      await database.close();
      await dropDatabase(adminUrl, name);
    },
  };
}

async function run(name: string, start: () => Promise<Target>) {
  console.error(`measuring: ${name}`);
  const target = await start();
  try {
    return await measure(target);
  } finally {
    await target.close();
  }
}

type Row = { setup: string; baseline: Result; ours: Result };

async function main() {
  const started = performance.now();
  const rows: Row[] = [];

  const baseline1 = await run('bare Socket.IO, 1 instance', () => bareTarget(1));
  const embedded = await openTemporaryEmbedded();
  try {
    rows.push({
      setup: '1 instance, embedded database',
      baseline: baseline1,
      ours: await run('Dealmaker, 1 instance, embedded database', () => dealmakerTarget(1, embedded)),
    });
  } finally {
    await embedded.close();
  }

  const { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl } = process.env;
  if (databaseUrl && redisUrl) {
    const baseline2 = await run('bare Socket.IO, 2 instances + Redis', () => bareTarget(2, redisUrl));
    const shared = await postgresDatabase(databaseUrl);
    try {
      rows.push({
        setup: '2 instances, PostgreSQL + Redis',
        baseline: baseline2,
        ours: await run('Dealmaker, 2 instances, PostgreSQL + Redis', () =>
          dealmakerTarget(2, shared, redisUrl),
        ),
      });
    } finally {
      await shared.close();
    }
  }

  const number = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
  const line = (cells: string[], widths: number[]) =>
    cells
      .map((cell, index) => (index === 0 ? cell.padEnd(widths[index]!) : cell.padStart(widths[index]!)))
      .join('  ');
  const widths = [44, 9, 9, 9, 10, 5, 13];
  console.log(
    `\nDeal chat fan-out: ${dealCount} deals × ${participantsPerDeal} participants, ${socketCount} sockets, ` +
      `${rate} messages/s sent over ${senderCount} connections (open loop), ${measureMs / 1000} s measured after ${warmupMs / 1000} s of warm-up (discarded; its p99 last), seed ${seed}\n`,
  );
  console.log(line(['', 'msgs/s', 'p50 ms', 'p99 ms', 'delivered', 'lost', 'warm-up p99'], widths));
  for (const row of rows) {
    console.log(`${row.setup}`);
    for (const [label, result] of [
      ['  bare Socket.IO relay (baseline)', row.baseline],
      ['  Dealmaker (HTTP send + database + auth)', row.ours],
    ] as const) {
      console.log(
        line(
          [
            label,
            number(result.messagesPerSecond, 0),
            number(result.p50, 2),
            number(result.p99, 2),
            String(result.delivered),
            String(result.lost),
            number(result.coldP99, 1),
          ],
          widths,
        ),
      );
    }
    console.log(
      line(
        [
          '  ratio Dealmaker / baseline',
          `${number(row.ours.messagesPerSecond / row.baseline.messagesPerSecond, 2)}x`,
          `${number(row.ours.p50 / row.baseline.p50, 2)}x`,
          `${number(row.ours.p99 / row.baseline.p99, 2)}x`,
          '',
          '',
          '',
        ],
        widths,
      ),
    );
  }
  if (!(databaseUrl && redisUrl))
    console.log('\n(set DATABASE_URL and REDIS_URL to also measure two instances)');
  console.log(`\ntotal ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const lost = rows.some((row) => row.ours.lost > 0 || row.baseline.lost > 0);
  // Keep-alive HTTP connections would hold the process open a while longer.
  process.exit(lost ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
