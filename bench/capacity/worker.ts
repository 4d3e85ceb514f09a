/**
 * One load-generating process of the capacity bench (capacity.bench.ts forks one or more): its share of the
 * users, each a signed-in web app tab — one Socket.IO socket (WebSocket, `feeds: true`) and about one action
 * every `actionSeconds` (uniformly 0.5–1.5× that apart, the first at a random point of the first period),
 * picked by `actionMix`, each making the HTTP calls and socket events the web app makes for it:
 *
 * - dealsPage: GET /api/deals/all?limit=24; deals-feed:subscribe while on the page.
 * - dealPage: one of the user's deals (half the time) or any open deal: watch-deal (and join-deal-room
 *   for a participant), GET /api/deals/{id}, then for a participant its history (the timeline, as the
 *   chat loads it); the previous page is left (unsubscribe, unwatch-deal, leave-deal-room).
 * - search: on the Deals page, GET /api/deals/all?q=word&limit=24 and its count (the web app asks both).
 * - chat: on one of the user's deals (opened first if another page is on screen), POST /api/messages/send;
 *   the delivery to each connected participant's socket (`message-updated`, sender included) is timed
 *   from the POST.
 * - wallet: GET /api/wallet. bid: POST /api/bidding/create on an open deal not bid on yet. deposit: POST
 *   /api/wallet/deposit with an Idempotency-Key. postDeal: POST /api/deals/create-deal (what the feed carries).
 *
 * HTTP goes over a fixed pool of kept-alive connections (node:http, not fetch: fetch costs the generator
 * several times more CPU per request, taken from the server on two cores).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import type { ServerEvents } from '../../contract/realtime';
import {
  type ActionKind,
  actionMix,
  type CallName,
  type ErrorCounts,
  type FromWorker,
  noErrors,
  type PlanUser,
  random,
  type ToWorker,
  type WorkerPlan,
  type WorkerReport,
} from './protocol';

const callTimeoutMs = 10_000;
const deliveryTimeoutMs = 10_000;
const connectTimeoutMs = 30_000;

const plan = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as WorkerPlan;
const rng = random(plan.seed * 1000 + plan.worker);
const pick = <T>(items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
const target = new URL(plan.url);
const agent = new http.Agent({ keepAlive: true, maxSockets: plan.connections });

type Page = { kind: 'none' } | { kind: 'deals' } | { kind: 'deal'; dealId: number; joined: boolean };
type User = PlanUser & {
  socket?: Socket;
  page: Page;
  /** When the next action is due (performance.now()). */
  due: number;
  timer?: NodeJS.Timeout;
  bidOn: Set<number>;
};
const users: User[] = plan.users.map((user) => ({
  ...user,
  page: { kind: 'none' },
  due: 0,
  bidOn: new Set(),
}));
const participantsOf = new Map<number, User[]>();
for (const user of users) {
  for (const dealId of user.deals) participantsOf.set(dealId, [...(participantsOf.get(dealId) ?? []), user]);
}

// ── What is counted ──────────────────────────────────────────────────────────────────────────────────
let measuring = false;
let errors: ErrorCounts = noErrors();
let report = emptyReport();
/** Calls and chat messages started in the window and not settled yet: the report waits for them. */
let inFlight = 0;
let settled: (() => void) | undefined;

function emptyReport(): WorkerReport {
  return { actions: {}, latencies: {}, deliveries: [], events: {}, feedChanges: 0, errors, connected: 0 };
}
function noteError(text: string) {
  if (errors.examples.length < 8) errors.examples.push(text.slice(0, 300));
}
function track<T>(inWindow: boolean, work: Promise<T>): Promise<T> {
  if (!inWindow) return work;
  inFlight++;
  return work.finally(() => {
    if (--inFlight === 0) settled?.();
  });
}

