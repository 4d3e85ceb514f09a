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
