import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '../../../contract/limits';
import { passwordResets, settings, users } from '../../db/schema';
import { signInFirst } from '../../test/expected-errors';
import { signUp, startTestServer, type TestServer } from '../../test/harness';

const publicUrl = 'https://deals.example.test';
const password = 'correct horse battery';
const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

const registered = { message: 'Registration successful! Please check your email to verify your account.' };
const invalidLogin = { message: 'Invalid username or password.', code: 'UNAUTHENTICATED' };
const notVerified = {
  message: 'Please verify your email before signing in. Check your inbox for the verification link.',
  code: 'FORBIDDEN',
};
const invalidResetLink = {
  message: 'This reset link is invalid or has expired. Please request a new one.',
  code: 'VALIDATION_FAILED',
};
const resetAnswer = {
  success: true,
  message: 'If an account exists for this email, a password reset link has been sent to it.',
};
const resetDone = { success: true, message: 'Password has been changed successfully! Please log in.' };

let server: TestServer;
let mailFails = false;
beforeAll(async () => {
  server = await startTestServer({
    config: { publicUrl },
    mailer: {
      async send() {
        if (mailFails) throw new Error('SMTP server unreachable');
      },
    },
  });
});
afterAll(() => server.close());

let counter = 0;
/** A valid registration body with names no other test uses. */
function newAccount(prefix = 'acct') {
  counter++;
  const username = `${prefix}_${counter}`;
  return { username, email: `${username}@example.test`, password, full_name: `Full Name ${counter}` };
}

const keyFromLink = (link: string) => link.split('/').pop()!;

async function registerAccount(prefix?: string) {
  const account = newAccount(prefix);
  const response = await server.post('/api/auth/register', { body: account });
  expect(response.status).toBe(201);
  return { ...account, key: keyFromLink(server.lastLinkTo(account.email)) };
}

async function login(username: string, secret: string) {
  return server.post('/api/auth/login', { body: { username, password: secret } });
}

/** Failed sign-ins from this test file's one address; the per-address limit (50) must not be reached. */
let failedSignIns = 0;
async function failLogin(username: string) {
  failedSignIns++;
  expect(failedSignIns).toBeLessThan(50);
  return login(username, 'wrong password!');
}

async function jwtSecret(): Promise<string> {
  const [row] = await server.db.select().from(settings).where(eq(settings.key, 'jwt_secret'));
  return row!.value;
}

function sign(claims: Record<string, unknown>, secret: string, exp: number) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(exp - 3600)
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(secret));
}

