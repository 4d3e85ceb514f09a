/**
 * Passkeys (WebAuthn), with a software authenticator that answers as a browser's would: several named
 * passkeys per account, signing in with one alone (no username), as the second factor of a password
 * sign-in, and to confirm it is you (step-up). Every challenge is used once and only for what it was for.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passkeys, sessions } from '../../db/schema';
import { SoftwareAuthenticator, turnOnTotp } from '../../test/authenticators';
import { signInFirst } from '../../test/expected-errors';
import { ok, type SignedUpUser, signUp, startTestServer, type TestServer } from '../../test/harness';

let server: TestServer;
let origin: string;
beforeAll(async () => {
  server = await startTestServer();
  origin = server.app.config.publicUrl;
});
afterAll(() => server.close());

/** Adds a passkey made by `authenticator` to the user's account; the API's answer. */
async function addPasskey(user: { token: string }, authenticator: SoftwareAuthenticator, name?: string) {
  const options = await ok<any>(server.post('/api/auth/passkeys/register/options', { token: user.token }));
  return server.post('/api/auth/passkeys/register/verify', {
    token: user.token,
    body: { response: authenticator.createCredential(options), ...(name ? { name } : {}) },
  });
}

async function passkeySignIn(authenticator: SoftwareAuthenticator) {
  const options = await ok<any>(server.post('/api/auth/passkeys/login/options'));
  return server.post('/api/auth/passkeys/login/verify', {
    body: { response: authenticator.getAssertion(options) },
  });
}

describe('adding passkeys', () => {
  it('registers several named passkeys; the first comes with recovery codes', async () => {
    const user = await signUp(server, { full_name: 'Pat Keys' });
    const authenticator = new SoftwareAuthenticator(origin);
    const options = await ok<any>(server.post('/api/auth/passkeys/register/options', { token: user.token }));
    expect(options.rp).toEqual({ name: 'Dealmaker', id: 'localhost' });
    expect(options.user).toMatchObject({ name: user.username, displayName: 'Pat Keys' });
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required' });
    expect(options.excludeCredentials).toEqual([]);
    const first = await server.post('/api/auth/passkeys/register/verify', {
      token: user.token,
      headers: {
        'user-agent':
          'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
      },
      body: { response: authenticator.createCredential(options) },
    });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      passkey: {
        id: expect.any(Number),
        name: 'Passkey on Chrome on Linux',
        createdAt: expect.any(String),
        lastUsedAt: null,
        backedUp: false,
      },
      recoveryCodes: expect.arrayContaining([expect.stringMatching(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/)]),
    });
    expect(first.body.recoveryCodes).toHaveLength(10);
    expect(server.mails.at(-1)).toMatchObject({
      to: user.email,
      subject: 'A passkey was added to your account',
    });

    const second = await addPasskey(user, new SoftwareAuthenticator(origin), 'Work laptop');
    expect(second.status).toBe(201);
    expect(second.body.passkey.name).toBe('Work laptop');
    expect(second.body.recoveryCodes).toBeUndefined();
    const list = await ok<any[]>(server.get('/api/auth/passkeys', { token: user.token }));
    expect(list.map((p) => p.name)).toEqual(['Passkey on Chrome on Linux', 'Work laptop']);
    // The next registration excludes both, so one authenticator is not registered twice.
    const next = await ok<any>(server.post('/api/auth/passkeys/register/options', { token: user.token }));
    expect(next.excludeCredentials).toHaveLength(2);
  });

  it('refuses a used or foreign challenge, another origin, and strangers', async () => {
    const user = await signUp(server);
    const authenticator = new SoftwareAuthenticator(origin);
    const options = await ok<any>(server.post('/api/auth/passkeys/register/options', { token: user.token }));
    const response = authenticator.createCredential(options);
    expect(
      (await server.post('/api/auth/passkeys/register/verify', { token: user.token, body: { response } }))
        .status,
    ).toBe(201);
    const replay = await server.post('/api/auth/passkeys/register/verify', {
      token: user.token,
      body: { response },
    });
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({
      message: 'This passkey request has expired. Please try again.',
      code: 'VALIDATION_FAILED',
    });

    // Options asked for by one user cannot be used by another.
    const other = await signUp(server);
    const theirs = await ok<any>(server.post('/api/auth/passkeys/register/options', { token: user.token }));
    const stolen = await server.post('/api/auth/passkeys/register/verify', {
      token: other.token,
      body: { response: new SoftwareAuthenticator(origin).createCredential(theirs) },
    });
    expect(stolen.status).toBe(400);

    const phishing = new SoftwareAuthenticator('https://dea1maker.example');
    const fake = await addPasskey(other, phishing);
    expect(fake.status).toBe(400);
    expect(fake.body).toEqual({
      message: 'The passkey could not be verified. Please try again.',
      code: 'VALIDATION_FAILED',
    });
    expect(await server.db.select().from(passkeys).where(eq(passkeys.userId, other.user.id))).toEqual([]);

    expect((await server.post('/api/auth/passkeys/register/options')).body).toEqual(signInFirst);
    const malformed = await server.post('/api/auth/passkeys/register/verify', {
      token: user.token,
      body: { response: { id: 'x' } },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('VALIDATION_FAILED');
  });

  it('renames and removes only the user’s own passkeys', async () => {
    const user = await signUp(server);
    const { body } = await addPasskey(user, new SoftwareAuthenticator(origin));
    const id = body.passkey.id;
    const renamed = await server.request('PATCH', `/api/auth/passkeys/${id}`, {
      token: user.token,
      body: { name: '  Phone  ' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id, name: 'Phone' });
    const empty = await server.request('PATCH', `/api/auth/passkeys/${id}`, {
      token: user.token,
      body: { name: ' ' },
    });
    expect(empty.status).toBe(400);

    const stranger = await signUp(server);
    const notTheirs = await server.request('PATCH', `/api/auth/passkeys/${id}`, {
      token: stranger.token,
      body: { name: 'Mine' },
    });
    expect(notTheirs.status).toBe(404);
    expect(notTheirs.body).toEqual({ message: 'Passkey not found.', code: 'NOT_FOUND' });
    expect((await server.delete(`/api/auth/passkeys/${id}`, { token: stranger.token })).status).toBe(404);

    const removed = await server.delete(`/api/auth/passkeys/${id}`, { token: user.token });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ message: 'The passkey was removed.' });
    expect(await ok(server.get('/api/auth/passkeys', { token: user.token }))).toEqual([]);
    // With no factor left, its recovery codes go too, and the password alone signs in again.
    expect((await ok<any>(server.get('/api/auth/2fa', { token: user.token }))).recoveryCodesLeft).toBe(0);
    expect((await server.delete(`/api/auth/passkeys/${id}`, { token: user.token })).status).toBe(404);
  });
});

