/**
 * Step-up before money leaves: with a second factor on, a withdrawal (and a password or email change)
 * needs a factor given in this session in the last 10 minutes; an account with none works as before.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema';
import { signInWithTotp, type TotpApp, turnOnTotp, wrongTotpCode } from '../../test/authenticators';
import { signUpMany } from '../../test/deal-fixtures';
import { signInFirst } from '../../test/expected-errors';
import { ok, type SignedUpUser, signUp, startTestServer, type TestServer } from '../../test/harness';
import { dealWithDealmaker, deposit as depositInto } from '../../test/money-fixtures';
import { sessionStateTtlMs } from './sessions.service';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const stepUpNeeded = {
  message: 'Please confirm it is you first: enter a code from your authenticator app or use your passkey.',
  code: 'STEP_UP_REQUIRED',
};
const deposit = (token: string, amount: number) =>
  ok(server.post('/api/wallet/deposit', { token, body: { amount } }));
const withdraw = (token: string, amount: number) =>
  server.post('/api/wallet/withdraw', { token, body: { amount } });
const balance = async (token: string) =>
  (await ok<{ balance: number }>(server.get('/api/wallet', { token }))).balance;
/** Ten minutes and more have passed since this user's sessions last gave a factor (and caches forgot it). */
async function makeStale(userId: number) {
  await server.db
    .update(sessions)
    .set({ factorAt: new Date(Date.now() - 10 * 60_000 - 1000) })
    .where(eq(sessions.userId, userId));
  await new Promise((resolve) => setTimeout(resolve, sessionStateTtlMs + 50));
}

