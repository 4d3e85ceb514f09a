/**
 * Two instances sharing PostgreSQL and Redis, as behind a load balancer: a session ended on one is refused
 * on the other at once (the cluster signal), and wrong second factors are counted across both. Needs a
 * Redis, so this file runs when REDIS_URL is set (CI's second server run).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '../../../contract/limits';
import type { Database } from '../../db/client';
import { turnOnTotp, wrongTotpCode } from '../../test/authenticators';
import { ok, signUp, startTestServer, type TestServer } from '../../test/harness';
import { createTestDatabase } from '../../test/test-database';

describe.skipIf(!process.env.REDIS_URL)('accounts on two instances sharing PostgreSQL and Redis', () => {
  let database: Database;
  let one: TestServer;
  let two: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = {
      redisUrl: process.env.REDIS_URL,
      // A prefix of their own: other test files on the same Redis never reach these servers.
      redisPrefix: `dealmaker-test-${randomUUID()}`,
      rateLimits: { ...limits.rateLimits, signInFailuresPerAddress: { points: 100_000, seconds: 900 } },
    };
    [one, two] = await Promise.all([
      startTestServer({ database, keepDatabase: true, config }),
      startTestServer({ database, keepDatabase: true, config }),
    ]);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await database?.close();
  });

  it('refuses a session ended on one instance on the other at once, saying why', async () => {
    const user = await signUp(one);
    const phone = await ok<{ token: string }>(
      two.post('/api/auth/login', { body: { username: user.username, password: user.password } }),
    );
    // The second instance has checked (and cached) the session it is about to lose.
    expect((await two.get('/api/auth/me', { token: user.token })).status).toBe(200);
    const [, target] = await ok<any[]>(one.get('/api/auth/sessions', { token: phone.token }));
    await ok(one.delete(`/api/auth/sessions/${target.id}`, { token: phone.token }));
    // No wait: the signal through Redis reached the other instance before this request.
    let refused = await two.get('/api/auth/me', { token: user.token });
    for (let tries = 0; refused.status === 200 && tries < 10; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      refused = await two.get('/api/auth/me', { token: user.token });
    }
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({
      message: 'You were signed out because this session was ended from another device.',
      code: 'SESSION_ENDED',
    });
  });

  it('counts wrong codes against the account on both instances together', async () => {
    const user = await signUp(one);
    const { app } = await turnOnTotp(one, user);
    const allowed = limits.rateLimits.secondFactorFailuresPerUser.points;
    for (let wrong = 0; wrong < allowed; wrong++) {
      const server = wrong % 2 === 0 ? one : two;
      const { challenge } = (
        await server.post('/api/auth/login', { body: { username: user.username, password: user.password } })
      ).body;
      const answer = await server.post('/api/auth/login/2fa', {
        body: { challenge, code: wrongTotpCode(app.secret) },
      });
      expect(answer.status, `wrong code ${wrong + 1}`).toBe(401);
    }
    for (const server of [one, two]) {
      const { challenge } = (
        await server.post('/api/auth/login', { body: { username: user.username, password: user.password } })
      ).body;
      const refused = await server.post('/api/auth/login/2fa', {
        body: { challenge, code: await app.nextCode() },
      });
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('RATE_LIMITED');
    }
  });
});
