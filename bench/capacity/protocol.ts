/** What the capacity bench's main process and its load-generating workers (worker.ts) say to each other. */

/** One seeded user as a worker drives them: signed in (token), with the deals they take part in. */
export type PlanUser = { id: number; token: string; deals: number[] };

/** A worker's whole workload, written to a JSON file by the main process (its path is the worker's argument). */
export type WorkerPlan = {
  worker: number;
  /** Where HTTP calls and sockets go: the server, or HAProxy in front of two. */
  url: string;
  /** This worker's users in the order they become active; every deal in `deals` has all its participants here. */
  users: PlanUser[];
  /** Deals open for bids, with their creator (who may not bid on them). */
  openDeals: Array<[dealId: number, creatorId: number]>;
  /** Keywords of the seeded titles, for searches and posted deals. */
  words: string[];
  /** Kept-alive HTTP connections of this worker (a fixed pool: no connection per request). */
  connections: number;
  /** Mean seconds between a user's actions; false in the idle-socket mode (sockets only). */
  actionSeconds: number | false;
  seed: number;
};

export type ToWorker =
  /** A new step: error counters start again, and the first `users` of the plan connect (`perSecond` at most). */
  | { type: 'step'; users: number; perSecond: number }
  | { type: 'window-start' }
  | { type: 'window-end' }
  | { type: 'stop' };

export type FromWorker =
  | { type: 'ready' }
  /** Every socket of the step's users has connected (or given up after 30 s). */
  | { type: 'connected'; connected: number }
  | { type: 'report'; report: WorkerReport }
  | { type: 'stopped' };

/**
 * What a user does, about once every 30 s (weights in %). Posting a deal is not in the usual tab's day
 * (0.6 a user-hour here) but it is what the deals feed carries: without it the feed would send nothing.
 */
export const actionMix = {
  dealsPage: 28.5,
  dealPage: 24,
  search: 15,
  chat: 15,
  wallet: 10,
  bid: 4,
  deposit: 3,
  postDeal: 0.5,
} as const;
export type ActionKind = keyof typeof actionMix;

/** The HTTP calls, as the web app makes them (web/features/*\/*-api.ts). */
export type CallName =
  | 'GET /api/deals/all?limit=24'
  | 'GET /api/deals/all?q=…&limit=24'
  | 'GET /api/deals/count?q=…'
  | 'GET /api/deals/:id'
  | 'GET /api/deals/:id/timeline?limit=50'
  | 'POST /api/messages/send'
  | 'GET /api/wallet'
  | 'POST /api/bidding/create'
  | 'POST /api/wallet/deposit'
  | 'POST /api/deals/create-deal';

export type WorkerReport = {
  /** Actions started in the measured window. */
  actions: Partial<Record<ActionKind, number>>;
  /** Latency (ms) of each call started in the window, answered or not. */
  latencies: Partial<Record<CallName, number[]>>;
  /** Chat delivery latency (ms) from the POST to each participant's socket, for messages sent in the window. */
  deliveries: number[];
  /** Socket events received in the window, by name. */
  events: Record<string, number>;
  /** Deals carried by the window's deals-feed messages. */
  feedChanges: number;
  /** Since the step began (its ramp-in included). */
  errors: ErrorCounts;
  connected: number;
};

export type ErrorCounts = {
  /** Non-2xx answers and failed calls, by `call → status` (0: no answer: refused, reset, 10 s timeout). */
  http: Record<string, number>;
  connectErrors: number;
  /** Sockets the server or the network closed. */
  disconnects: number;
  /** Participants' sockets that did not get a chat message within 10 s. */
  lostDeliveries: number;
  /** join-deal-room not acknowledged with ok within 10 s. */
  refusedJoins: number;
  /** 'rate-limited' and 'session-ended' notices. */
  notices: number;
  /** The first few error texts, to tell what went wrong. */
  examples: string[];
};

export const noErrors = (): ErrorCounts => ({
  http: {},
  connectErrors: 0,
  disconnects: 0,
  lostDeliveries: 0,
  refusedJoins: 0,
  notices: 0,
  examples: [],
});

export function errorTotal(errors: ErrorCounts): number {
  return (
    Object.values(errors.http).reduce((sum, count) => sum + count, 0) +
    errors.connectErrors +
    errors.disconnects +
    errors.lostDeliveries +
    errors.refusedJoins +
    errors.notices
  );
}

/** Small seeded PRNG (mulberry32): the same workload on every run. */
export function random(seedValue: number) {
  let state = seedValue >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