// ── HTTP ─────────────────────────────────────────────────────────────────────────────────────────────
/** One call; resolves with its status (0: no answer) once the whole answer is read. Never rejects. */
function call(user: User, name: CallName, method: string, path: string, body?: unknown, headers = {}) {
  const started = performance.now();
  const inWindow = measuring;
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const work = new Promise<number>((resolve) => {
    let done = false;
    const finish = (status: number, text: string) => {
      if (done) return;
      done = true;
      if (inWindow) {
        const latencies = report.latencies[name] ?? [];
        latencies.push(performance.now() - started);
        report.latencies[name] = latencies;
      }
      if (status < 200 || status >= 300) {
        const key = `${name} → ${status || 'no answer'}`;
        errors.http[key] = (errors.http[key] ?? 0) + 1;
        noteError(`${key}: ${text}`);
      }
      resolve(status);
    };
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path,
        method,
        agent,
        headers: {
          authorization: `Bearer ${user.token}`,
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          ...headers,
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (status >= 300 && text.length < 300) text += chunk;
        });
        response.on('end', () => finish(status, text));
        response.on('error', (error) => finish(0, error.message));
      },
    );
    request.setTimeout(callTimeoutMs, () => request.destroy(new Error(`no answer in ${callTimeoutMs} ms`)));
    request.on('error', (error) => finish(0, error.message));
    request.end(payload);
  });
  return track(inWindow, work);
}

// ── Pages: what the web app subscribes to while each is on screen ────────────────────────────────────
function leavePage(user: User) {
  const { page, socket } = user;
  if (page.kind === 'deals') socket?.emit('deals-feed:unsubscribe');
  if (page.kind === 'deal') {
    socket?.emit('unwatch-deal', page.dealId);
    if (page.joined) socket?.emit('leave-deal-room', page.dealId);
  }
  user.page = { kind: 'none' };
}

function enterDealsPage(user: User) {
  if (user.page.kind === 'deals') return;
  leavePage(user);
  user.page = { kind: 'deals' };
  user.socket?.emit('deals-feed:subscribe');
}

/** Opens a deal's page: watch it, join its room as a participant, load it (and its history). */
async function openDeal(user: User, dealId: number) {
  if (user.page.kind === 'deal' && user.page.dealId === dealId) return;
  leavePage(user);
  const participant = user.deals.includes(dealId);
  user.page = { kind: 'deal', dealId, joined: participant };
  user.socket?.emit('watch-deal', dealId);
  if (participant) joinRoom(user, dealId);
  await call(user, 'GET /api/deals/:id', 'GET', `/api/deals/${dealId}`);
  if (participant) {
    await call(user, 'GET /api/deals/:id/timeline?limit=50', 'GET', `/api/deals/${dealId}/timeline?limit=50`);
  }
}

function joinRoom(user: User, dealId: number) {
  user.socket
    ?.timeout(deliveryTimeoutMs)
    .emitWithAck('join-deal-room', dealId)
    .then((answer: { ok: boolean; message?: string }) => {
      if (answer.ok) return;
      errors.refusedJoins++;
      noteError(`join-deal-room ${dealId}: ${answer.message}`);
    })
    .catch((error: Error) => {
      errors.refusedJoins++;
      noteError(`join-deal-room ${dealId}: ${error.message}`);
    });
}

/** After a reconnection the server has forgotten the socket's rooms: the page subscribes again. */
function resubscribe(user: User) {
  const { page, socket } = user;
  if (page.kind === 'deals') socket?.emit('deals-feed:subscribe');
  if (page.kind === 'deal') {
    socket?.emit('watch-deal', page.dealId);
    if (page.joined) joinRoom(user, page.dealId);
  }
}

// ── Chat deliveries ──────────────────────────────────────────────────────────────────────────────────
type Pending = {
  sentAt: number;
  inWindow: boolean;
  remaining: number;
  timer: NodeJS.Timeout;
  done: () => void;
};
const pending = new Map<string, Pending>();
let messageSequence = 0;

function onMessage(event: ServerEvents['message-updated']) {
  const entry = pending.get(event.messageData.clientId ?? '');
  if (!entry) return;
  if (entry.inWindow) report.deliveries.push(performance.now() - entry.sentAt);
  if (--entry.remaining === 0) entry.done();
}