describe('signing in with a passkey', () => {
  let user: SignedUpUser;
  let authenticator: SoftwareAuthenticator;
  beforeAll(async () => {
    user = await signUp(server);
    authenticator = new SoftwareAuthenticator(origin);
    expect((await addPasskey(user, authenticator)).status).toBe(201);
  });

  it('signs in with the passkey alone, no username typed, with the usual answer', async () => {
    const options = await ok<any>(server.post('/api/auth/passkeys/login/options'));
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'required', allowCredentials: [] });
    const signedIn = await server.post('/api/auth/passkeys/login/verify', {
      body: { response: authenticator.getAssertion(options) },
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toEqual({
      token: expect.any(String),
      user: expect.objectContaining({ username: user.username }),
    });
    expect((await server.get('/api/auth/me', { token: signedIn.body.token })).body.username).toBe(
      user.username,
    );
    const [listed] = await ok<any[]>(server.get('/api/auth/passkeys', { token: signedIn.body.token }));
    expect(listed.lastUsedAt).toEqual(expect.any(String));
  });

  it('refuses a replayed assertion, an unknown passkey, and one without user verification', async () => {
    const options = await ok<any>(server.post('/api/auth/passkeys/login/options'));
    const assertion = authenticator.getAssertion(options);
    expect(
      (await server.post('/api/auth/passkeys/login/verify', { body: { response: assertion } })).status,
    ).toBe(200);
    const replay = await server.post('/api/auth/passkeys/login/verify', { body: { response: assertion } });
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({
      message: 'This passkey could not sign you in. Please try again or use your password.',
      code: 'UNAUTHENTICATED',
    });

    const unknown = new SoftwareAuthenticator(origin);
    unknown.createCredential({ rp: { id: 'localhost' }, user: { id: 'dW5rbm93bg' }, challenge: 'x' });
    expect((await passkeySignIn(unknown)).status).toBe(401);

    // A passkey alone stands for both factors only when the authenticator verified its user.
    const presenceOnly = new SoftwareAuthenticator(origin, { userVerified: false });
    const other = await signUp(server);
    expect((await addPasskey(other, presenceOnly)).status).toBe(201);
    expect((await passkeySignIn(presenceOnly)).status).toBe(401);
  });

  it('is the second factor of a password sign-in', async () => {
    const first = await server.post('/api/auth/login', {
      body: { username: user.username, password: user.password },
    });
    expect(first.body).toMatchObject({ twoFactorRequired: true, methods: ['passkey', 'recovery'] });
    expect(first.body.passkeyOptions.allowCredentials).toHaveLength(1);
    const done = await server.post('/api/auth/login/2fa', {
      body: {
        challenge: first.body.challenge,
        passkey: authenticator.getAssertion(first.body.passkeyOptions),
      },
    });
    expect(done.status).toBe(200);
    expect(done.body.token).toEqual(expect.any(String));

    // Another user's passkey cannot complete this user's sign-in.
    const stranger = await signUp(server);
    const theirs = new SoftwareAuthenticator(origin);
    await addPasskey(stranger, theirs);
    const next = await server.post('/api/auth/login', {
      body: { username: user.username, password: user.password },
    });
    const strangerOptions = await ok<any>(server.post('/api/auth/passkeys/login/options'));
    const wrong = await server.post('/api/auth/login/2fa', {
      body: { challenge: next.body.challenge, passkey: theirs.getAssertion(strangerOptions) },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({
      message: 'The passkey could not be verified. Please try again.',
      code: 'INVALID_SECOND_FACTOR',
    });
  });
});

describe('options for a passkey sign-in', () => {
  it('are limited per address, since anyone may ask for them and each is a stored challenge', async () => {
    const limited = await startTestServer({
      config: {
        trustProxy: true,
        rateLimits: { passkeySignInOptionsPerAddress: { points: 2, seconds: 60 } },
      },
    });
    try {
      const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
      expect((await limited.post('/api/auth/passkeys/login/options', from('10.9.0.1'))).status).toBe(200);
      expect((await limited.post('/api/auth/passkeys/login/options', from('10.9.0.1'))).status).toBe(200);
      const refused = await limited.post('/api/auth/passkeys/login/options', from('10.9.0.1'));
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        message: expect.stringMatching(
          /^Too many passkey sign-in attempts\. Please try again in (59|60) seconds\.$/,
        ),
        code: 'RATE_LIMITED',
      });
      expect((await limited.post('/api/auth/passkeys/login/options', from('10.9.0.2'))).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('confirming it is you with a passkey', () => {
  it('makes a stale session fresh, and adding or removing a passkey then needs it', async () => {
    const user = await signUp(server);
    const authenticator = new SoftwareAuthenticator(origin);
    const added = await addPasskey(user, authenticator);
    const makeStale = () =>
      server.db
        .update(sessions)
        .set({ factorAt: new Date(Date.now() - 11 * 60_000) })
        .where(eq(sessions.userId, user.user.id));
    await makeStale();
    const stepUpNeeded = {
      message:
        'Please confirm it is you first: enter a code from your authenticator app or use your passkey.',
      code: 'STEP_UP_REQUIRED',
    };
    for (const call of [
      () => server.delete(`/api/auth/passkeys/${added.body.passkey.id}`, { token: user.token }),
      () => server.post('/api/auth/passkeys/register/options', { token: user.token }),
      () => server.post('/api/auth/2fa/totp/setup', { token: user.token }),
    ]) {
      const refused = await call();
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(stepUpNeeded);
    }
    const options = await ok<any>(server.post('/api/auth/step-up/passkey-options', { token: user.token }));
    const stepped = await server.post('/api/auth/step-up', {
      token: user.token,
      body: { passkey: authenticator.getAssertion(options) },
    });
    expect(stepped.status).toBe(200);
    expect(Date.parse(stepped.body.freshUntil) - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(
      (await server.delete(`/api/auth/passkeys/${added.body.passkey.id}`, { token: user.token })).status,
    ).toBe(200);
  });

  it('turns on the authenticator app beside a passkey, and both then complete a sign-in', async () => {
    const user = await signUp(server);
    await addPasskey(user, new SoftwareAuthenticator(origin));
    await turnOnTotp(server, user);
    const first = await server.post('/api/auth/login', {
      body: { username: user.username, password: user.password },
    });
    expect(first.body.methods).toEqual(['totp', 'passkey', 'recovery']);
  });
});
