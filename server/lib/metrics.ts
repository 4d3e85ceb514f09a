import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Where the numbers scraped at each /metrics come from (set by whoever owns them). */
type Sources = {
  pool?: () => { total: number; idle: number; waiting: number };
  sockets?: () => number;
  queueDepths?: () => Promise<Record<string, number>>;
};

/**
 * The instance's Prometheus metrics (prom-client), in a registry of its own (tests run several apps in
 * one process). Names start with `dealmaker_`; Node's default process metrics come along. Served only
 * on METRICS_PORT (`serveMetrics`), never on the public port.
 */
export class Metrics {
  readonly registry = new Registry();

  private readonly sources: Sources = {};

  readonly httpRequestDuration = new Histogram({
    name: 'dealmaker_http_request_duration_seconds',
    help: 'HTTP requests by route pattern (never the raw URL), method and status class.',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly httpRequestsInFlight = new Gauge({
    name: 'dealmaker_http_requests_in_flight',
    help: 'HTTP requests received and not yet answered.',
    registers: [this.registry],
  });

  readonly databaseQueryDuration = new Histogram({
    name: 'dealmaker_db_query_duration_seconds',
    help: 'PostgreSQL queries of the server, from sending to the answer.',
    buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
    registers: [this.registry],
  });

  readonly socketEventsSent = new Counter({
    name: 'dealmaker_socket_events_sent_total',
    help: 'Events the server sent to Socket.IO rooms, by event (one per emit, whatever the audience).',
    labelNames: ['event'] as const,
    registers: [this.registry],
  });

  readonly jobFailures = new Counter({
    name: 'dealmaker_job_failures_total',
    help: 'Jobs whose handler failed (pg-boss retries them), by queue.',
    labelNames: ['queue'] as const,
    registers: [this.registry],
  });

  readonly jobLateness = new Histogram({
    name: 'dealmaker_job_lateness_seconds',
    help: 'How long after its due time each job started, by queue.',
    labelNames: ['queue'] as const,
    buckets: [0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600],
    registers: [this.registry],
  });

  readonly moneyMovements = new Counter({
    name: 'dealmaker_money_movements_total',
    help: 'Committed money movements (ledger transfers), by kind.',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  readonly moneyMovedCents = new Counter({
    name: 'dealmaker_money_moved_cents_total',
    help: 'Cents moved by committed money movements, by kind.',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  readonly rateLimitRefusals = new Counter({
    name: 'dealmaker_rate_limit_refusals_total',
    help: 'Calls and socket events refused by a rate limit, by limit.',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });

  readonly ledgerCheckViolations = new Gauge({
    name: 'dealmaker_ledger_check_violations',
    help: 'Violations the last ledger check found, per invariant (0: the books are right).',
    labelNames: ['invariant'] as const,
    registers: [this.registry],
  });

  readonly ledgerCheckLastRun = new Gauge({
    name: 'dealmaker_ledger_check_last_run_timestamp_seconds',
    help: 'When the last ledger check finished (Unix time).',
    registers: [this.registry],
  });

  constructor() {
    const sources = this.sources;
    new Gauge({
      name: 'dealmaker_db_pool_connections',
      help: 'The PostgreSQL pool: connections open (total), idle, and callers waiting for one.',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const pool = sources.pool?.();
        if (!pool) return;
        this.set({ state: 'total' }, pool.total);
        this.set({ state: 'idle' }, pool.idle);
        this.set({ state: 'waiting' }, pool.waiting);
      },
    });
    new Gauge({
      name: 'dealmaker_socket_connected',
      help: 'Socket.IO sockets connected to this instance.',
      registers: [this.registry],
      collect() {
        this.set(sources.sockets?.() ?? 0);
      },
    });
    new Gauge({
      name: 'dealmaker_job_queue_depth',
      help: 'Jobs waiting in each queue (due or not yet due, and retries).',
      labelNames: ['queue'] as const,
      registers: [this.registry],
      async collect() {
        const depths = await sources.queueDepths?.().catch(() => undefined);
        for (const [queue, depth] of Object.entries(depths ?? {})) this.set({ queue }, depth);
      },
    });
  }

  /** Where the pool, socket and queue numbers are read at each scrape. */
  measure(sources: Sources) {
    Object.assign(this.sources, sources);
  }

  /** Node's default process metrics (CPU, memory, event loop lag, GC): only for a served registry. */
  collectProcessMetrics() {
    collectDefaultMetrics({ register: this.registry });
  }

  /**
   * Times every request (by its route pattern: `/api/deals/:id`, `unmatched` for 404s) and counts
   * those in flight. Registered only when metrics are served, so the hot path pays nothing otherwise.
   */
  measureHttp(app: FastifyInstance) {
    const counted = new WeakSet<object>();
    app.addHook('onRequest', (request, _reply, done) => {
      counted.add(request);
      this.httpRequestsInFlight.inc();
      done();
    });
    const finished = (request: object) => {
      if (counted.delete(request)) this.httpRequestsInFlight.dec();
    };
    app.addHook('onResponse', (request, reply, done) => {
      finished(request);
      this.httpRequestDuration.observe(
        {
          method: request.method,
          route: request.routeOptions.url ?? 'unmatched',
          status_class: `${Math.floor(reply.statusCode / 100)}xx`,
        },
        reply.elapsedTime / 1000,
      );
      done();
    });
    app.addHook('onRequestAbort', (request, done) => {
      finished(request);
      done();
    });
  }
}

/**
 * GET /metrics in Prometheus's text format on its own port (METRICS_HOST, loopback by default): the
 * public port never shows it. Anything else answers 404.
 */
export async function serveMetrics(metrics: Metrics, host: string, port: number) {
  const server = http.createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found.\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics failed.\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