async function sendMessage(user: User, dealId: number) {
  const clientId = `w${plan.worker}-${++messageSequence}`;
  const receivers = (participantsOf.get(dealId) ?? []).filter((member) => member.socket?.connected).length;
  const inWindow = measuring;
  let resolveDelivered!: () => void;
  const delivered = new Promise<void>((resolve) => {
    resolveDelivered = resolve;
  });
  const entry: Pending = {
    sentAt: performance.now(),
    inWindow,
    remaining: receivers,
    timer: setTimeout(() => {
      errors.lostDeliveries += entry.remaining;
      noteError(
        `message ${clientId} on deal ${dealId}: ${entry.remaining} of ${receivers} sockets got nothing`,
      );
      entry.done();
    }, deliveryTimeoutMs),
    done: () => {
      clearTimeout(entry.timer);
      pending.delete(clientId);
      resolveDelivered();
    },
  };
  pending.set(clientId, entry);
  if (receivers === 0) entry.done();
  const status = await call(user, 'POST /api/messages/send', 'POST', '/api/messages/send', {
    dealId,
    content: `Capacity bench message ${clientId}: the numbers look right.`,
    clientId,
  });
  // A message the server refused reaches nobody: that is the call's error, not lost deliveries.
  if (status !== 201) entry.done();
  await track(inWindow, delivered);
}

// ── Actions ──────────────────────────────────────────────────────────────────────────────────────────
const actions: Record<ActionKind, (user: User) => Promise<unknown>> = {
  async dealsPage(user) {
    enterDealsPage(user);
    await call(user, 'GET /api/deals/all?limit=24', 'GET', '/api/deals/all?limit=24');
  },
  async dealPage(user) {
    const own = user.deals.length > 0 && rng() < 0.5;
    await openDeal(user, own ? pick(user.deals) : pick(plan.openDeals)[0]);
  },
  async search(user) {
    enterDealsPage(user);
    const q = pick(plan.words);
    await Promise.all([
      call(user, 'GET /api/deals/all?q=…&limit=24', 'GET', `/api/deals/all?q=${q}&limit=24`),
      call(user, 'GET /api/deals/count?q=…', 'GET', `/api/deals/count?q=${q}`),
    ]);
  },
  async chat(user) {
    if (user.deals.length === 0) return actions.dealsPage(user);
    const onOwnDeal = user.page.kind === 'deal' && user.deals.includes(user.page.dealId);
    const dealId = onOwnDeal && user.page.kind === 'deal' ? user.page.dealId : pick(user.deals);
    await openDeal(user, dealId);
    await sendMessage(user, dealId);
  },
  async wallet(user) {
    leavePage(user);
    await call(user, 'GET /api/wallet', 'GET', '/api/wallet');
  },
  async bid(user) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const [dealId, creatorId] = pick(plan.openDeals);
      if (creatorId === user.id || user.bidOn.has(dealId)) continue;
      user.bidOn.add(dealId);
      const price = 500 + Math.floor(rng() * 5000);
      return call(user, 'POST /api/bidding/create', 'POST', '/api/bidding/create', {
        dealId,
        price,
        proposal: 'I can deliver this within the timeline, with weekly updates.',
        deliveryDays: 14,
      });
    }
  },
  async deposit(user) {
    await call(
      user,
      'POST /api/wallet/deposit',
      'POST',
      '/api/wallet/deposit',
      { amount: 25 },
      {
        'idempotency-key': randomUUID(),
      },
    );
  },
  async postDeal(user) {
    await call(user, 'POST /api/deals/create-deal', 'POST', '/api/deals/create-deal', {
      title: `${pick(plan.words)} and ${pick(plan.words)} work, posted live`,
      description: 'A deal posted during the capacity bench, for the deals feed to carry.',
      budget: 2500,
      timeline: '3 weeks',
    });
  },
};
const kinds = Object.keys(actionMix) as ActionKind[];
const mixTotal = kinds.reduce((sum, kind) => sum + actionMix[kind], 0);
function pickAction(): ActionKind {
  let ticket = rng() * mixTotal;
  for (const kind of kinds) {
    ticket -= actionMix[kind];
    if (ticket < 0) return kind;
  }
  return kinds[0]!;
}