describe('an account without a second factor', () => {
  it('withdraws as before, however old its session', async () => {
    const user = await signUp(server);
    await deposit(user.token, 50);
    await makeStale(user.user.id);
    expect((await withdraw(user.token, 20)).status).toBe(200);
    expect(await balance(user.token)).toBe(30);
    expect(await ok(server.get('/api/auth/2fa', { token: user.token }))).toMatchObject({
      stepUpRequired: false,
    });
  });

  it('confirms it is itself with its password, and not with a code', async () => {
    const user = await signUp(server);
    const wrong = await server.post('/api/auth/step-up', {
      token: user.token,
      body: { password: 'not it at all' },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({
      message: 'That password is not right.',
      code: 'INVALID_SECOND_FACTOR',
      fieldErrors: { password: ['That password is not right'] },
    });
    const code = await server.post('/api/auth/step-up', { token: user.token, body: { code: '123456' } });
    expect(code.status).toBe(400);
    expect(code.body).toEqual({
      message: 'Enter your password to confirm it is you.',
      code: 'VALIDATION_FAILED',
    });
    const right = await ok<{ freshUntil: string }>(
      server.post('/api/auth/step-up', { token: user.token, body: { password: user.password } }),
    );
    expect(Date.parse(right.freshUntil) - Date.now()).toBeGreaterThan(9 * 60_000);
  });
});

describe('an account with the authenticator app', () => {
  let user: SignedUpUser;
  let app: TotpApp;
  let recoveryCodes: string[];
  let token: string;

  beforeAll(async () => {
    user = await signUp(server);
    ({ app, recoveryCodes } = await turnOnTotp(server, user));
    token = await signInWithTotp(server, user, app);
    await deposit(token, 100);
  });

  it('withdraws right after signing in with its code: the sign-in gave the factor', async () => {
    expect((await withdraw(token, 10)).status).toBe(200);
    expect(await balance(token)).toBe(90);
  });

  it('refuses a withdrawal 10 minutes later, moving nothing, until a code confirms it is the owner', async () => {
    await makeStale(user.user.id);
    const refused = await withdraw(token, 10);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(stepUpNeeded);
    expect(await balance(token)).toBe(90);
    expect((await ok<any>(server.get('/api/auth/2fa', { token }))).freshUntil).toBeNull();

    const wrong = await server.post('/api/auth/step-up', {
      token,
      body: { code: wrongTotpCode(app.secret) },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({
      message: 'That code is not right. Please try the current code from your authenticator app.',
      code: 'INVALID_SECOND_FACTOR',
    });
    const password = await server.post('/api/auth/step-up', { token, body: { password: user.password } });
    expect(password.status).toBe(400);
    expect(password.body).toEqual({
      message: 'Use your authenticator app, a recovery code or a passkey to confirm it is you.',
      code: 'VALIDATION_FAILED',
    });
    expect((await withdraw(token, 10)).status).toBe(403);

    const fresh = await ok<{ freshUntil: string }>(
      server.post('/api/auth/step-up', { token, body: { code: await app.nextCode() } }),
    );
    expect((await ok<any>(server.get('/api/auth/2fa', { token }))).freshUntil).toBe(fresh.freshUntil);
    expect((await withdraw(token, 10)).status).toBe(200);
    expect(await balance(token)).toBe(80);
  });

  it('freshens only the session that gave the factor', async () => {
    const second = await server.post('/api/auth/login', {
      body: { username: user.username, password: user.password },
    });
    const other = (
      await ok<{ token: string }>(
        server.post('/api/auth/login/2fa', {
          body: { challenge: second.body.challenge, recoveryCode: recoveryCodes[0] },
        }),
      )
    ).token;
    await makeStale(user.user.id);
    await ok(server.post('/api/auth/step-up', { token: other, body: { recoveryCode: recoveryCodes[1] } }));
    expect((await withdraw(other, 1)).status).toBe(200);
    expect((await withdraw(token, 1)).body).toEqual(stepUpNeeded);
  });

  it('asks for it before a password or email change too, and checks the input first', async () => {
    await makeStale(user.user.id);
    const invalid = await server.post('/api/auth/password', {
      token,
      body: { currentPassword: user.password, newPassword: 'short' },
    });
    expect(invalid.status).toBe(400);
    const change = await server.post('/api/auth/password', {
      token,
      body: { currentPassword: user.password, newPassword: 'another good password' },
    });
    expect(change.body).toEqual(stepUpNeeded);
    const email = await server.post('/api/auth/email', {
      token,
      body: { newEmail: 'somewhere.else@example.test', password: user.password },
    });
    expect(email.body).toEqual(stepUpNeeded);
    // Nothing changed: the old password still signs in.
    const first = await server.post('/api/auth/login', {
      body: { username: user.username, password: user.password },
    });
    expect(first.body.twoFactorRequired).toBe(true);
  });

  it('asks for it before money goes towards a deal: an escrow half, the mark that releases it, a settlement', async () => {
    const [counterpart, dealmaker] = await signUpMany(server, 2);
    const owner = { ...user, token };
    await depositInto(server, counterpart, 100);
    const deal = await dealWithDealmaker(server, { creator: owner, counterpart, dealmaker }, 50);
    await makeStale(user.user.id);
    const before = await balance(token);
    const pay = await server.post(`/api/wallet/escrow/${deal.id}/lock`, { token });
    expect(pay.status).toBe(403);
    expect(pay.body).toEqual(stepUpNeeded);
    expect(await balance(token)).toBe(before);
    // The counterpart, without a second factor, pays as before.
    expect(
      (await server.post(`/api/wallet/escrow/${deal.id}/lock`, { token: counterpart.token })).status,
    ).toBe(200);

    await ok(server.post('/api/auth/step-up', { token, body: { recoveryCode: recoveryCodes[2] } }));
    expect((await server.post(`/api/wallet/escrow/${deal.id}/lock`, { token })).status).toBe(200);
    await makeStale(user.user.id);
    const mark = await server.put(`/api/progress/deal/${deal.id}/complete`, { token });
    expect(mark.body).toEqual(stepUpNeeded);
    const dispute = await ok<{ id: number }>(
      server.post('/api/disputes', {
        token: counterpart.token,
        body: { dealId: deal.id, title: 'Late', description: 'It came late.' },
      }),
      201,
    );
    const propose = await server.post(`/api/disputes/${dispute.id}/proposals`, {
      token,
      body: { toDealmaker: 10 },
    });
    expect(propose.body).toEqual(stepUpNeeded);
    const proposal = await ok<{ id: number }>(
      server.post(`/api/disputes/${dispute.id}/proposals`, {
        token: counterpart.token,
        body: { toDealmaker: 10 },
      }),
      201,
    );
    const accept = await server.post(`/api/disputes/${dispute.id}/proposals/${proposal.id}/accept`, {
      token,
    });
    expect(accept.body).toEqual(stepUpNeeded);
    expect((await ok<any>(server.get(`/api/wallet/escrow/${deal.id}`, { token }))).escrow.status).toBe(
      'locked',
    );
  });

  it('refuses strangers and malformed step-ups', async () => {
    expect((await server.post('/api/auth/step-up', { body: { code: '123456' } })).body).toEqual(signInFirst);
    for (const body of [{}, { code: '12' }, { code: '123456', password: 'x' }, { recoveryCode: 'nope' }]) {
      const response = await server.post('/api/auth/step-up', { token, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    }
  });
});
