import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client';
import { auditLedger } from '../test/ledger-audit';
import { dropDatabase, testAdminUrl, withAdmin, withDatabase } from '../test/test-database';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const haproxyConfig = path.join(root, 'deploy/haproxy.cfg');

/** The instances' SHUTDOWN_TIMEOUT_SECONDS: a stopping instance must be gone within it. */
const shutdownTimeoutSeconds = 10;
/** How long the workload runs before the first restart, between restarts and after the last one. */
const quietWorkloadMs = 3_000;
/** Between a user's steps: a busy marketplace, not a flood that starves the two cores the instances share. */
const pauseMs = 100;
/** A call that failed and carries an Idempotency-Key (or a chat message's clientId) is sent again, this often at most. */
const maxAttempts = 20;

type Instance = {
  name: 'app1' | 'app2' | 'app3';
  port: number;
  url: string;
  dataDir: string;
  log: string;
  child: ChildProcess;
};
type User = { id: number; username: string; email: string; password: string; token: string };
type Team = { creator: User; counterpart: User; dealmaker: User };

/** One restart as it happened. */
type Restart = {
  instance: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stopMs: number;
  startMs: number;
  /** From the new process being healthy to HAProxy's check marking it UP. */
  upInHaproxyMs: number;
};

/** A call that got no answer, or a 5xx. */
type FailedCall = {
  phase: string;
  method: string;
  path: string;
  status?: number;
  error?: string;
  /** The Idempotency-Key or clientId the call was sent again with; none: not safely retryable. */
  retryKey?: string;
};

/**
 * Three real server processes (`server/index.ts`, as `npm start` runs it) on one PostgreSQL database and
 * one Redis, behind the real HAProxy running deploy/haproxy.cfg, as docs/deployment.md deploys them. A
 * mixed workload runs through HAProxy the whole time — sign-ins, deals, bids, a dealmaker selected by
 * both dealers, deposits and escrow payments with Idempotency-Keys, chat with sockets connected through
 * HAProxy (WebSocket, and one on HTTP long-polling, which needs HAProxy's sticky cookie) — while each
 * instance in turn gets SIGTERM, exits, starts again and is taken back by HAProxy. Afterwards: every
 * acknowledged write is there, every socket's user has every message of their deals exactly once (live,
 * or caught up from the deal's timeline after a reconnection, as the web app does), the ledger check
 * passes, and the only failed calls are ones sent again with the same Idempotency-Key (or clientId).
 *
 * Needs HAProxy (`apt-get install -y haproxy`; without it the test fails, it is not skipped). Runs when
 * REDIS_URL is set, on the run's PostgreSQL (DATABASE_URL, or the embedded server), as the two-process
 * test does:
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 \
 *     npx vitest run --project server server/ops/rolling-restart.test.ts
 */