describe('POST /api/auth/register', () => {
  it('creates an unverified user and mails the verification link to the given address', async () => {
    const account = newAccount();
    const sentBefore = server.mails.length;
    const response = await server.post('/api/auth/register', { body: account });
    expect(response.status).toBe(201);
    expect(response.body).toEqual(registered);

    expect(server.mails.length).toBe(sentBefore + 1);
    const mail = server.mails.at(-1)!;
    expect(mail.to).toBe(account.email);
    expect(mail.subject).toBe('Verify your Dealmaker account');
    expect(mail.link).toMatch(new RegExp(`^${publicUrl}/api/auth/register/[A-Za-z0-9_-]{43}$`));
    expect(mail.text).toContain(mail.link);

    const [row] = await server.db.select().from(users).where(eq(users.username, account.username));
    expect(row!.email).toBe(account.email);
    expect(row!.fullName).toBe(account.full_name);
    expect(row!.verifiedAt).toBeNull();
    // Only an argon2id hash of the password and a hash of the key are stored.
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row!.passwordHash).not.toContain(account.password);
    expect(row!.verificationKeyHash).not.toBe(keyFromLink(mail.link));

    expect((await login(account.username, account.password)).status).toBe(403);
  });

  it('accepts the shortest and longest allowed username and password', async () => {
    for (const [username, secret] of [
      ['a.b', '12345678'],
      ['A-b_c.d-0123456789012345678901', 'x'.repeat(200)],
    ] as const) {
      const response = await server.post('/api/auth/register', {
        body: { username, email: `${username}@example.test`, password: secret, full_name: 'Edge Case' },
      });
      expect(response.status).toBe(201);
    }
  });

  it('refuses each missing field with its own message', async () => {
    const messages = {
      username: 'Username is required',
      password: 'Password is required',
      email: 'Email is required',
      full_name: 'Full name is required',
    };
    for (const [field, message] of Object.entries(messages)) {
      const body: Record<string, string> = newAccount();
      delete body[field];
      const response = await server.post('/api/auth/register', { body });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        message,
        code: 'VALIDATION_FAILED',
        fieldErrors: { [field]: [message] },
      });
    }
  });

  it('refuses blank fields', async () => {
    const length = 'Username must be 3–30 characters';
    const characters = 'Username may contain only letters, digits, dot, dash and underscore';
    const cases = [
      ['username', '', [length, characters]],
      ['username', '   ', [length, characters]],
      ['password', '', ['Password must be at least 8 characters']],
      ['email', '   ', ['Email is required']],
      ['full_name', '   ', ['Full name is required']],
    ] as const;
    for (const [field, value, messages] of cases) {
      const response = await server.post('/api/auth/register', { body: { ...newAccount(), [field]: value } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        message: messages[0],
        code: 'VALIDATION_FAILED',
        fieldErrors: { [field]: messages },
      });
    }
  });

  it('refuses a malformed email', async () => {
    for (const email of ['not-an-email', 'a@', '@example.test', 'two@@example.test', 'a b@example.test']) {
      const response = await server.post('/api/auth/register', { body: { ...newAccount(), email } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        message: 'Please enter a valid email address',
        code: 'VALIDATION_FAILED',
        fieldErrors: { email: ['Please enter a valid email address'] },
      });
    }
  });

  it('refuses a password shorter than 8 characters', async () => {
    const response = await server.post('/api/auth/register', {
      body: { ...newAccount(), password: '1234567' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      message: 'Password must be at least 8 characters',
      code: 'VALIDATION_FAILED',
      fieldErrors: { password: ['Password must be at least 8 characters'] },
    });
  });

  it('refuses usernames with other characters', async () => {
    const message = 'Username may contain only letters, digits, dot, dash and underscore';
    for (const username of ['has space', 'slash/name', 'émile', 'a+b', 'semi;colon', 'at@sign', 'percent%']) {
      const response = await server.post('/api/auth/register', { body: { ...newAccount(), username } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        message,
        code: 'VALIDATION_FAILED',
        fieldErrors: { username: [message] },
      });
    }
  });

  it('refuses usernames shorter than 3 or longer than 30 characters', async () => {
    const message = 'Username must be 3–30 characters';
    for (const username of ['ab', 'x'.repeat(31)]) {
      const response = await server.post('/api/auth/register', { body: { ...newAccount(), username } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        message,
        code: 'VALIDATION_FAILED',
        fieldErrors: { username: [message] },
      });
    }
  });

  it('refuses a username taken in any letter case', async () => {
    const first = await registerAccount('Taken');
    const sentBefore = server.mails.length;
    for (const username of [first.username, first.username.toUpperCase(), first.username.toLowerCase()]) {
      const response = await server.post('/api/auth/register', {
        body: { ...newAccount(), username },
      });
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ message: 'Username is already taken.', code: 'CONFLICT' });
    }
    expect(server.mails.length).toBe(sentBefore);
  });

  it('does not reveal that an email is taken, in any letter case: it answers as for a new account and mails the owner', async () => {
    const first = await registerAccount('mailowner');
    const fresh = await server.post('/api/auth/register', { body: newAccount() });
    expect(fresh.status).toBe(201);
    const usersBefore = (await server.db.select().from(users)).length;
    const sentBefore = server.mails.length;
    for (const email of [
      first.email,
      first.email.toUpperCase(),
      `  ${first.email.replace('example', 'EXAMPLE')}  `,
    ]) {
      const response = await server.post('/api/auth/register', { body: { ...newAccount(), email } });
      expect(response.status).toBe(fresh.status);
      expect(response.body).toEqual(fresh.body);
    }
    expect((await server.db.select().from(users)).length).toBe(usersBefore);
    const notices = server.mails.slice(sentBefore);
    expect(notices.map((mail) => [mail.to, mail.subject])).toEqual(
      Array.from({ length: 3 }, () => [first.email, 'Someone tried to register with your email']),
    );
    expect(notices[0]!.text).toContain(`You already have an account (${first.username})`);
  });

  it('lets exactly one of two simultaneous registrations of a name through', async () => {
    const a = newAccount('race');
    const b = { ...newAccount(), username: a.username.toUpperCase() };
    const responses = await Promise.all([
      server.post('/api/auth/register', { body: a }),
      server.post('/api/auth/register', { body: b }),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(responses.find((r) => r.status === 409)!.body).toEqual({
      message: 'Username is already taken.',
      code: 'CONFLICT',
    });
    const rows = await server.db
      .select()
      .from(users)
      .where(sql`lower(${users.username}) = ${a.username.toLowerCase()}`);
    expect(rows).toHaveLength(1);
  });

  it('refuses wrong types with an error per field', async () => {
    const response = await server.post('/api/auth/register', {
      body: { username: 123, password: true, email: ['a@example.test'], full_name: { first: 'A' } },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_FAILED');
    expect(response.body.message).toBe('Username is required');
    expect(response.body.fieldErrors).toEqual({
      username: ['Username is required'],
      password: ['Password is required'],
      email: ['Email is required'],
      full_name: ['Full name is required'],
    });
  });

  it('refuses a request without a body', async () => {
    const withoutType = await server.post('/api/auth/register');
    expect(withoutType.status).toBe(400);
    expect(withoutType.body).toEqual({ message: 'Request body is missing.', code: 'VALIDATION_FAILED' });

    const emptyJson = await server.post('/api/auth/register', {
      headers: { 'content-type': 'application/json' },
    });
    expect(emptyJson.status).toBe(400);
    expect(emptyJson.body).toEqual({ message: 'Request body is missing.', code: 'VALIDATION_FAILED' });

    const notAnObject = await server.post('/api/auth/register', { body: ['a'] });
    expect(notAnObject.status).toBe(400);
    expect(notAnObject.body.code).toBe('VALIDATION_FAILED');
  });

  it('does not keep the account when the verification mail cannot be sent, so the user can try again', async () => {
    const account = newAccount('mailfail');
    mailFails = true;
    try {
      const response = await server.post('/api/auth/register', { body: account });
      expect(response.status).toBe(503);
      expect(response.body).toEqual({
        message: 'Could not send the email. Please try again later.',
        code: 'UNAVAILABLE',
      });
    } finally {
      mailFails = false;
    }
    const retry = await server.post('/api/auth/register', { body: account });
    expect(retry.status).toBe(201);
  });
});

describe('GET /api/auth/register/{key}', () => {
  it('verifies the email, after which the user can sign in', async () => {
    const account = await registerAccount();
    const response = await server.get(`/api/auth/register/${account.key}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Your email has been verified successfully!' });
    expect((await login(account.username, account.password)).status).toBe(200);
  });

  it('refuses an unknown key', async () => {
    for (const key of ['not-a-real-key', 'A'.repeat(43)]) {
      const response = await server.get(`/api/auth/register/${key}`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        message: 'This verification link is invalid or has expired.',
        code: 'VALIDATION_FAILED',
      });
    }
  });

  it('answers a second click with an already-verified message', async () => {
    const account = await registerAccount();
    expect((await server.get(`/api/auth/register/${account.key}`)).status).toBe(200);
    const again = await server.get(`/api/auth/register/${account.key}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ message: 'Your email is already verified. You can sign in.' });
  });

  it('gives a browser navigation the web app, never JSON, and does not verify by itself', async () => {
    const account = await registerAccount();
    const response = await server.get(`/api/auth/register/${account.key}`, {
      headers: { accept: browserAccept },
    });
    const type = response.headers.get('content-type') ?? '';
    expect(type).not.toContain('json');
    if (response.status === 200) {
      expect(type).toContain('text/html');
      expect(response.body).toContain('<div id="root">');
    } else {
      expect(response.status).toBe(503);
      expect(type).toContain('text/plain');
      expect(response.body).toContain('not built');
    }
    expect((await login(account.username, account.password)).status).toBe(403);
  });

  it('serves the built web app to a browser for the verification and reset pages', async () => {
    const webDist = await mkdtemp(path.join(os.tmpdir(), 'dealmaker-web-'));
    await writeFile(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
    const own = await startTestServer({ webDist });
    try {
      const user = await signUp(own);
      await own.post('/api/auth/reset_password', { body: { email: user.email } });
      const resetPath = own.lastLinkTo(user.email).replace(/^https?:\/\/[^/]+/, '');
      for (const page of ['/api/auth/register/some-key', resetPath]) {
        const response = await own.get(page, { headers: { accept: browserAccept } });
        expect(response.status, page).toBe(200);
        expect(response.headers.get('content-type')).toContain('text/html');
        expect(response.headers.get('cache-control')).toBe('no-cache');
        expect(response.body).toBe('<!doctype html><div id="root"></div>');
      }
    } finally {
      await own.close();
      await rm(webDist, { recursive: true, force: true });
    }
  });

  it('treats a call that prefers JSON as a call', async () => {
    const account = await registerAccount();
    const response = await server.get(`/api/auth/register/${account.key}`, {
      headers: { accept: 'application/json, text/html;q=0.5' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Your email has been verified successfully!' });
  });
});

describe('POST /api/auth/login', () => {
  it('answers a token and the user without any secret', async () => {
    const user = await signUp(server);
    const response = await login(user.username, user.password);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['token', 'user']);
    const body = response.body;
    expect(Object.keys(body.user).sort()).toEqual([
      'createdAt',
      'email',
      'full_name',
      'id',
      'profile',
      'updatedAt',
      'username',
    ]);
    expect(body.user).toEqual({
      id: expect.any(Number),
      username: user.username,
      email: user.email,
      full_name: user.full_name,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      profile: { profile_picture: null, date_of_birth: null, address: null, occupation: null },
    });
    const raw = JSON.stringify(body.user);
    for (const secret of ['password', 'hash', 'argon2', 'verification', 'tokenVersion', 'token_version']) {
      expect(raw).not.toContain(secret);
    }

    expect(decodeProtectedHeader(body.token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = decodeJwt(body.token);
    expect(claims).toMatchObject({ id: body.user.id, username: user.username, email: user.email });
    const week = 7 * 24 * 60 * 60;
    expect(claims.exp! - Date.now() / 1000).toBeGreaterThan(week - 60);
    expect(claims.exp! - Date.now() / 1000).toBeLessThanOrEqual(week + 1);
  });

  it('refuses an unverified user with 403', async () => {
    const account = await registerAccount();
    const response = await login(account.username, account.password);
    expect(response.status).toBe(403);
    expect(response.body).toEqual(notVerified);
  });

  it('refuses a wrong password and an unknown user alike', async () => {
    const user = await signUp(server);
    const wrong = await failLogin(user.username);
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(invalidLogin);
    const unknown = await failLogin('nobody_by_that_name');
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(invalidLogin);
    failedSignIns++;
    const unverifiedWrong = await login((await registerAccount()).username, 'not the password');
    expect(unverifiedWrong.status).toBe(401);
    expect(unverifiedWrong.body).toEqual(invalidLogin);
  });

  it('finds the username in any letter case', async () => {
    const user = await signUp(server, { username: `MixedCase_${process.pid % 1000}` });
    for (const username of [
      user.username.toUpperCase(),
      user.username.toLowerCase(),
      `  ${user.username} `,
    ]) {
      const response = await login(username, user.password);
      expect(response.status).toBe(200);
      expect(response.body.user.username).toBe(user.username);
    }
  });

  it('refuses missing or mistyped fields', async () => {
    const missing = await server.post('/api/auth/login', { body: { username: 'someone' } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      message: 'Password is required',
      code: 'VALIDATION_FAILED',
      fieldErrors: { password: ['Password is required'] },
    });
    const blank = await server.post('/api/auth/login', { body: { username: '  ', password: '' } });
    expect(blank.status).toBe(400);
    expect(blank.body.fieldErrors).toEqual({
      username: ['Username is required'],
      password: ['Password is required'],
    });
    const none = await server.post('/api/auth/login');
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ message: 'Request body is missing.', code: 'VALIDATION_FAILED' });
  });

  it('refuses every attempt for a username after 10 failures, even the right password', async () => {
    const user = await signUp(server);
    const other = await signUp(server);
    for (let attempt = 1; attempt <= 10; attempt++) {
      const response = await failLogin(user.username.toUpperCase());
      expect(response.status).toBe(401);
    }
    for (const [username, secret] of [
      [user.username, 'wrong password!'],
      [user.username, user.password],
      [user.username.toLowerCase(), user.password],
    ] as const) {
      const response = await login(username, secret);
      expect(response.status).toBe(429);
      expect(response.body).toEqual({
        message: 'Too many sign-in attempts. Please try again in 15 minutes.',
        code: 'RATE_LIMITED',
      });
    }
    // Another account is not affected.
    expect((await login(other.username, other.password)).status).toBe(200);
  });

  it('starts the count again after a successful sign-in', async () => {
    const user = await signUp(server);
    for (let attempt = 1; attempt <= 9; attempt++) expect((await failLogin(user.username)).status).toBe(401);
    expect((await login(user.username, user.password)).status).toBe(200);
    for (let attempt = 1; attempt <= 9; attempt++) expect((await failLogin(user.username)).status).toBe(401);
    expect((await login(user.username, user.password)).status).toBe(200);
  });

  it('limits failed attempts from one address across usernames', async () => {
    const own = await startTestServer({ config: { rateLimits: limits.rateLimits } });
    try {
      const user = await signUp(own);
      const statuses: number[] = [];
      for (let attempt = 1; attempt <= 50; attempt++) {
        // Without TRUST_PROXY a forged X-Forwarded-For does not make a new address.
        const response = await own.post('/api/auth/login', {
          body: { username: `guess${attempt}`, password },
          headers: { 'x-forwarded-for': `10.0.0.${attempt}` },
        });
        statuses.push(response.status);
      }
      expect(statuses.every((status) => status === 401)).toBe(true);
      const refused = await own.post('/api/auth/login', { body: { username: user.username, password } });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        message: 'Too many sign-in attempts. Please try again in 15 minutes.',
        code: 'RATE_LIMITED',
      });
    } finally {
      await own.close();
    }
  });
});

describe('GET /api/auth/me', () => {
  it('answers the signed-in user from a bearer token', async () => {
    const user = await signUp(server);
    const response = await server.get('/api/auth/me', { token: user.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: user.user.id,
      username: user.username,
      email: user.email,
      isOperator: false,
      secondFactor: false,
    });
  });

  it('accepts the auth_token cookie instead of the header', async () => {
    const user = await signUp(server);
    const response = await server.get('/api/auth/me', {
      headers: { cookie: `theme=dark; auth_token=${encodeURIComponent(user.token)}; other=1` },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: user.user.id,
      username: user.username,
      email: user.email,
      isOperator: false,
      secondFactor: false,
    });
  });

  it('refuses a request without a token', async () => {
    const response = await server.get('/api/auth/me');
    expect(response.status).toBe(401);
    expect(response.body).toEqual(signInFirst);
  });

  it('refuses garbage tokens, in the header or the cookie', async () => {
    const attempts: Record<string, string>[] = [
      { authorization: 'Bearer not-a-jwt' },
      { authorization: 'Bearer ' },
      { authorization: 'Bearer a.b.c' },
      { authorization: 'Basic dXNlcjpwYXNz' },
      { cookie: 'auth_token=not-a-jwt' },
      { cookie: 'auth_token=' },
      { cookie: 'auth_token=%E0%A4%A' },
    ];
    for (const headers of attempts) {
      const response = await server.get('/api/auth/me', { headers });
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(response.body).toEqual(signInFirst);
    }
  });

  it('refuses a token signed with another secret', async () => {
    const user = await signUp(server);
    const claims = decodeJwt(user.token);
    const forged = await sign(claims, 'another-secret-that-is-long-enough-0123456789', claims.exp!);
    const response = await server.get('/api/auth/me', { token: forged });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(signInFirst);
  });

  it('refuses an expired token signed with the right secret', async () => {
    const user = await signUp(server);
    const secret = await jwtSecret();
    const { sid } = decodeJwt(user.token);
    const claims = { id: user.user.id, username: user.username, email: user.email, ver: 0, sid };
    const now = Math.floor(Date.now() / 1000);
    // The same claims signed the same way are accepted while they have not expired.
    const fresh = await sign(claims, secret, now + 60);
    expect((await server.get('/api/auth/me', { token: fresh })).status).toBe(200);
    // A token that names no session (as issued before sessions existed) is refused, even well signed.
    const { sid: _session, ...sessionless } = claims;
    const old = await sign(sessionless, secret, now + 60);
    expect((await server.get('/api/auth/me', { token: old })).status).toBe(401);

    const expired = await sign(claims, secret, now - 60);
    const response = await server.get('/api/auth/me', { token: expired });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(signInFirst);
  });

  it('refuses a token with an algorithm other than HS256 or of a user that does not exist', async () => {
    const user = await signUp(server);
    const [header, payload] = user.token.split('.');
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    expect((await server.get('/api/auth/me', { token: unsigned })).status).toBe(401);
    expect(header).toBeTruthy();

    const ghost = await sign(
      { id: 999_999, username: 'ghost', email: 'ghost@example.test', ver: 0 },
      await jwtSecret(),
      Math.floor(Date.now() / 1000) + 60,
    );
    expect((await server.get('/api/auth/me', { token: ghost })).status).toBe(401);
  });
});

describe('password reset', () => {
  async function requestReset(email: string) {
    const response = await server.post('/api/auth/reset_password', { body: { email } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(resetAnswer);
  }

  function resetPath(link: string) {
    expect(link.startsWith(`${publicUrl}/api/auth/reset_password/`)).toBe(true);
    return link.slice(publicUrl.length);
  }

  it('answers the same for a known and an unknown email, and mails only the known one', async () => {
    const user = await signUp(server);
    const sentBefore = server.mails.length;
    await requestReset('nobody-here@example.test');
    expect(server.mails.length).toBe(sentBefore);

    await requestReset(user.email.toUpperCase());
    expect(server.mails.length).toBe(sentBefore + 1);
    const mail = server.mails.at(-1)!;
    expect(mail.to).toBe(user.email);
    expect(mail.subject).toBe('Reset your Dealmaker password');
    expect(mail.link).toMatch(
      new RegExp(`^${publicUrl}/api/auth/reset_password/${user.username}/[A-Za-z0-9_-]{43}$`),
    );
    expect(mail.text).toContain(mail.link);
  });

  it('refuses a malformed or missing email', async () => {
    const bad = await server.post('/api/auth/reset_password', { body: { email: 'nope' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      message: 'Please enter a valid email address',
      code: 'VALIDATION_FAILED',
      fieldErrors: { email: ['Please enter a valid email address'] },
    });
    const missing = await server.post('/api/auth/reset_password', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.fieldErrors).toEqual({ email: ['Email is required'] });
  });

  it('changes the password once, signs out older tokens and refuses the link a second time', async () => {
    const user = await signUp(server);
    const oldToken = user.token;
    await requestReset(user.email);
    const path = resetPath(server.lastLinkTo(user.email));

    const page = await server.get(path, { headers: { accept: browserAccept } });
    expect(page.headers.get('content-type') ?? '').not.toContain('json');
    expect([200, 503]).toContain(page.status);

    const newPassword = 'a brand new passphrase';
    const response = await server.post(path, { body: { newPassword } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(resetDone);

    expect((await login(user.username, newPassword)).status).toBe(200);
    const old = await failLogin(user.username);
    expect(old.status).toBe(401);
    failedSignIns++;
    expect((await login(user.username, user.password)).body).toEqual(invalidLogin);

    const me = await server.get('/api/auth/me', { token: oldToken });
    expect(me.status).toBe(401);
    expect(me.body).toEqual(signInFirst);
    const fresh = (await login(user.username, newPassword)).body.token;
    expect((await server.get('/api/auth/me', { token: fresh })).status).toBe(200);

    const again = await server.post(path, { body: { newPassword: 'yet another passphrase' } });
    expect(again.status).toBe(400);
    expect(again.body).toEqual(invalidResetLink);
    expect((await login(user.username, newPassword)).status).toBe(200);
  });

  it('refuses an expired link', async () => {
    const user = await signUp(server);
    await requestReset(user.email);
    const path = resetPath(server.lastLinkTo(user.email));
    await server.db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResets.userId, user.user.id));
    const response = await server.post(path, { body: { newPassword: 'a brand new passphrase' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(invalidResetLink);
    expect((await login(user.username, user.password)).status).toBe(200);
  });

  it('sets the link to expire after one hour', async () => {
    const user = await signUp(server);
    const before = Date.now();
    await requestReset(user.email);
    const [row] = await server.db
      .select()
      .from(passwordResets)
      .where(eq(passwordResets.userId, user.user.id));
    const lifetime = row!.expiresAt.getTime() - before;
    expect(lifetime).toBeGreaterThan(3600_000 - 5_000);
    expect(lifetime).toBeLessThanOrEqual(3600_000 + 5_000);
    // Only the token's hash is stored.
    expect(server.lastLinkTo(user.email)).not.toContain(row!.tokenHash);
  });

  it('refuses a link carrying another username, and the real link still works afterwards', async () => {
    const user = await signUp(server);
    const other = await signUp(server);
    await requestReset(user.email);
    const path = resetPath(server.lastLinkTo(user.email));
    const token = path.split('/').pop()!;

    for (const username of [other.username, 'nobody_at_all']) {
      const response = await server.post(`/api/auth/reset_password/${username}/${token}`, {
        body: { newPassword: 'a brand new passphrase' },
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(invalidResetLink);
    }
    expect((await login(other.username, other.password)).status).toBe(200);

    const response = await server.post(`/api/auth/reset_password/${user.username.toUpperCase()}/${token}`, {
      body: { newPassword: 'a brand new passphrase' },
    });
    expect(response.status).toBe(200);
    expect((await login(user.username, 'a brand new passphrase')).status).toBe(200);
  });

  it('refuses an unknown token', async () => {
    const user = await signUp(server);
    const response = await server.post(`/api/auth/reset_password/${user.username}/${'A'.repeat(43)}`, {
      body: { newPassword: 'a brand new passphrase' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(invalidResetLink);
  });

  it('refuses a too-short or missing new password and keeps the link usable', async () => {
    const user = await signUp(server);
    await requestReset(user.email);
    const path = resetPath(server.lastLinkTo(user.email));

    const short = await server.post(path, { body: { newPassword: '1234567' } });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({
      message: 'Password must be at least 8 characters',
      code: 'VALIDATION_FAILED',
      fieldErrors: { newPassword: ['Password must be at least 8 characters'] },
    });
    const missing = await server.post(path, { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.fieldErrors).toEqual({ newPassword: ['Password is required'] });

    expect((await server.post(path, { body: { newPassword: '12345678' } })).status).toBe(200);
    expect((await login(user.username, '12345678')).status).toBe(200);
  });

  it('makes every other open link of the user stop working once one is used', async () => {
    const user = await signUp(server);
    await requestReset(user.email);
    const first = resetPath(server.lastLinkTo(user.email));
    await requestReset(user.email);
    const second = resetPath(server.lastLinkTo(user.email));
    expect(second).not.toBe(first);

    expect((await server.post(second, { body: { newPassword: 'a brand new passphrase' } })).status).toBe(200);
    const stale = await server.post(first, { body: { newPassword: 'another passphrase' } });
    expect(stale.status).toBe(400);
    expect(stale.body).toEqual(invalidResetLink);
  });

  it('lifts the sign-in limit of the user and verifies an unverified email', async () => {
    const user = await signUp(server);
    for (let attempt = 1; attempt <= 10; attempt++) expect((await failLogin(user.username)).status).toBe(401);
    expect((await login(user.username, user.password)).status).toBe(429);
    await requestReset(user.email);
    const path = resetPath(server.lastLinkTo(user.email));
    expect((await server.post(path, { body: { newPassword: 'a brand new passphrase' } })).status).toBe(200);
    expect((await login(user.username, 'a brand new passphrase')).status).toBe(200);

    const unverified = await registerAccount();
    await requestReset(unverified.email);
    const unverifiedPath = resetPath(server.lastLinkTo(unverified.email));
    expect(
      (await server.post(unverifiedPath, { body: { newPassword: 'a brand new passphrase' } })).status,
    ).toBe(200);
    expect((await login(unverified.username, 'a brand new passphrase')).status).toBe(200);
  });
});
