/**
 * Accounts as an attacker uses them: rate limits with 429 and Retry-After,
 * no lock-out of an owner by a stranger, no account enumeration, reset links
 * checked before any password is hashed, and sessions ended by a reset.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '../../../contract/limits';
import type { Config } from '../../config';
import { users } from '../../db/schema';
import { signUp, startTestServer, type TestServer } from '../../test/harness';
import { TestClients } from '../../test/socket-client';

const password = 'correct horse battery';
const resetAnswer = {
  success: true,
  message: 'If an account exists for this email, a password reset link has been sent to it.',
};

let counter = 0;
function newAccount() {
  counter++;
  const username = `abuse_${process.pid % 1000}_${counter}`;
  return { username, email: `${username}@example.test`, password, full_name: `Abuse ${counter}` };
}

/** A server with the production limits, behind a proxy so that tests can be several addresses. */
async function limitedServer(overrides: Config['rateLimits'] = {}, mailFails = () => false) {
  return startTestServer({
    config: { trustProxy: true, rateLimits: { ...limits.rateLimits, ...overrides } },
    mailer: {
      async send() {
        if (mailFails()) throw new Error('SMTP server unreachable');
      },
    },
  });
}
const from = (address: string) => ({ 'x-forwarded-for': address });

describe('registration', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await limitedServer();
  });
  afterAll(() => server.close());

  it('allows 10 registrations an hour from one address, then answers 429 with Retry-After and creates nothing', async () => {
    for (let i = 0; i < 10; i++) {
      const response = await server.post('/api/auth/register', {
        body: newAccount(),
        headers: from('10.1.0.1'),
      });
      expect(response.status).toBe(201);
    }
    const before = (await server.db.select().from(users)).length;
    const refused = await server.post('/api/auth/register', {
      body: newAccount(),
      headers: from('10.1.0.1'),
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      message: 'Too many registrations from this address. Please try again in 60 minutes.',
      code: 'RATE_LIMITED',
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect((await server.db.select().from(users)).length).toBe(before);
    // Another address is not affected.
    expect(
      (await server.post('/api/auth/register', { body: newAccount(), headers: from('10.1.0.2') })).status,
    ).toBe(201);
  });
});

describe('password reset requests', () => {
  let server: TestServer;
  let mailFails = false;
  beforeAll(async () => {
    server = await limitedServer({}, () => mailFails);
  });
  afterAll(() => server.close());

  it('mails one address at most 3 times an hour, whoever asks', async () => {
    const user = await signUp(server);
    for (const address of ['10.2.0.1', '10.2.0.2', '10.2.0.3']) {
      const response = await server.post('/api/auth/reset_password', {
        body: { email: user.email },
        headers: from(address),
      });
      expect(response.body).toEqual(resetAnswer);
    }
    const mailsBefore = server.mails.length;
    const refused = await server.post('/api/auth/reset_password', {
      body: { email: user.email.toUpperCase() },
      headers: from('10.2.0.4'),
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      message: 'Too many password reset requests for this email. Please try again in 60 minutes.',
      code: 'RATE_LIMITED',
    });
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(server.mails.length).toBe(mailsBefore);
  });

  it('takes at most 10 requests an hour from one address', async () => {
    for (let i = 0; i < 10; i++) {
      const response = await server.post('/api/auth/reset_password', {
        body: { email: `nobody${i}@example.test` },
        headers: from('10.2.1.1'),
      });
      expect(response.status).toBe(200);
    }
    const refused = await server.post('/api/auth/reset_password', {
      body: { email: 'nobody-else@example.test' },
      headers: from('10.2.1.1'),
    });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('Too many password reset requests. Please try again in 60 minutes.');
  });

  it('answers the same, even when the mail cannot be sent, whether or not the account exists', async () => {
    const user = await signUp(server);
    mailFails = true;
    try {
      const known = await server.post('/api/auth/reset_password', {
        body: { email: user.email },
        headers: from('10.2.2.1'),
      });
      const unknown = await server.post('/api/auth/reset_password', {
        body: { email: 'no-such-account@example.test' },
        headers: from('10.2.2.1'),
      });
      expect([known.status, known.body]).toEqual([200, resetAnswer]);
      expect([unknown.status, unknown.body]).toEqual([200, resetAnswer]);
      expect(Object.fromEntries(known.headers)).toMatchObject({
        'content-type': unknown.headers.get('content-type'),
        'content-length': unknown.headers.get('content-length'),
      });
    } finally {
      mailFails = false;
    }
  });

  it('refuses bogus reset links, whatever the new password', async () => {
    for (let i = 0; i < 20; i++) {
      const response = await server.post(`/api/auth/reset_password/someone/bogus-token-${i}`, {
        body: { newPassword: 'a brand new passphrase' },
      });
      expect(response.status).toBe(400);
    }
  });
});