describe.skipIf(!process.env.REDIS_URL)('three instances behind HAProxy, restarted one by one', () => {
  const adminUrl = testAdminUrl();
  const redisUrl = process.env.REDIS_URL!;
  const suffix = randomBytes(4).toString('hex');
  const databaseName = `dealmaker_rolling_${suffix}`;
  const databaseUrl = withDatabase(adminUrl, databaseName);
  const redisPrefix = `dealmaker-rolling-${suffix}`;
  const secrets = { jwt: randomBytes(32).toString('hex'), encryption: randomBytes(32).toString('hex') };
  const instances: Instance[] = [];
  let workFolder = '';
  let haproxy: { child: ChildProcess; url: string; statsUrl: string; log: string } | undefined;
  /** Every process the test started, by pid: stopped at the end whatever happened. */
  const children: ChildProcess[] = [];
  /** What the test leaves running if it fails midway (its workload, its sockets). */
  const cleanups: Array<() => void> = [];

  beforeAll(async () => {
    const version = haproxyVersion();
    workFolder = await mkdtemp(path.join(os.tmpdir(), 'dealmaker-rolling-'));
    await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${databaseName}`));
    const ports = await freePorts(3500, 3599, 3);
    const [publicPort, statsPort] = await freePorts(3600, 3649, 2);
    const publicUrl = `http://127.0.0.1:${publicPort}`;
    // Started together: the migrations run once, under their advisory lock.
    await Promise.all(
      (['app1', 'app2', 'app3'] as const).map(async (name, index) => {
        const instance = await startInstance(name, ports[index]!, publicUrl);
        instances[index] = instance;
      }),
    );
    haproxy = await startHaproxy(publicPort!, statsPort!);
    const { child, log } = haproxy;
    await waitUntil(
      async () => (await haproxyStates()).filter((state) => state.status === 'UP').length === 3,
      20_000,
      async () =>
        `${child.exitCode === null ? 'HAProxy did not see the three instances UP' : `HAProxy exited (${child.exitCode})`} (${version}):\n${await tail(log)}`,
      () => child.exitCode !== null,
    );
  }, 120_000);

  afterAll(async () => {
    for (const cleanup of cleanups) cleanup();
    if (haproxy) await stopProcess(haproxy.child, 5_000);
    await Promise.all(children.map((child) => stopProcess(child, 15_000)));
    await dropDatabase(adminUrl, databaseName).catch(() => undefined);
    await forgetRedisKeys(redisUrl, redisPrefix).catch(() => undefined);
    if (workFolder) await rm(workFolder, { recursive: true, force: true });
  }, 60_000);

  function instanceEnvironment(instance: { port: number; dataDir: string }, publicUrl: string) {
    return {
      ...process.env,
      PORT: String(instance.port),
      HOST: '127.0.0.1',
      DATA_DIR: instance.dataDir,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: redisPrefix,
      JWT_SECRET: secrets.jwt,
      ENCRYPTION_KEY: secrets.encryption,
      PUBLIC_URL: publicUrl,
      TRUST_PROXY: 'true',
      SHUTDOWN_TIMEOUT_SECONDS: String(shutdownTimeoutSeconds),
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      // Everyone comes from 127.0.0.1 through HAProxy, and users here write faster than people do.
      RATE_LIMITS: JSON.stringify({
        registrationsPerAddress: { points: 1000, seconds: 3600 },
        dealsPerUser: { points: 10_000, seconds: 3600 },
        bidsPerUser: { points: 10_000, seconds: 3600 },
        messagesPerUser: { points: 10_000, seconds: 60 },
      }),
    };
  }

  async function startInstance(name: Instance['name'], port: number, publicUrl: string): Promise<Instance> {
    const dataDir = path.join(workFolder, name);
    const log = path.join(workFolder, `${name}.log`);
    const child = spawnLogged(
      process.execPath,
      ['--import', 'tsx', 'server/index.ts'],
      instanceEnvironment({ port, dataDir }, publicUrl),
      log,
    );
    children.push(child);
    const instance = { name, port, url: `http://127.0.0.1:${port}`, dataDir, log, child };
    await waitUntil(
      async () => (await fetch(`${instance.url}/api/health`).catch(() => undefined))?.ok === true,
      60_000,
      async () => `${name} did not become healthy within 60 s:\n${await tail(log)}`,
      () => child.exitCode !== null,
    );
    return instance;
  }

  async function startHaproxy(port: number, statsPort: number) {
    const log = path.join(workFolder, 'haproxy.log');
    const env = {
      ...process.env,
      HAPROXY_BIND: `127.0.0.1:${port}`,
      HAPROXY_STATS_BIND: `127.0.0.1:${statsPort}`,
      HAPROXY_ADMIN_SOCKET: path.join(workFolder, 'haproxy-admin.sock'),
      HAPROXY_USER: os.userInfo().username,
      HAPROXY_GROUP: execFileSync('id', ['-gn'], { encoding: 'utf8' }).trim(),
      DEALMAKER_1: `127.0.0.1:${instances[0]!.port}`,
      DEALMAKER_2: `127.0.0.1:${instances[1]!.port}`,
      DEALMAKER_3: `127.0.0.1:${instances[2]!.port}`,
    };
    try {
      execFileSync('haproxy', ['-c', '-q', '-f', haproxyConfig], { env, stdio: 'pipe' });
    } catch (error) {
      const output = (error as { stderr?: Buffer }).stderr?.toString() ?? String(error);
      throw new Error(`deploy/haproxy.cfg does not pass \`haproxy -c\`:\n${output}`);
    }
    const child = spawnLogged('haproxy', ['-db', '-f', haproxyConfig], env, log);
    return { child, url: `http://127.0.0.1:${port}`, statsUrl: `http://127.0.0.1:${statsPort}`, log };
  }

  /** The state HAProxy's checks give each instance (backend `dealmaker`), from its stats page. */
  async function haproxyStates(): Promise<Array<{ name: string; status: string; sessions: number }>> {
    const response = await fetch(`${haproxy!.statsUrl}/stats;csv`).catch(() => undefined);
    if (!response?.ok) return [];
    const [header, ...rows] = (await response.text()).trim().split('\n');
    const columns = header!.replace(/^# /, '').split(',');
    const column = (row: string[], name: string) => row[columns.indexOf(name)] ?? '';
    return rows
      .map((line) => line.split(','))
      .filter((row) => column(row, 'pxname') === 'dealmaker' && /^app\d$/.test(column(row, 'svname')))
      .map((row) => ({
        name: column(row, 'svname'),
        status: column(row, 'status'),
        sessions: Number(column(row, 'stot')),
      }));
  }

  it('loses nothing while each instance is restarted under a mixed workload', async () => {
    const base = haproxy!.url;
    let phase = 'before the restarts';
    /** Where each phase begins in HAProxy's log. */
    const logMarks = [{ phase, offset: 0 }];
    const enterPhase = async (next: string) => {
      phase = next;
      logMarks.push({ phase, offset: (await stat(haproxy!.log)).size });
    };
    const failedCalls: FailedCall[] = [];
    /** Answers the workload did not expect (a 4xx where a 2xx was due): the workload's own mistakes. */
    const unexpected: string[] = [];

    type Answer = { status: number; body: any };
    /**
     * One call through HAProxy. No answer, or a 5xx, is a failed call: a call with an Idempotency-Key
     * (or a chat message with its clientId) is sent again with the same key until it is answered; any
     * other failed call stays failed.
     */
    async function call(
      method: string,
      route: string,
      options: {
        token?: string;
        body?: unknown;
        idempotencyKey?: string;
        retryKey?: string;
        headers?: Record<string, string>;
      } = {},
    ): Promise<Answer | undefined> {
      const retryKey = options.idempotencyKey ?? options.retryKey;
      for (let attempt = 1; ; attempt++) {
        let failure: FailedCall;
        try {
          const response = await fetch(`${base}${route}`, {
            method,
            headers: {
              accept: 'application/json',
              ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
              ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
              ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
              ...options.headers,
            },
            body: options.body === undefined ? undefined : JSON.stringify(options.body),
            signal: AbortSignal.timeout(20_000),
          });
          const text = await response.text();
          const body =
            text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
          if (response.status < 500) return { status: response.status, body };
          failure = { phase, method, path: route, status: response.status, error: text.slice(0, 200) };
        } catch (error) {
          failure = { phase, method, path: route, error: describeError(error) };
        }
        failedCalls.push({ ...failure, ...(retryKey ? { retryKey } : {}) });
        if (!retryKey || attempt >= maxAttempts) return undefined;
        await sleep(250);
      }
    }

    /** A call that must answer `status`; anything else ends the step (and is reported). */
    async function expectCall(
      status: number,
      method: string,
      route: string,
      options: Parameters<typeof call>[2] = {},
    ): Promise<any> {
      const answer = await call(method, route, options);
      if (!answer) {
        const last = failedCalls.at(-1);
        throw new StepAbandoned(`${method} ${route} failed: ${last?.status ?? ''} ${last?.error ?? ''}`);
      }
      if (answer.status !== status) {
        const what = `${method} ${route}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`;
        unexpected.push(what);
        throw new StepAbandoned(what);
      }
      return answer.body;
    }

    // --- Users: signed up, verified and signed in through HAProxy --------------------------------------
    async function signUp(label: string): Promise<User> {
      const username = `${label}_${suffix}`;
      const email = `${username}@example.test`;
      const password = 'correct horse battery';
      await expectCall(201, 'POST', '/api/auth/register', {
        body: { username, email, password, full_name: `User ${username}` },
      });
      // Without SMTP the instance that registered the user wrote the mail into its own DATA_DIR.
      const link = await waitFor(() => verificationLink(email), 10_000, `no verification mail to ${email}`);
      await expectCall(200, 'GET', new URL(link).pathname);
      const login = await expectCall(200, 'POST', '/api/auth/login', { body: { username, password } });
      return { id: login.user.id, username, email, password, token: login.token };
    }
    async function verificationLink(email: string): Promise<string | undefined> {
      for (const instance of instances) {
        const folder = path.join(instance.dataDir, 'mail');
        const files = await readdir(folder).catch(() => [] as string[]);
        for (const file of files) {
          const mail = JSON.parse(await readFile(path.join(folder, file), 'utf8'));
          if (mail.to === email) return mail.link;
        }
      }
      return undefined;
    }

    const teams: Team[] = [];
    for (let t = 0; t < 3; t++) {
      const [creator, counterpart, dealmaker] = await Promise.all(
        ['creator', 'counterpart', 'dealmaker'].map((role) => signUp(`${role}${t}`)),
      );
      teams.push({ creator: creator!, counterpart: counterpart!, dealmaker: dealmaker! });
    }
    const outsider = await signUp('bidder');

    // HAProxy tells the instances who is calling: the address it saw (never the one the client claims)
    // and a request id (the caller's own, or one it makes), which comes back in the answer.
    const spoofed = await expectCall(200, 'POST', '/api/auth/login', {
      body: { username: outsider.username, password: outsider.password },
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    const sessions = await expectCall(200, 'GET', '/api/auth/sessions', { token: spoofed.token });
    expect(sessions.find((session: { current: boolean }) => session.current)?.address).toBe('127.0.0.1');
    const given = await fetch(`${base}/api/health`, { headers: { 'x-request-id': 'rolling-check-0001' } });
    expect(given.headers.get('x-request-id')).toBe('rolling-check-0001');
    const made = await fetch(`${base}/api/health`, { headers: { 'x-request-id': 'bad id' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9A-F]{16,}$/);
    const everyone = [...teams.flatMap((team) => [team.creator, team.counterpart, team.dealmaker]), outsider];

    // --- What was acknowledged ---------------------------------------------------------------------------
    const acknowledged = {
      deals: new Map<
        number,
        {
          title: string;
          creator: User;
          counterpart?: User;
          dealmaker?: User;
          joined: boolean;
          finalized: boolean;
        }
      >(),
      bids: [] as Array<{ id: number; dealId: number; bidder: User }>,
      deposits: [] as Array<{ user: User; key: string; transactionId: number; amount: number }>,
      halves: [] as Array<{ user: User; dealId: number; key: string; role: 'creator' | 'counterpart' }>,
      messages: [] as Array<{ id: number; dealId: number; content: string; sender: User }>,
      signIns: [] as Array<{ user: User; token: string }>,
    };
    const dealsOf = (user: User) =>
      [...acknowledged.deals.entries()]
        .filter(
          ([, deal]) => deal.finalized && [deal.creator, deal.counterpart, deal.dealmaker].includes(user),
        )
        .map(([id]) => id);

    // --- Sockets through HAProxy, each counting the chat messages it receives ----------------------------
    const clients = [
      ...everyone.map((user) => new ChatClient(base, user, ['websocket'])),
      // A second tab of one creator on HTTP long-polling: only HAProxy's cookie keeps its requests on one instance.
      new ChatClient(base, teams[0]!.creator, ['polling']),
    ];
    /** A deal's chat messages, read from its timeline (newest first, page after page) as `viewer`. */
    async function timelineMessages(dealId: number, viewer: User) {
      const messages: Array<{ id: number; content: string }> = [];
      let before: number | undefined;
      for (;;) {
        const page = await expectCall(
          200,
          'GET',
          `/api/deals/${dealId}/timeline?limit=100${before ? `&before=${before}` : ''}`,
          { token: viewer.token },
        );
        messages.push(...page.items.filter((item: { type: string }) => item.type === 'message'));
        if (page.items.length < 100) return messages;
        before = page.items.at(-1).id;
      }
    }
    for (const client of clients) {
      client.catchUp = async () => {
        for (const dealId of dealsOf(client.user)) {
          for (const message of await timelineMessages(dealId, client.user)) client.caughtUp(message.id);
        }
      };
    }
    cleanups.push(() => {
      for (const client of clients) client.close();
    });
    await Promise.all(clients.map((client) => client.connect()));

    // --- The workload ------------------------------------------------------------------------------------
    let stopping = false;
    cleanups.push(() => {
      stopping = true;
    });
    let dealNumber = 0;
    let keyNumber = 0;
    const newKey = (what: string) => `${what}-${suffix}-${++keyNumber}`;

    async function oneDeal(team: Team) {
      const { creator, counterpart, dealmaker } = team;
      const title = `Deal ${++dealNumber} of ${creator.username}`;
      const deal = await expectCall(201, 'POST', '/api/deals/create-deal', {
        token: creator.token,
        body: { title, description: 'Across a rolling restart', budget: 100, timeline: '1 week' },
      });
      const record = { title, creator, counterpart, dealmaker, joined: false, finalized: false };
      acknowledged.deals.set(deal.id, record);
      await expectCall(200, 'PUT', `/api/deals/join-deal-as-dealer/${deal.id}`, { token: counterpart.token });
      record.joined = true;
      const bid = await expectCall(201, 'POST', '/api/bidding/create', {
        token: dealmaker.token,
        body: { dealId: deal.id, price: 40 },
      });
      acknowledged.bids.push({ id: bid.id, dealId: deal.id, bidder: dealmaker });
      // Another deal stays open with its bid (finalizing a deal removes the bids not selected).
      const openTitle = `Open deal ${++dealNumber} of ${outsider.username}`;
      const open = await expectCall(201, 'POST', '/api/deals/create-deal', {
        token: outsider.token,
        body: { title: openTitle, description: 'Stays open', budget: 80, timeline: '2 weeks' },
      });
      acknowledged.deals.set(open.id, {
        title: openTitle,
        creator: outsider,
        joined: false,
        finalized: false,
      });
      const openBid = await expectCall(201, 'POST', '/api/bidding/create', {
        token: dealmaker.token,
        body: { dealId: open.id, price: 70 },
      });
      acknowledged.bids.push({ id: openBid.id, dealId: open.id, bidder: dealmaker });
      await expectCall(200, 'PUT', `/api/bid-management/select-bid/${deal.id}/${bid.id}`, {
        token: creator.token,
      });
      const selected = await expectCall(200, 'PUT', `/api/bid-management/select-bid/${deal.id}/${bid.id}`, {
        token: counterpart.token,
      });
      if (selected.deal.dealmaker !== dealmaker.username) {
        unexpected.push(`deal ${deal.id} was not finalized with ${dealmaker.username}`);
        throw new StepAbandoned(unexpected.at(-1));
      }
      record.finalized = true;
      // Each dealer brings the money for their half (20 each of the 40) and pays it in.
      await Promise.all(
        (
          [
            [creator, 'creator'],
            [counterpart, 'counterpart'],
          ] as const
        ).map(async ([user, role]) => {
          const key = newKey('deposit');
          const deposit = await expectCall(200, 'POST', '/api/wallet/deposit', {
            token: user.token,
            body: { amount: 20 },
            idempotencyKey: key,
          });
          acknowledged.deposits.push({ user, key, transactionId: deposit.transaction.id, amount: 20 });
          const halfKey = newKey('half');
          await expectCall(200, 'POST', `/api/wallet/escrow/${deal.id}/lock`, {
            token: user.token,
            idempotencyKey: halfKey,
          });
          acknowledged.halves.push({ user, dealId: deal.id, key: halfKey, role });
        }),
      );
      // Everyone on the deal chats.
      for (let round = 0; round < 2 && !stopping; round++) {
        for (const sender of [creator, counterpart, dealmaker]) {
          const clientId = `m${suffix}${++keyNumber}`;
          const content = `Message ${clientId} from ${sender.username}`;
          const message = await expectCall(201, 'POST', '/api/messages/send', {
            token: sender.token,
            body: { dealId: deal.id, content, clientId },
            retryKey: clientId,
          });
          acknowledged.messages.push({ id: message.id, dealId: deal.id, content, sender });
          await sleep(pauseMs);
        }
      }
    }

    async function teamLoop(team: Team) {
      while (!stopping) {
        await oneDeal(team).catch(rethrowUnlessAbandoned);
        await sleep(pauseMs);
      }
    }
    async function signInLoop() {
      for (let n = 0; !stopping; n++) {
        const user = everyone[n % everyone.length]!;
        await expectCall(200, 'POST', '/api/auth/login', {
          body: { username: user.username, password: user.password },
        })
          .then((login) => acknowledged.signIns.push({ user, token: login.token }))
          .catch(rethrowUnlessAbandoned);
        await expectCall(200, 'GET', '/api/deals/all', { token: user.token }).catch(rethrowUnlessAbandoned);
        await expectCall(200, 'GET', '/api/wallet', { token: user.token }).catch(rethrowUnlessAbandoned);
        await sleep(pauseMs * 4);
      }
    }
    const workload = Promise.all([...teams.map(teamLoop), signInLoop()]);

    // --- The rolling restart -----------------------------------------------------------------------------
    const restarts: Restart[] = [];
    await sleep(quietWorkloadMs);
    const pollingClient = clients.at(-1)!;
    const pollingBeforeRestarts = { connected: pollingClient.connected, drops: pollingClient.drops.length };
    for (const [index, instance] of instances.entries()) {
      await enterPhase(`restart of ${instance.name}`);
      const stopStarted = performance.now();
      const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
        instance.child.once('exit', (code, signal) => resolve([code, signal])),
      );
      instance.child.kill('SIGTERM');
      const outcome = await Promise.race([
        exited,
        sleep((shutdownTimeoutSeconds + 10) * 1000, 'hung' as const),
      ]);
      let exit: [number | null, NodeJS.Signals | null];
      if (outcome === 'hung') {
        instance.child.kill('SIGKILL');
        exit = await exited;
      } else {
        exit = outcome;
      }
      const stopMs = performance.now() - stopStarted;
      const startStarted = performance.now();
      const restarted = await startInstance(instance.name, instance.port, base);
      instances[index] = restarted;
      const startMs = performance.now() - startStarted;
      const upStarted = performance.now();
      await waitUntil(
        async () => (await haproxyStates()).find((state) => state.name === instance.name)?.status === 'UP',
        30_000,
        () => `HAProxy did not see the restarted ${instance.name} UP within 30 s`,
      );
      restarts.push({
        instance: instance.name,
        exitCode: exit[0],
        signal: exit[1],
        stopMs: Math.round(stopMs),
        startMs: Math.round(startMs),
        upInHaproxyMs: Math.round(performance.now() - upStarted),
      });
      await sleep(quietWorkloadMs);
    }
    await enterPhase('after the restarts');
    stopping = true;
    await workload;

    // Every socket is connected again and has caught up; then the last events have time to arrive.
    await waitUntil(
      async () => clients.every((client) => client.connected && !client.catchingUp),
      30_000,
      () =>
        `sockets not connected again: ${clients
          .filter((client) => !client.connected)
          .map((client) => client.label)
          .join(', ')}`,
    );
    await sleep(1_000);

    // --- What is there afterwards, read back through HAProxy ---------------------------------------------
    const missing: string[] = [];
    for (const [dealId, deal] of acknowledged.deals) {
      const answer = await call('GET', `/api/deals/${dealId}`, { token: deal.creator.token });
      if (answer?.status !== 200) {
        missing.push(`deal ${dealId}: ${answer?.status}`);
        continue;
      }
      if (answer.body.title !== deal.title) missing.push(`deal ${dealId}: title ${answer.body.title}`);
      if (deal.joined && answer.body.dealer_joined !== deal.counterpart?.username) {
        missing.push(`deal ${dealId}: counterpart ${answer.body.dealer_joined}`);
      }
      if (deal.finalized && answer.body.dealmaker !== deal.dealmaker?.username) {
        missing.push(`deal ${dealId}: dealmaker ${answer.body.dealmaker}`);
      }
    }
    const bidsByDeal = new Map<number, number[]>();
    for (const bid of acknowledged.bids) {
      if (!bidsByDeal.has(bid.dealId)) {
        const { creator } = acknowledged.deals.get(bid.dealId)!;
        const answer = await call('GET', `/api/bidding/deal/${bid.dealId}`, { token: creator.token });
        bidsByDeal.set(
          bid.dealId,
          answer?.status === 200 ? answer.body.map((b: { id: number }) => b.id) : [],
        );
      }
      if (!bidsByDeal.get(bid.dealId)!.includes(bid.id)) missing.push(`bid ${bid.id} on deal ${bid.dealId}`);
    }
    for (const user of everyone) {
      const transactions = await allTransactions(user);
      const deposits = acknowledged.deposits.filter((deposit) => deposit.user === user);
      const halves = acknowledged.halves.filter((half) => half.user === user);
      for (const deposit of deposits) {
        if (!transactions.some((row) => row.id === deposit.transactionId && row.type === 'deposit')) {
          missing.push(`deposit ${deposit.key} (transaction ${deposit.transactionId}) of ${user.username}`);
        }
      }
      // Exactly once: as many movements as acknowledged calls, however often a call was sent.
      const depositRows = transactions.filter((row) => row.type === 'deposit').length;
      if (depositRows !== deposits.length) {
        missing.push(`${user.username}: ${depositRows} deposits for ${deposits.length} acknowledged`);
      }
      const lockRows = transactions.filter((row) => row.type === 'escrow_lock').length;
      if (lockRows !== halves.length) {
        missing.push(`${user.username}: ${lockRows} escrow payments for ${halves.length} acknowledged`);
      }
      const wallet = await call('GET', '/api/wallet', { token: user.token });
      const expected = deposits.reduce((sum, deposit) => sum + deposit.amount, 0) - halves.length * 20;
      if (wallet?.body.balance !== expected) {
        missing.push(`${user.username}: balance ${wallet?.body.balance}, expected ${expected}`);
      }
    }
    for (const half of acknowledged.halves) {
      const answer = await call('GET', `/api/wallet/escrow/${half.dealId}`, { token: half.user.token });
      const paid =
        half.role === 'creator' ? answer?.body.escrow?.creatorPaid : answer?.body.escrow?.counterpartPaid;
      if (paid !== true) missing.push(`escrow half of ${half.user.username} on deal ${half.dealId}`);
    }
    const messagesByDeal = new Map<number, Array<{ id: number; content: string }>>();
    for (const dealId of new Set(acknowledged.messages.map((message) => message.dealId))) {
      messagesByDeal.set(dealId, await timelineMessages(dealId, acknowledged.deals.get(dealId)!.creator));
    }
    for (const message of acknowledged.messages) {
      const stored = messagesByDeal.get(message.dealId)!.filter((item) => item.id === message.id);
      if (stored.length !== 1 || stored[0]!.content !== message.content) {
        missing.push(`message ${message.id} on deal ${message.dealId}`);
      }
    }
    for (const [dealId, stored] of messagesByDeal) {
      const sent = acknowledged.messages.filter((message) => message.dealId === dealId).length;
      if (stored.length !== sent) missing.push(`deal ${dealId}: ${stored.length} messages for ${sent} sent`);
    }
    for (const signIn of acknowledged.signIns) {
      const me = await call('GET', '/api/auth/me', { token: signIn.token });
      if (me?.status !== 200) missing.push(`sign-in of ${signIn.user.username}: /api/auth/me ${me?.status}`);
    }

    // --- Chat: each socket's user holds every message of their deals once ---------------------------------
    const chat = clients.map((client) => {
      const expectedIds = [...messagesByDeal.entries()]
        .filter(([dealId]) => dealsOf(client.user).includes(dealId))
        .flatMap(([, messages]) => messages.map((message) => message.id));
      const held = new Set([...client.live.keys(), ...client.caughtUpIds]);
      return {
        client: client.label,
        expected: expectedIds.length,
        live: expectedIds.filter((id) => client.live.has(id)).length,
        caughtUp: expectedIds.filter((id) => !client.live.has(id) && client.caughtUpIds.has(id)).length,
        missing: expectedIds.filter((id) => !held.has(id)),
        twiceOrMore: [...client.live.entries()].filter(([, times]) => times > 1).map(([id]) => id),
        notTheirs: [...client.live.keys()].filter((id) => !expectedIds.includes(id)),
        reconnections: client.connects - 1,
        drops: client.drops.join(', '),
        catchUpFailures: client.catchUpFailures,
      };
    });

    // --- The books ---------------------------------------------------------------------------------------
    const database = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 2 });
    const ledgerViolations = await auditLedger(database.db).finally(() => database.close());

    // --- Report ------------------------------------------------------------------------------------------
    const haproxyLog = await readFile(haproxy!.log);
    const retriedByPhase = new Map<string, number>();
    for (const failed of failedCalls.filter((f) => f.retryKey)) {
      retriedByPhase.set(failed.phase, (retriedByPhase.get(failed.phase) ?? 0) + 1);
    }
    const unsafe = failedCalls.filter((failed) => !failed.retryKey);
    const unresolvedKeys = new Set(
      failedCalls
        .filter((failed) => failed.retryKey)
        .map((failed) => failed.retryKey!)
        .filter((key) => failedCalls.filter((f) => f.retryKey === key).length >= maxAttempts),
    );
    console.info(
      [
        `Per instance, requests HAProxy sent it: ${(await haproxyStates())
          .map((state) => `${state.name} ${state.sessions}`)
          .join(', ')}`,
        `Acknowledged: ${acknowledged.deals.size} deals, ${acknowledged.bids.length} bids, ${acknowledged.deposits.length} deposits, ${acknowledged.halves.length} escrow halves, ${acknowledged.messages.length} messages, ${acknowledged.signIns.length} sign-ins`,
        'Restarts:',
        ...restarts.map((restart) => {
          const retried = retriedByPhase.get(`restart of ${restart.instance}`) ?? 0;
          return `  ${restart.instance}: exit ${restart.exitCode ?? restart.signal} after ${restart.stopMs} ms, healthy again after ${restart.startMs} ms, UP in HAProxy ${restart.upInHaproxyMs} ms later; failed calls sent again with the same key: ${retried}`;
        }),
        `Failed calls sent again with the same key, by phase: ${JSON.stringify(Object.fromEntries(retriedByPhase))}`,
        `Failed calls that could not be sent again safely: ${unsafe.length}`,
        "HAProxy's log, by phase:",
        ...logMarks.map(
          (mark, i) =>
            `  ${mark.phase}: ${summarizeHaproxyLog(haproxyLog.subarray(mark.offset, logMarks[i + 1]?.offset).toString())}`,
        ),
        'Chat per socket:',
        ...chat.map(
          (c) =>
            `  ${c.client}: ${c.expected} messages of its deals, ${c.live} live, ${c.caughtUp} caught up, ${c.missing.length} missing, ${c.twiceOrMore.length} twice; ${c.reconnections} reconnections${c.drops ? ` (${c.drops})` : ''}${c.catchUpFailures.length ? `; catch-ups failed: ${c.catchUpFailures.join(', ')}` : ''}`,
        ),
      ].join('\n'),
    );

    const details = async () =>
      [
        `HAProxy log:\n${await tail(haproxy!.log, 30)}`,
        ...(await Promise.all(instances.map(async (i) => `${i.name} log:\n${await tail(i.log, 15)}`))),
      ].join('\n\n');
    const logs = unsafe.length > 0 || restarts.some((r) => r.exitCode !== 0) ? await details() : '';

    expect(
      pollingBeforeRestarts,
      'the long-polling socket connects through HAProxy and stays on its instance (sticky cookie)',
    ).toEqual({ connected: true, drops: 0 });
    for (const restart of restarts) {
      expect
        .soft(
          {
            exitCode: restart.exitCode,
            withinShutdownTimeout: restart.stopMs <= shutdownTimeoutSeconds * 1000,
          },
          `${restart.instance} exits by itself with 0 after SIGTERM, within SHUTDOWN_TIMEOUT_SECONDS (${shutdownTimeoutSeconds} s); it took ${restart.stopMs} ms (signal ${restart.signal})\n${logs}`,
        )
        .toEqual({ exitCode: 0, withinShutdownTimeout: true });
    }
    expect
      .soft(unsafe, `calls that failed and carry no Idempotency-Key (nothing safe to send again)\n${logs}`)
      .toEqual([]);
    expect
      .soft([...unresolvedKeys], `calls still failing after ${maxAttempts} attempts with the same key`)
      .toEqual([]);
    expect.soft(unexpected, 'answers the workload did not expect').toEqual([]);
    expect.soft(missing, 'acknowledged writes missing afterwards (or present more than once)').toEqual([]);
    for (const c of chat) {
      expect
        .soft(
          { missing: c.missing, twiceOrMore: c.twiceOrMore, notTheirs: c.notTheirs },
          `${c.client}: every message of its deals, once (live or caught up after a reconnection)`,
        )
        .toEqual({ missing: [], twiceOrMore: [], notTheirs: [] });
    }
    expect.soft(ledgerViolations, 'the ledger check').toEqual([]);
    expect(acknowledged.messages.length, 'the workload got going').toBeGreaterThan(20);

    async function allTransactions(user: User) {
      const rows: Array<{ id: number; type: string }> = [];
      let before: number | undefined;
      for (;;) {
        const page = await call(
          'GET',
          `/api/wallet/transactions?limit=100${before ? `&before=${before}` : ''}`,
          { token: user.token },
        );
        if (page?.status !== 200) throw new Error(`transactions of ${user.username}: ${page?.status}`);
        rows.push(...page.body);
        if (page.body.length < 100) return rows;
        before = page.body.at(-1).id;
      }
    }
    for (const client of clients) client.close();
  }, 240_000);
});

/** A step of the workload that got a failed call or an unexpected answer: the deal is left where it is. */
class StepAbandoned extends Error {}
function rethrowUnlessAbandoned(error: unknown) {
  if (!(error instanceof StepAbandoned)) throw error;
}

/**
 * A user's socket through HAProxy, reconnecting as the web app does (web/lib/socket.ts and
 * web/features/realtime: back-off from 1 s, and again after the server let it go) and catching up its
 * deals' chats after each reconnection; counts, by message id, every chat message it receives live.
 */
class ChatClient {
  readonly socket: Socket;
  readonly label: string;
  /** Message id → how often it arrived as an event. */
  readonly live = new Map<number, number>();
  /** Messages found in a deal's timeline after a reconnection. */
  readonly caughtUpIds = new Set<number>();
  /** Why the connection was lost, each time. */
  readonly drops: string[] = [];
  /** Catch-ups that did not complete. */
  readonly catchUpFailures: string[] = [];
  connects = 0;
  catchingUp = false;
  catchUp: () => Promise<void> = async () => {};
  private closed = false;

  constructor(
    url: string,
    readonly user: User,
    transports: Array<'websocket' | 'polling'>,
  ) {
    this.label = `${user.username} (${transports.join('+')})`;
    this.socket = io(url, {
      transports,
      auth: { token: user.token },
      // Node's client keeps cookies (HAProxy's sticky one) only with credentials on, as a browser does.
      withCredentials: true,
      forceNew: true,
      autoConnect: false,
      reconnection: true,
      reconnectionAttempts: Number.POSITIVE_INFINITY,
      reconnectionDelay: 1000,
      reconnectionDelayMax: 30_000,
      randomizationFactor: 0.5,
    });
    this.socket.on('message-updated', (payload: { messageData: { id: number } }) => {
      const id = payload.messageData.id;
      this.live.set(id, (this.live.get(id) ?? 0) + 1);
    });
    this.socket.on('connect', () => {
      this.connects++;
      if (this.connects > 1) void this.runCatchUp();
    });
    this.socket.on('disconnect', (reason) => {
      if (this.closed) return;
      this.drops.push(reason);
      // Socket.IO leaves this one to the app; the web app connects again after its back-off.
      if (reason === 'io server disconnect') setTimeout(() => this.socket.connect(), 1000);
    });
  }

  get connected() {
    return this.socket.connected;
  }

  caughtUp(id: number) {
    if (!this.live.has(id)) this.caughtUpIds.add(id);
  }

  /** Catches up its deals' chats; a failed call there is already counted by the workload's `call`. */
  async runCatchUp() {
    this.catchingUp = true;
    try {
      await this.catchUp();
    } catch (error) {
      this.catchUpFailures.push(describeError(error));
    } finally {
      this.catchingUp = false;
    }
  }

  connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.label} did not connect`)), 10_000);
      this.socket.once('connect', () => {
        clearTimeout(timer);
        resolve();
      });
      this.socket.connect();
    });
  }

  close() {
    this.closed = true;
    this.socket.disconnect();
  }
}

/** HAProxy's version line; a clear failure when it is not installed. */
function haproxyVersion(): string {
  try {
    return execFileSync('haproxy', ['-v'], { encoding: 'utf8' }).split('\n')[0]!;
  } catch (error) {
    throw new Error(
      `HAProxy is not installed (running \`haproxy -v\` failed: ${describeError(error)}). ` +
        'This test runs the real load balancer of deploy/haproxy.cfg: install it with `apt-get install -y haproxy` ' +
        "(Debian 12's HAProxy 2.6).",
    );
  }
}

