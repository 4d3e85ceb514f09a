/**
 * Account basics a new user expects: a new verification mail (rate limited), a password change with the
 * current password, and an email change confirmed from the new address with a notice to the old one.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '../../../contract/limits';
import { users } from '../../db/schema';
import { signInFirst } from '../../test/expected-errors';
import { ok, signUp, startTestServer, type TestServer } from '../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    config: { rateLimits: { verificationResendsPerAddress: { points: 100_000, seconds: 3600 } } },
  });
});
afterAll(() => server.close());

let counter = 0;
const newAccount = () => {
  counter++;
  const username = `acct_${process.pid % 1000}_${counter}`;
  return {
    username,
    email: `${username}@example.test`,
    password: 'correct horse battery',
    full_name: `Acct ${counter}`,
  };
};
const resendAnswer = {
  message: 'If an unverified account uses this email, a new verification link has been sent to it.',
};

describe('resending the verification mail', () => {
  it('mails a new link to an unverified account; the old link stops working', async () => {
    const account = newAccount();
    expect((await server.post('/api/auth/register', { body: account })).status).toBe(201);
    const oldLink = server.lastLinkTo(account.email);
    const resent = await server.post('/api/auth/register/resend', {
      body: { email: account.email.toUpperCase() },
    });
    expect(resent.status).toBe(200);
    expect(resent.body).toEqual(resendAnswer);
    const newLink = server.lastLinkTo(account.email);
    expect(newLink).not.toBe(oldLink);
    const oldKey = oldLink.split('/').pop();
    expect((await server.get(`/api/auth/register/${oldKey}`)).status).toBe(400);
    expect((await server.get(`/api/auth/register/${newLink.split('/').pop()}`)).body).toEqual({
      message: 'Your email has been verified successfully!',
    });
  });

  it('answers the same for a verified or unknown email, and mails nobody', async () => {
    const user = await signUp(server);
    const before = server.mails.length;
    for (const email of [user.email, 'nobody-at-all@example.test']) {
      const answer = await server.post('/api/auth/register/resend', { body: { email } });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(resendAnswer);
    }
    expect(server.mails.length).toBe(before);
    const bad = await server.post('/api/auth/register/resend', { body: { email: 'not an email' } });
    expect(bad.status).toBe(400);
  });

  it('sends at most 3 an hour for one email', async () => {
    const account = newAccount();
    await server.post('/api/auth/register', { body: account });
    expect(limits.rateLimits.verificationResendsPerEmail.points).toBe(3);
    for (let i = 0; i < 3; i++) {
      expect(
        (await server.post('/api/auth/register/resend', { body: { email: account.email } })).status,
      ).toBe(200);
    }
    const refused = await server.post('/api/auth/register/resend', { body: { email: account.email } });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      message: 'Too many verification mails for this email. Please try again in 60 minutes.',
      code: 'RATE_LIMITED',
    });
  });
});

describe('changing the password', () => {
  it('needs the current password, then signs in only with the new one', async () => {
    const user = await signUp(server);
    const change = (body: unknown) => server.post('/api/auth/password', { token: user.token, body });
    const wrong = await change({ currentPassword: 'not the password', newPassword: 'my new password 1' });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({
      message: 'That password is not right.',
      code: 'INVALID_SECOND_FACTOR',
      fieldErrors: { currentPassword: ['That password is not right'] },
    });
    const short = await change({ currentPassword: user.password, newPassword: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.fieldErrors).toEqual({ newPassword: ['Password must be at least 8 characters'] });
    expect((await server.post('/api/auth/password', { body: {} })).body).toEqual(signInFirst);

    const done = await change({ currentPassword: user.password, newPassword: 'my new password 1' });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      message: 'Your password has been changed. Your other sessions were signed out.',
    });
    expect(server.mails.at(-1)).toMatchObject({
      to: user.email,
      subject: 'Your Dealmaker password was changed',
    });
    const old = await server.post('/api/auth/login', {
      body: { username: user.username, password: user.password },
    });
    expect(old.status).toBe(401);
    const fresh = await server.post('/api/auth/login', {
      body: { username: user.username, password: 'my new password 1' },
    });
    expect(fresh.status).toBe(200);
  });
});

describe('changing the email address', () => {
  it('mails a link to the new address and a notice to the old one; the link changes it once', async () => {
    const user = await signUp(server);
    const newEmail = `moved_${user.username}@example.test`;
    const asked = await server.post('/api/auth/email', {
      token: user.token,
      body: { newEmail, password: user.password },
    });
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({
      message: `We sent a link to ${newEmail}. Open it to confirm your new email address.`,
    });
    const notice = server.mails.findLast((m) => m.to === user.email);
    expect(notice).toMatchObject({ subject: 'Your Dealmaker email is being changed' });
    expect(notice!.text).toContain(newEmail);
    const link = server.lastLinkTo(newEmail);
    expect(link).toMatch(new RegExp(`^${server.app.config.publicUrl}/confirm-email/[A-Za-z0-9_-]+$`));
    // Nothing changes before the link is opened.
    expect((await server.db.select().from(users).where(eq(users.id, user.user.id)))[0]!.email).toBe(
      user.email,
    );

    const token = link.split('/').pop()!;
    const confirmed = await server.post('/api/auth/email/confirm', { body: { token } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ message: `Your email address is now ${newEmail}.` });
    expect((await ok<any>(server.get('/api/user-profile', { token: user.token }))).email).toBe(newEmail);
    const twice = await server.post('/api/auth/email/confirm', { body: { token } });
    expect(twice.status).toBe(400);
    expect(twice.body).toEqual({
      message: 'This link is invalid or has expired. Please ask for the change again.',
      code: 'VALIDATION_FAILED',
    });
  });

  it('does not reveal that an address belongs to another account, and refuses bad input', async () => {
    const user = await signUp(server);
    const other = await signUp(server);
    const asked = await server.post('/api/auth/email', {
      token: user.token,
      body: { newEmail: other.email, password: user.password },
    });
    expect(asked.status).toBe(200);
    expect(asked.body.message).toContain(other.email);
    expect(server.mails.at(-1)).toMatchObject({
      to: other.email,
      subject: 'Someone tried to use this email on Dealmaker',
    });
    expect(server.mails.at(-1)!.text).not.toContain(user.username);

    const same = await server.post('/api/auth/email', {
      token: user.token,
      body: { newEmail: user.email, password: user.password },
    });
    expect(same.status).toBe(400);
    expect(same.body.message).toBe('This is already your email address.');
    const wrongPassword = await server.post('/api/auth/email', {
      token: user.token,
      body: { newEmail: 'fresh-address@example.test', password: 'nope nope nope' },
    });
    expect(wrongPassword.status).toBe(403);
    const invalid = await server.post('/api/auth/email', {
      token: user.token,
      body: { newEmail: 'nope', password: user.password },
    });
    expect(invalid.status).toBe(400);
    expect((await server.post('/api/auth/email/confirm', { body: { token: 'made-up' } })).status).toBe(400);
  });
});
