/**
 * Two-factor sign-in with an authenticator app (TOTP) and recovery codes: a stolen password alone signs
 * nobody in; each code works once; a challenge dies after 5 wrong codes or 5 minutes; wrong codes are
 * limited per account; an account that turned nothing on signs in exactly as before.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '../../../contract/limits';
import { recoveryCodes, signInChallenges, totpAuthenticators } from '../../db/schema';
import { type TotpApp, totpCode, turnOnTotp, wrongTotpCode } from '../../test/authenticators';
import { signInFirst } from '../../test/expected-errors';
import { ok, type SignedUpUser, signUp, startTestServer, type TestServer } from '../../test/harness';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const login = (user: SignedUpUser, password = user.password) =>
  server.post('/api/auth/login', { body: { username: user.username, password } });
const secondStep = (body: Record<string, unknown>) => server.post('/api/auth/login/2fa', { body });
const wrongCode = {
  message: 'That code is not right. Please try the current code from your authenticator app.',
  code: 'INVALID_SECOND_FACTOR',
};
const expiredSignIn = { message: 'This sign-in has expired. Please sign in again.', code: 'UNAUTHENTICATED' };

describe('turning the authenticator app on', () => {
  it('gives a secret, its otpauth URL and QR code, and asks nothing at sign-in until a code confirms it', async () => {
    const user = await signUp(server);
    const setup = await ok<{ secret: string; otpauthUrl: string; qrSvg: string }>(
      server.post('/api/auth/2fa/totp/setup', { token: user.token }),
    );
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.otpauthUrl).toBe(
      `otpauth://totp/Dealmaker:${user.username}?issuer=Dealmaker&secret=${setup.secret}&algorithm=SHA1&digits=6&period=30`,
    );
    expect(setup.qrSvg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    // Not on yet: the password alone still signs in.
    expect((await login(user)).body.token).toEqual(expect.any(String));

    const wrong = await server.post('/api/auth/2fa/totp/confirm', {
      token: user.token,
      body: { code: wrongTotpCode(setup.secret) },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual(wrongCode);
    expect((await login(user)).body.token).toEqual(expect.any(String));

    const confirmed = await ok<{ recoveryCodes: string[] }>(
      server.post('/api/auth/2fa/totp/confirm', {
        token: user.token,
        body: { code: totpCode(setup.secret) },
      }),
    );
    expect(confirmed.recoveryCodes).toHaveLength(10);
    for (const code of confirmed.recoveryCodes) expect(code).toMatch(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/);
    expect(new Set(confirmed.recoveryCodes).size).toBe(10);
    expect(await ok(server.get('/api/auth/2fa', { token: user.token }))).toEqual({
      totp: true,
      passkeys: 0,
      recoveryCodesLeft: 10,
      stepUpRequired: true,
      freshUntil: expect.any(String),
    });
    expect((await ok<any>(server.get('/api/auth/me', { token: user.token }))).secondFactor).toBe(true);
    // A notice goes to the account's own address.
    expect(server.mails.at(-1)).toMatchObject({ to: user.email, subject: 'Two-factor sign-in is on' });
  });

  it('keeps the secret encrypted and the recovery codes hashed, and never shows the secret again', async () => {
    const user = await signUp(server);
    const setup = await ok<{ secret: string }>(
      server.post('/api/auth/2fa/totp/setup', { token: user.token }),
    );
    const confirmed = await ok<{ recoveryCodes: string[] }>(
      server.post('/api/auth/2fa/totp/confirm', {
        token: user.token,
        body: { code: totpCode(setup.secret) },
      }),
    );
    const [stored] = await server.db
      .select()
      .from(totpAuthenticators)
      .where(eq(totpAuthenticators.userId, user.user.id));
    expect(stored!.secretEncrypted).toMatch(/^v1\./);
    expect(stored!.secretEncrypted).not.toContain(setup.secret);
    const codes = await server.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.user.id));
    expect(codes).toHaveLength(10);
    const plain = confirmed.recoveryCodes.map((code) => code.replace(/-/g, ''));
    for (const row of codes) expect(plain).not.toContain(row.codeHash);
    const again = await server.post('/api/auth/2fa/totp/setup', { token: user.token });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'The authenticator app is already turned on.', code: 'CONFLICT' });
    const status = await ok(server.get('/api/auth/2fa', { token: user.token }));
    expect(JSON.stringify(status)).not.toContain(setup.secret);
  });

  it('refuses strangers, a confirmation without a setup, and malformed codes', async () => {
    const user = await signUp(server);
    for (const path of [
      '/api/auth/2fa/totp/setup',
      '/api/auth/2fa/totp/confirm',
      '/api/auth/2fa/totp/disable',
    ]) {
      const response = await server.post(path, { body: { code: '123456' } });
      expect(response.status, path).toBe(401);
      expect(response.body).toEqual(signInFirst);
    }
    const early = await server.post('/api/auth/2fa/totp/confirm', {
      token: user.token,
      body: { code: '123456' },
    });
    expect(early.status).toBe(409);
    expect(early.body).toEqual({ message: 'Set up the authenticator app first.', code: 'CONFLICT' });
    for (const code of ['12345', '1234567', 'abcdef', '', 123456]) {
      const response = await server.post('/api/auth/2fa/totp/confirm', { token: user.token, body: { code } });
      expect(response.status, String(code)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
  });
});

describe('signing in with a second factor', () => {
  let user: SignedUpUser;
  let app: TotpApp;
  let recovery: string[];

  beforeAll(async () => {
    user = await signUp(server);
    ({ app, recoveryCodes: recovery } = await turnOnTotp(server, user));
  });

  it('answers the right password with a challenge, no token and no cookie', async () => {
    const first = await login(user);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      twoFactorRequired: true,
      challenge: expect.any(String),
      methods: ['totp', 'recovery'],
    });
    expect(first.headers.get('set-cookie')).toBeNull();
    // A wrong password is still just a wrong password.
    const wrong = await login(user, 'not the password');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Invalid username or password.', code: 'UNAUTHENTICATED' });
  });

  it('completes the sign-in with a code, and refuses the same code a second time', async () => {
    const code = await app.nextCode();
    const first = await login(user);
    const signedIn = await secondStep({ challenge: first.body.challenge, code });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toEqual({
      token: expect.any(String),
      user: expect.objectContaining({ username: user.username }),
    });
    expect((await server.get('/api/auth/me', { token: signedIn.body.token })).status).toBe(200);
    // The challenge is used up, and so is the code.
    expect(await secondStep({ challenge: first.body.challenge, code: totpCode(app.secret) })).toMatchObject({
      status: 401,
      body: expiredSignIn,
    });
    const replay = await secondStep({ challenge: (await login(user)).body.challenge, code });
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual(wrongCode);
  });

  it('accepts a recovery code once, in any case and with or without dashes', async () => {
    const code = recovery[0]!;
    const signedIn = await secondStep({
      challenge: (await login(user)).body.challenge,
      recoveryCode: code.toUpperCase(),
    });
    expect(signedIn.status).toBe(200);
    const again = await secondStep({
      challenge: (await login(user)).body.challenge,
      recoveryCode: code.replace(/-/g, ''),
    });
    expect(again.status).toBe(401);
    expect(again.body).toEqual({
      message: 'That recovery code is not valid or was used already.',
      code: 'INVALID_SECOND_FACTOR',
    });
    expect(
      (await ok<any>(server.get('/api/auth/2fa', { token: signedIn.body.token }))).recoveryCodesLeft,
    ).toBe(9);
  });

  it('kills a challenge after 5 wrong codes: even the right code is refused then', async () => {
    const { challenge } = (await login(user)).body;
    for (let attempt = 1; attempt <= 4; attempt++) {
      const wrong = await secondStep({ challenge, code: wrongTotpCode(app.secret) });
      expect(wrong.status, `attempt ${attempt}`).toBe(401);
      expect(wrong.body).toEqual(wrongCode);
    }
    const fifth = await secondStep({ challenge, code: wrongTotpCode(app.secret) });
    expect(fifth.body).toEqual({
      message: 'Too many wrong codes. Please sign in again.',
      code: 'UNAUTHENTICATED',
    });
    // (Refused before the code is looked at: the app's next code stays unused.)
    const right = await secondStep({ challenge, code: totpCode(app.secret) });
    expect(right.status).toBe(401);
    expect(right.body).toEqual(expiredSignIn);
    const [row] = await server.db
      .select()
      .from(signInChallenges)
      .where(eq(signInChallenges.userId, user.user.id))
      .orderBy(sql`created_at desc`)
      .limit(1);
    expect(row!.failedAttempts).toBe(5);
    expect(row!.completedAt).toBeNull();
  });

  it('lets a challenge live 5 minutes', async () => {
    const { challenge } = (await login(user)).body;
    const [row] = await server.db
      .select()
      .from(signInChallenges)
      .where(eq(signInChallenges.userId, user.user.id))
      .orderBy(sql`created_at desc`)
      .limit(1);
    const lifetime = row!.expiresAt.getTime() - row!.createdAt.getTime();
    expect(Math.abs(lifetime - limits.security.signInChallengeSeconds * 1000)).toBeLessThan(2_000);
    await server.db
      .update(signInChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(signInChallenges.tokenHash, row!.tokenHash));
    const late = await secondStep({ challenge, code: totpCode(app.secret) });
    expect(late.status).toBe(401);
    expect(late.body).toEqual(expiredSignIn);
  });

  it('refuses unknown challenges and malformed second steps, and lets nobody in', async () => {
    expect(await secondStep({ challenge: 'made-up', code: '123456' })).toMatchObject({
      status: 401,
      body: expiredSignIn,
    });
    const { challenge } = (await login(user)).body;
    const bad = [
      {},
      { challenge },
      { challenge, code: '12ab56' },
      { challenge, recoveryCode: 'short' },
      { challenge, code: '123456', recoveryCode: recovery[1] },
      { code: '123456' },
    ];
    for (const body of bad) {
      const response = await secondStep(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
      expect(response.body.token).toBeUndefined();
    }
  });
});

describe('wrong codes are limited per account', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({
      config: { rateLimits: { secondFactorFailuresPerUser: { points: 3, seconds: 900 } } },
    });
  });
  afterAll(() => limited.close());

  it('answers 429 once the account has had 3 wrong codes, whichever challenge they came with', async () => {
    const user = await signUp(limited);
    const { app } = await turnOnTotp(limited, user);
    for (let i = 0; i < 3; i++) {
      const { challenge } = (
        await limited.post('/api/auth/login', { body: { username: user.username, password: user.password } })
      ).body;
      const wrong = await limited.post('/api/auth/login/2fa', {
        body: { challenge, code: wrongTotpCode(app.secret) },
      });
      expect(wrong.status).toBe(401);
    }
    const { challenge } = (
      await limited.post('/api/auth/login', { body: { username: user.username, password: user.password } })
    ).body;
    const refused = await limited.post('/api/auth/login/2fa', {
      body: { challenge, code: await app.nextCode() },
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      message: 'Too many wrong codes. Please try again in 15 minutes.',
      code: 'RATE_LIMITED',
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
    // Another account is not affected.
    const other = await signUp(limited);
    const { app: otherApp } = await turnOnTotp(limited, other);
    const { challenge: otherChallenge } = (
      await limited.post('/api/auth/login', { body: { username: other.username, password: other.password } })
    ).body;
    expect(
      (
        await limited.post('/api/auth/login/2fa', {
          body: { challenge: otherChallenge, code: await otherApp.nextCode() },
        })
      ).status,
    ).toBe(200);
  });
});

describe('turning the authenticator app off', () => {
  it('needs the password and a code (or a recovery code), then signs in with the password alone', async () => {
    const user = await signUp(server);
    const { app, recoveryCodes: codes } = await turnOnTotp(server, user);
    const disable = (body: unknown) => server.post('/api/auth/2fa/totp/disable', { token: user.token, body });
    const badPassword = await disable({ password: 'wrong password', code: await app.nextCode() });
    expect(badPassword.status).toBe(403);
    expect(badPassword.body).toEqual({
      message: 'That password is not right.',
      code: 'INVALID_SECOND_FACTOR',
      fieldErrors: { password: ['That password is not right'] },
    });
    const badCode = await disable({ password: user.password, code: wrongTotpCode(app.secret) });
    expect(badCode.status).toBe(403);
    expect(badCode.body).toEqual(wrongCode);
    expect((await disable({ password: user.password })).status).toBe(400);
    expect((await login(user)).body.twoFactorRequired).toBe(true);

    const off = await disable({ password: user.password, code: codes[3] });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ message: 'The authenticator app is turned off.' });
    expect((await login(user)).body.token).toEqual(expect.any(String));
    expect(
      await server.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.user.id)),
    ).toEqual([]);
    expect(server.mails.at(-1)).toMatchObject({
      to: user.email,
      subject: 'Two-factor sign-in with an authenticator app is off',
    });
    const twice = await disable({ password: user.password, code: await app.nextCode() });
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ message: 'The authenticator app is not turned on.', code: 'CONFLICT' });
  });
});
