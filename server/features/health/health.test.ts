import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('GET /api/health', () => {
  it('answers ok once the database answers', async () => {
    const response = await server.get('/api/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });
});

describe('GET /api/health without a database', () => {
  it('answers 503 once the database stops answering', async () => {
    const own = await startTestServer();
    try {
      await own.database.close();
      const response = await own.get('/api/health');
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ message: 'The database is not answering.', code: 'UNAVAILABLE' });
    } finally {
      await own.app.close();
    }
  });
});

describe('the error model', () => {
  it('answers unknown API routes with JSON 404', async () => {
    const response = await server.get('/api/does-not-exist');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'Not found.', code: 'NOT_FOUND' });
  });

  it('answers invalid JSON with 400 JSON', async () => {
    const response = await server.post('/api/auth/login', {
      rawBody: '{"username":',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: 'Request body is not valid JSON.', code: 'INVALID_JSON' });
  });

  it('answers a missing body with 400 JSON', async () => {
    const response = await server.post('/api/auth/login', {
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_FAILED');
  });

  it('answers wrong types with field errors', async () => {
    const response = await server.post('/api/auth/login', { body: { username: 5, password: ['x'] } });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.fieldErrors).sort()).toEqual(['password', 'username']);
  });

  it('answers an unsupported content type with 415 JSON', async () => {
    const response = await server.post('/api/auth/login', {
      rawBody: 'username=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(415);
    expect(response.body).toEqual({ message: 'Unsupported content type.', code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('sets security headers', async () => {
    const response = await server.get('/api/health');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('serves the OpenAPI document generated from the route schemas', async () => {
    const response = await server.get('/api/docs/json');
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.paths)).toContain('/api/auth/login');
  });
});

describe('GET /api/ready', () => {
  it('answers 200 with each dependency when the database answers and has every migration', async () => {
    const response = await server.get('/api/ready');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: 'ready',
      checks: { database: 'up', migrations: 'done', redis: 'not used', instance: 'serving' },
    });
  });

  it('answers 503 naming the database when it stops answering', async () => {
    const own = await startTestServer();
    try {
      await own.database.close();
      const response = await own.get('/api/ready');
      expect(response.status).toBe(503);
      expect(response.body).toEqual({
        message: 'Not ready: the database is not answering.',
        code: 'UNAVAILABLE',
        status: 'unavailable',
        checks: { database: 'down', migrations: 'unknown', redis: 'not used', instance: 'serving' },
      });
    } finally {
      await own.app.close();
    }
  });

  it('answers 503 once the instance is stopping, so the load balancer sends nobody new', async () => {
    const own = await startTestServer();
    try {
      expect((await own.get('/api/ready')).status).toBe(200);
      own.app.lifecycle.beginStopping();
      const response = await own.get('/api/ready');
      expect(response.status).toBe(503);
      expect(response.body).toEqual({
        message: 'Not ready: the instance is stopping.',
        code: 'UNAVAILABLE',
        status: 'unavailable',
        checks: { database: 'up', migrations: 'done', redis: 'not used', instance: 'stopping' },
      });
      // The liveness check still answers: the instance is alive while it finishes.
      expect((await own.get('/api/health')).status).toBe(200);
    } finally {
      await own.app.close();
    }
  });

  it('tells a stopping instance when the load balancer has seen it stopping', async () => {
    const own = await startTestServer();
    try {
      const lifecycle = own.app.lifecycle;
      // Nothing checked it: no balancer to wait for.
      const started = Date.now();
      lifecycle.beginStopping();
      await lifecycle.untilLoadBalancerKnows(5_000);
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      await own.app.close();
    }
    const checked = await startTestServer();
    try {
      await checked.get('/api/ready');
      checked.app.lifecycle.beginStopping();
      let known = false;
      const waiting = checked.app.lifecycle.untilLoadBalancerKnows(10_000).then(() => {
        known = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(known).toBe(false);
      expect((await checked.get('/api/ready')).status).toBe(503);
      await new Promise((resolve) => setTimeout(resolve, 200));
      // One failed check is not enough for a balancer to take it out (HAProxy's fall 2): a second one is.
      expect(known).toBe(false);
      expect((await checked.get('/api/ready')).status).toBe(503);
      await waiting;
      expect(known).toBe(true);
    } finally {
      await checked.app.close();
    }
  });
});

describe('request ids', () => {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('gives every answer a new id, in its X-Request-Id header and in its error body', async () => {
    const ok = await fetch(`${server.url}/api/health`);
    const first = ok.headers.get('x-request-id');
    expect(first).toMatch(uuid);
    const failed = await fetch(`${server.url}/api/does-not-exist`);
    const id = failed.headers.get('x-request-id');
    expect(id).toMatch(uuid);
    expect(id).not.toBe(first);
    expect(await failed.json()).toEqual({ message: 'Not found.', code: 'NOT_FOUND', requestId: id });
    const refused = await fetch(`${server.url}/api/wallet`);
    expect(refused.status).toBe(401);
    const body = (await refused.json()) as { requestId: string };
    expect(body.requestId).toBe(refused.headers.get('x-request-id'));
    expect(body.requestId).toMatch(uuid);
  });

  it("ignores a client's X-Request-Id unless a trusted proxy gave it", async () => {
    const given = await fetch(`${server.url}/api/does-not-exist`, { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toMatch(uuid);
  });

  it("keeps the load balancer's X-Request-Id behind a trusted proxy, and refuses a malformed one", async () => {
    const own = await startTestServer({ config: { trustProxy: true } });
    try {
      const given = await fetch(`${own.url}/api/does-not-exist`, {
        headers: { 'x-request-id': 'lb-7f3a.42' },
      });
      expect(given.headers.get('x-request-id')).toBe('lb-7f3a.42');
      expect(((await given.json()) as { requestId: string }).requestId).toBe('lb-7f3a.42');
      const malformed = await fetch(`${own.url}/api/health`, { headers: { 'x-request-id': 'a b\tc' } });
      expect(malformed.headers.get('x-request-id')).toMatch(uuid);
      const long = await fetch(`${own.url}/api/health`, { headers: { 'x-request-id': 'x'.repeat(129) } });
      expect(long.headers.get('x-request-id')).toMatch(uuid);
    } finally {
      await own.close();
    }
  });
});