/** The next action at its due time; a user does one thing at a time, as a person in a tab does. */
function schedule(user: User, seconds: number) {
  user.due += seconds * 1000 * (0.5 + rng());
  user.timer = setTimeout(() => void act(user, seconds), Math.max(0, user.due - performance.now()));
}

async function act(user: User, seconds: number) {
  const kind = pickAction();
  if (measuring) report.actions[kind] = (report.actions[kind] ?? 0) + 1;
  try {
    await actions[kind](user);
  } catch (error) {
    noteError(`${kind}: ${(error as Error).stack}`);
  }
  schedule(user, seconds);
}

// ── Sockets ──────────────────────────────────────────────────────────────────────────────────────────
let active = 0;

function connectUser(user: User): Promise<void> {
  const socket = io(plan.url, {
    transports: ['websocket'],
    auth: { token: user.token, feeds: true },
    forceNew: true,
    timeout: connectTimeoutMs,
  });
  user.socket = socket;
  socket.on('message-updated', onMessage);
  socket.on('deals-feed', (event: { changes: unknown[] }) => {
    if (measuring) report.feedChanges += event.changes.length;
  });
  socket.onAny((event: string) => {
    if (measuring) report.events[event] = (report.events[event] ?? 0) + 1;
    if (event === 'rate-limited' || event === 'session-ended') {
      errors.notices++;
      noteError(`socket notice ${event}`);
    }
  });
  socket.on('connect_error', (error) => {
    errors.connectErrors++;
    noteError(`connect_error: ${error.message}`);
  });
  socket.on('disconnect', (reason) => {
    if (reason === 'io client disconnect') return;
    errors.disconnects++;
    noteError(`disconnect: ${reason}`);
  });
  return new Promise((resolve) => {
    const giveUp = setTimeout(resolve, connectTimeoutMs);
    socket.once('connect', () => {
      clearTimeout(giveUp);
      socket.on('connect', () => resubscribe(user));
      resolve();
    });
  });
}

/** Connects users up to `count`, `perSecond` at most, each starting its actions once connected. */
async function activate(count: number, perSecond: number) {
  const connecting: Promise<void>[] = [];
  const startedAt = performance.now();
  const first = active;
  for (; active < Math.min(count, users.length); active++) {
    const wait = startedAt + ((active - first) * 1000) / perSecond - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const user = users[active]!;
    connecting.push(
      connectUser(user).then(() => {
        if (plan.actionSeconds === false) return;
        user.due = performance.now();
        // The first action at a random point of one period: users do not act in step.
        user.due += plan.actionSeconds * 1000 * rng();
        user.timer = setTimeout(
          () => void act(user, plan.actionSeconds as number),
          user.due - performance.now(),
        );
      }),
    );
  }
  await Promise.all(connecting);
}

const connectedCount = () => users.reduce((sum, user) => sum + (user.socket?.connected ? 1 : 0), 0);
const send = (message: FromWorker) => process.send!(message);

process.on('message', async (message: ToWorker) => {
  if (message.type === 'step') {
    errors = noErrors();
    report.errors = errors;
    await activate(message.users, message.perSecond);
    send({ type: 'connected', connected: connectedCount() });
  } else if (message.type === 'window-start') {
    report = emptyReport();
    measuring = true;
  } else if (message.type === 'window-end') {
    measuring = false;
    // Calls and deliveries started in the window count with it: wait for them (each times out by itself).
    if (inFlight > 0) await new Promise<void>((resolve) => (settled = resolve));
    settled = undefined;
    send({ type: 'report', report: { ...report, errors, connected: connectedCount() } });
  } else if (message.type === 'stop') {
    for (const user of users) {
      clearTimeout(user.timer);
      user.socket?.disconnect();
    }
    agent.destroy();
    send({ type: 'stopped' });
    process.exit(0);
  }
});
send({ type: 'ready' });
