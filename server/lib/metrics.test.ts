import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeal } from '../test/deal-fixtures';
import { type SignedUpUser, signUp, startTestServer, type TestServer } from '../test/harness';
import { TestClients } from '../test/socket-client';

/**
 * Prometheus metrics on METRICS_PORT: each family is there, labelled by route pattern (never the raw
 * URL) and status class, and counts what the server did; the public port never shows them.
 */
let server: TestServer;
let clients: TestClients;
let alice: SignedUpUser;

beforeAll(async () => {
  server = await startTestServer({
    config: {
      metricsPort: 0,
      ledgerCheckMs: 500,
      rateLimits: { signInFailuresPerUserAndAddress: { points: 1, seconds: 900 } },
    },
  });
  clients = new TestClients(server.url);
  alice = await signUp(server);
});
afterAll(async () => {
  clients?.closeAll();
  await server?.close();
});

async function scrape(): Promise<string> {
  const response = await fetch(server.app.metricsUrl!);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
}

/** The value of one sample, by its name and exact labels as printed; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics', () => {
  it('serves every family on its own port, counting what the server did', async () => {
    await clients.connect(alice.token);
    const deal = await createDeal(server, alice);
    expect((await server.get(`/api/deals/${deal.id}`, { token: alice.token })).status).toBe(200);
    expect((await server.get('/api/no-such-route')).status).toBe(404);
    const deposited = await server.post('/api/wallet/deposit', {
      token: alice.token,
      body: { amount: 25 },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(deposited.status).toBe(200);
    const wrong = { body: { username: alice.username, password: 'wrong password' } };
    expect((await server.post('/api/auth/login', wrong)).status).toBe(401);
    expect((await server.post('/api/auth/login', wrong)).status).toBe(429);
    // The ledger check runs by itself (every 0.5 s here).
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    const text = await scrape();
    for (const family of [
      'dealmaker_http_request_duration_seconds histogram',
      'dealmaker_http_requests_in_flight gauge',
      'dealmaker_db_pool_connections gauge',
      'dealmaker_db_query_duration_seconds histogram',
      'dealmaker_socket_connected gauge',
      'dealmaker_socket_events_sent_total counter',
      'dealmaker_job_queue_depth gauge',
      'dealmaker_job_failures_total counter',
      'dealmaker_job_lateness_seconds histogram',
      'dealmaker_money_movements_total counter',
      'dealmaker_money_moved_cents_total counter',
      'dealmaker_rate_limit_refusals_total counter',
      'dealmaker_ledger_check_violations gauge',
      'dealmaker_ledger_check_last_run_timestamp_seconds gauge',
      'process_cpu_user_seconds_total counter',
      'nodejs_eventloop_lag_seconds gauge',
    ]) {
      expect(text).toContain(`# TYPE ${family}`);
    }
    // Routes by pattern and status class; a 404 without a route is `unmatched`; never a raw URL.
    expect(
      sample(
        text,
        'dealmaker_http_request_duration_seconds_count{method="GET",route="/api/deals/:id",status_class="2xx"}',
      ),
    ).toBe(1);
    expect(
      sample(
        text,
        'dealmaker_http_request_duration_seconds_count{method="GET",route="unmatched",status_class="4xx"}',
      ),
    ).toBe(1);
    expect(
      sample(
        text,
        'dealmaker_http_request_duration_seconds_count{method="POST",route="/api/auth/login",status_class="4xx"}',
      ),
    ).toBe(2);
    expect(text).not.toContain(`/api/deals/${deal.id}"`);
    expect(text).not.toContain('no-such-route');
    // The scrape itself is the only request in flight: none on the public port.
    expect(sample(text, 'dealmaker_http_requests_in_flight')).toBe(0);
    expect(sample(text, 'dealmaker_db_pool_connections{state="total"}')).toBeGreaterThan(0);
    expect(sample(text, 'dealmaker_db_pool_connections{state="waiting"}')).toBe(0);
    expect(sample(text, 'dealmaker_db_query_duration_seconds_count')).toBeGreaterThan(10);
    expect(sample(text, 'dealmaker_socket_connected')).toBe(1);
    expect(sample(text, 'dealmaker_socket_events_sent_total{event="deal-updated"}')).toBeGreaterThanOrEqual(
      1,
    );
    expect(sample(text, 'dealmaker_job_queue_depth{queue="escrow-half-expiry"}')).toBe(0);
    expect(sample(text, 'dealmaker_job_queue_depth{queue="dispute-escalation"}')).toBe(0);
    expect(sample(text, 'dealmaker_money_movements_total{kind="deposit"}')).toBe(1);
    expect(sample(text, 'dealmaker_money_moved_cents_total{kind="deposit"}')).toBe(2500);
    expect(sample(text, 'dealmaker_rate_limit_refusals_total{limit="signInFailuresPerUserAndAddress"}')).toBe(
      1,
    );
    const invariants = text
      .split('\n')
      .filter((line) => line.startsWith('dealmaker_ledger_check_violations{'));
    expect(invariants.length).toBeGreaterThanOrEqual(8);
    for (const line of invariants) expect(line.endsWith(' 0')).toBe(true);
    expect(sample(text, 'dealmaker_ledger_check_last_run_timestamp_seconds')).toBeGreaterThan(
      Date.now() / 1000 - 60,
    );
  });

  it('answers only GET /metrics on its port, and never on the public port', async () => {
    const other = await fetch(server.app.metricsUrl!.replace('/metrics', '/other'));
    expect(other.status).toBe(404);
    const publicPort = await fetch(`${server.url}/metrics`);
    expect(await publicPort.text()).not.toContain('dealmaker_http_request_duration_seconds');
    const publicApi = await fetch(`${server.url}/api/metrics`);
    expect(publicApi.status).toBe(404);
  });

  it('is off without METRICS_PORT', async () => {
    const own = await startTestServer();
    try {
      expect(own.app.metricsUrl).toBeUndefined();
    } finally {
      await own.close();
    }
  });
});