describe('sign-in failures', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await limitedServer();
  });
  afterAll(() => server.close());

  const login = (username: string, secret: string, address: string) =>
    server.post('/api/auth/login', { body: { username, password: secret }, headers: from(address) });

  it('does not let a stranger lock the owner out: 10 failures block that stranger’s address only', async () => {
    const owner = await signUp(server);
    for (let i = 0; i < 10; i++)
      expect((await login(owner.username, 'wrong password!', '10.3.0.66')).status).toBe(401);
    const stranger = await login(owner.username, owner.password, '10.3.0.66');
    expect(stranger.status).toBe(429);
    expect(stranger.body.message).toBe('Too many sign-in attempts. Please try again in 15 minutes.');
    expect(Number(stranger.headers.get('retry-after'))).toBeGreaterThan(800);
    expect((await login(owner.username, owner.password, '10.3.0.1')).status).toBe(200);
  });

  it('keeps brute force from one address slow across usernames: 50 failures, then 429', async () => {
    const victim = await signUp(server);
    for (let i = 0; i < 50; i++)
      expect((await login(`guess_${i}`, 'wrong password!', '10.3.1.1')).status).toBe(401);
    expect((await login(victim.username, victim.password, '10.3.1.1')).status).toBe(429);
    expect((await login(victim.username, victim.password, '10.3.1.2')).status).toBe(200);
  });
});

describe('picture uploads', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await limitedServer({ pictureUploadsPerUser: { points: 2, seconds: 3600 } });
  });
  afterAll(() => server.close());

  it('counts a user’s uploads, before reading them, and answers 429 beyond the limit', async () => {
    const user = await signUp(server);
    const upload = () => {
      const form = new FormData();
      form.set('profilePicture', new Blob([Buffer.from('not a picture')], { type: 'image/png' }), 'p.png');
      return server.post('/api/user-profile/upload-picture', { token: user.token, rawBody: form });
    };
    expect((await upload()).status).toBe(400);
    expect((await upload()).status).toBe(400);
    const refused = await upload();
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      message: 'Too many picture uploads. Please try again in 60 minutes.',
      code: 'RATE_LIMITED',
    });
  });
});

describe('a password reset ends the sessions of the old password', () => {
  let server: TestServer;
  let clients: TestClients;
  beforeAll(async () => {
    server = await startTestServer();
    clients = new TestClients(server.url);
  });
  afterEach(() => clients.closeAll());
  afterAll(() => server.close());

  it('disconnects the sockets opened with the old password’s tokens, and the old token stops working', async () => {
    const user = await signUp(server);
    const socket = await clients.connect(user.token);
    const other = await signUp(server);
    const bystander = await clients.connect(other.token);
    await server.post('/api/auth/reset_password', { body: { email: user.email } });
    const link = server.lastLinkTo(user.email).replace(/^https?:\/\/[^/]+/, '');
    const disconnected = socket.disconnection(1_000);
    const reset = await server.post(link, { body: { newPassword: 'a brand new passphrase' } });
    expect(reset.status).toBe(200);
    expect(await disconnected).toBe('io server disconnect');
    expect(bystander.connected).toBe(true);
    expect((await server.get('/api/auth/me', { token: user.token })).status).toBe(401);
    const refused = await clients.create({ token: user.token }).refusal();
    expect(refused.message).toBe('unauthorized');
    // A session with the new password works.
    const fresh = await server.post('/api/auth/login', {
      body: { username: user.username, password: 'a brand new passphrase' },
    });
    expect((await clients.connect(fresh.body.token)).connected).toBe(true);
  });
});