/** A child process whose output goes to a file (shown when something fails). */
function spawnLogged(command: string, args: string[], env: NodeJS.ProcessEnv, log: string): ChildProcess {
  const fd = openSync(log, 'a');
  try {
    return spawn(command, args, { cwd: root, env, stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd);
  }
}

/** SIGTERM, then SIGKILL if it is still there after `graceMs`; by pid, only our own processes. */
async function stopProcess(child: ChildProcess, graceMs: number) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  if ((await Promise.race([exited, sleep(graceMs, 'late')])) === 'late') {
    child.kill('SIGKILL');
    await exited;
  }
}

/** `count` ports in [from, to] that nobody listens on right now. */
async function freePorts(from: number, to: number, count: number): Promise<number[]> {
  const ports: number[] = [];
  const start = from + Math.floor(Math.random() * (to - from + 1));
  for (let i = 0; i <= to - from && ports.length < count; i++) {
    const port = from + ((start - from + i) % (to - from + 1));
    if (await isFree(port)) ports.push(port);
  }
  if (ports.length < count) throw new Error(`fewer than ${count} free ports in ${from}–${to}`);
  return ports;
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

async function waitUntil(
  condition: () => Promise<boolean>,
  timeoutMs: number,
  message: () => string | Promise<string>,
  givenUp: () => boolean = () => false,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !givenUp()) {
    if (await condition()) return;
    await sleep(100);
  }
  throw new Error(await message());
}

async function waitFor<T>(
  find: () => Promise<T | undefined>,
  timeoutMs: number,
  message: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = await find();
    if (found !== undefined) return found;
    await sleep(100);
  }
  throw new Error(message);
}

async function tail(file: string, lines = 20): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause ? `${error.message}: ${cause.code ?? cause.message}` : error.message;
}

/**
 * What HAProxy's log (deploy/haproxy.cfg's log-format) says of the requests: how many it retried on
 * another connection or instance, and the answers it gave with 5xx.
 */
function summarizeHaproxyLog(text: string): string {
  const requests = [...text.matchAll(/\] \S+ \S+ \S+ (\d+) \S+ \S+ \d+\/\d+\/\d+\/\d+\/(\+?\d+) /g)];
  const retried = requests.filter((match) => match[2] !== '0').length;
  const errors = requests.filter((match) => Number(match[1]) >= 500).length;
  return `${requests.length} requests logged, ${retried} of them retried by HAProxy, ${errors} answered 5xx`;
}

/** The test's own keys in the shared Redis (rate-limit counters under its prefix). */
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
