/**
 * Sessions a user can see and end: every sign-in is one; an ended session's token is refused (saying why)
 * on every instance within a second; signing out ends it on the server; a password change ends the
 * others; a sign-in from a device the account has not used is told by mail and notification.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications, sessions } from '../../db/schema';
import { signInFirst } from '../../test/expected-errors';
import { ok, type SignedUpUser, signUp, startTestServer, type TestServer } from '../../test/harness';
import { quietPeriod, TestClients } from '../../test/socket-client';
import { createTestDatabase } from '../../test/test-database';
import { sessionStateTtlMs } from './sessions.service';

const chromeOnLinux =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const safariOnIphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const firefoxOnWindows = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0';
const endedElsewhere = {
  message: 'You were signed out because this session was ended from another device.',
  code: 'SESSION_ENDED',
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function signIn(user: SignedUpUser, headers: Record<string, string> = {}) {
  const answer = await server.post('/api/auth/login', {
    body: { username: user.username, password: user.password },
    headers,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return { token: answer.body.token as string, setCookie: answer.headers.get('set-cookie') };
}
const me = (token: string) => server.get('/api/auth/me', { token });

describe('the sessions list', () => {
  it('lists each open sign-in with its device, address and times, and marks this one', async () => {
    const user = await signUp(server);
    const phone = await signIn(user, { 'user-agent': safariOnIphone });
    const list = await ok<any[]>(server.get('/api/auth/sessions', { token: phone.token }));
    expect(list).toHaveLength(2);
    expect(list[0]).toEqual({
      id: expect.any(String),
      current: true,
      device: 'Safari on iOS',
      address: '127.0.0.1',
      createdAt: expect.any(String),
      lastSeenAt: expect.any(String),
    });
    expect(list[1]).toMatchObject({ current: false, device: 'Unknown device' });
    expect(Date.parse(list[0].createdAt)).toBeGreaterThanOrEqual(Date.parse(list[1].createdAt));
    // The other session sees the same two, itself marked.
    const fromFirst = await ok<any[]>(server.get('/api/auth/sessions', { token: user.token }));
    expect(fromFirst.map((s) => [s.id, s.current])).toEqual([
      [list[0].id, false],
      [list[1].id, true],
    ]);
    expect((await server.get('/api/auth/sessions')).body).toEqual(signInFirst);
  });
});

describe('ending sessions', () => {
  it('ends another session: its token is refused and says why; this one goes on', async () => {
    const user = await signUp(server);
    const laptop = await signIn(user, { 'user-agent': chromeOnLinux });
    const [, first] = await ok<any[]>(server.get('/api/auth/sessions', { token: laptop.token }));
    const ended = await server.delete(`/api/auth/sessions/${first.id}`, { token: laptop.token });
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ message: 'The session was ended.' });
    const refused = await me(user.token);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual(endedElsewhere);
    expect((await me(laptop.token)).status).toBe(200);
    expect(
      (await ok<any[]>(server.get('/api/auth/sessions', { token: laptop.token }))).map((s) => s.id),
    ).not.toContain(first.id);
    // Ending it again, or a made-up one: 404.
    for (const id of [first.id, 'no-such-session']) {
      const again = await server.delete(`/api/auth/sessions/${id}`, { token: laptop.token });
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ message: 'Session not found.', code: 'NOT_FOUND' });
    }
  });

  it('never ends another user’s session', async () => {
    const alice = await signUp(server);
    const mallory = await signUp(server);
    const [aliceSession] = await ok<any[]>(server.get('/api/auth/sessions', { token: alice.token }));
    const attempt = await server.delete(`/api/auth/sessions/${aliceSession.id}`, { token: mallory.token });
    expect(attempt.status).toBe(404);
    expect(attempt.body).toEqual({ message: 'Session not found.', code: 'NOT_FOUND' });
    expect((await me(alice.token)).status).toBe(200);
  });

  it('ends every other session at once', async () => {
    const user = await signUp(server);
    const second = await signIn(user);
    const third = await signIn(user);
    const answer = await ok(server.post('/api/auth/sessions/revoke-others', { token: third.token }));
    expect(answer).toEqual({ ended: 2 });
    expect((await me(user.token)).body).toEqual(endedElsewhere);
    expect((await me(second.token)).body).toEqual(endedElsewhere);
    expect((await me(third.token)).status).toBe(200);
    expect(await ok(server.post('/api/auth/sessions/revoke-others', { token: third.token }))).toEqual({
      ended: 0,
    });
  });

  it('signs out on the server: the token no longer works anywhere', async () => {
    const user = await signUp(server);
    const other = await signIn(user);
    const out = await server.post('/api/auth/logout', { token: user.token });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ message: 'You are signed out.' });
    const after = await me(user.token);
    expect(after.status).toBe(401);
    expect(after.body).toEqual(signInFirst);
    expect((await server.post('/api/auth/logout', { token: user.token })).status).toBe(401);
    expect((await me(other.token)).status).toBe(200);
    const rows = await server.db.select().from(sessions).where(eq(sessions.userId, user.user.id));
    expect(rows.map((row) => row.endReason).sort()).toEqual(['signed-out', null].sort());
  });

  it('ends the other sessions when the password is changed, and every session when it is reset', async () => {
    const user = await signUp(server);
    const other = await signIn(user);
    const changed = await server.post('/api/auth/password', {
      token: user.token,
      body: { currentPassword: user.password, newPassword: 'a brand new password' },
    });
    expect(changed.status).toBe(200);
    expect((await me(user.token)).status).toBe(200);
    expect((await me(other.token)).body).toEqual({
      message: 'You were signed out because your password was changed.',
      code: 'SESSION_ENDED',
    });

    await server.post('/api/auth/reset_password', { body: { email: user.email } });
    const link = server.lastLinkTo(user.email);
    const [, , , , , , name, token] = link.split('/');
    expect(
      (
        await server.post(`/api/auth/reset_password/${name}/${token}`, {
          body: { newPassword: 'reset password 1' },
        })
      ).status,
    ).toBe(200);
    expect((await me(user.token)).status).toBe(401);
  });
});

describe('the sockets of an ended session', () => {
  it('are told why and closed; the other session’s sockets stay, and the old token cannot reconnect', async () => {
    const user = await signUp(server);
    const laptop = await signIn(user);
    const clients = new TestClients(server.url);
    try {
      const phoneSocket = await clients.connect(user.token);
      const laptopSocket = await clients.connect(laptop.token);
      const [, phoneSession] = await ok<any[]>(server.get('/api/auth/sessions', { token: laptop.token }));
      const closed = phoneSocket.disconnection();
      await ok(server.delete(`/api/auth/sessions/${phoneSession.id}`, { token: laptop.token }));
      expect(await phoneSocket.waitFor('session-ended')).toEqual({
        message: 'You were signed out because this session was ended from another device.',
      });
      expect(await closed).toBe('io server disconnect');
      await quietPeriod();
      expect(laptopSocket.connected).toBe(true);
      expect(laptopSocket.all('session-ended')).toEqual([]);
      expect((await clients.create({ token: user.token }).refusal()).message).toBe('unauthorized');

      // Signing out closes the tab's own sockets too, without a message to show.
      const closing = laptopSocket.disconnection();
      await ok(server.post('/api/auth/logout', { token: laptop.token }));
      expect(await laptopSocket.waitFor('session-ended')).toEqual({ message: null });
      expect(await closing).toBe('io server disconnect');
    } finally {
      clients.closeAll();
    }
  });
});

describe('sign-ins from a new device', () => {
  it('tells the owner by mail and notification, but not for the first sign-in nor a known device', async () => {
    const user = await signUp(server, {});
    const mailsTo = () =>
      server.mails.filter((m) => m.to === user.email && m.subject.startsWith('New sign-in'));
    // signUp signed in once (the first sign-in ever: not told); again from the same device and address.
    await signIn(user);
    expect(mailsTo()).toHaveLength(0);
    const laptop = await signIn(user, { 'user-agent': chromeOnLinux });
    expect(laptop.setCookie).toMatch(
      /^dm_device=[A-Za-z0-9_-]{40,}; Path=\/api\/auth; Max-Age=34560000; HttpOnly; SameSite=Lax$/,
    );
    expect(mailsTo()).toHaveLength(1);
    const mail = mailsTo()[0]!;
    expect(mail.text).toContain('Device: Chrome on Linux');
    expect(mail.text).toContain('Address: 127.0.0.1');
    expect(mail.link).toBe(`${server.app.config.publicUrl}/profile#security`);
    const [notice] = await server.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, user.user.id));
    expect(notice).toMatchObject({
      kind: 'new-sign-in',
      dealId: null,
      message: 'New sign-in to your account from Chrome on Linux (address 127.0.0.1).',
    });

    // The browser keeps its device cookie: a later sign-in from it is known, whatever its user agent says.
    const deviceCookie = laptop.setCookie!.split(';')[0]!;
    const again = await signIn(user, { 'user-agent': safariOnIphone, cookie: deviceCookie });
    expect(again.setCookie).toBeNull();
    expect(mailsTo()).toHaveLength(1);
    // Another browser, with no cookie: told.
    await signIn(user, { 'user-agent': firefoxOnWindows });
    expect(mailsTo()).toHaveLength(2);
    expect(mailsTo()[1]!.text).toContain('Device: Firefox on Windows');
  });
});

describe('two instances', () => {
  it('refuses a session ended on one instance on the other within a second', async () => {
    const database = await createTestDatabase();
    const first = await startTestServer({ database, keepDatabase: true });
    const second = await startTestServer({ database, keepDatabase: true });
    try {
      const user = await signUp(first);
      const laptop = await first.post('/api/auth/login', {
        body: { username: user.username, password: user.password },
      });
      // The second instance has seen (and cached) the session.
      expect((await second.get('/api/auth/me', { token: user.token })).status).toBe(200);
      const [, target] = await ok<any[]>(first.get('/api/auth/sessions', { token: laptop.body.token }));
      await ok(first.delete(`/api/auth/sessions/${target.id}`, { token: laptop.body.token }));
      await new Promise((resolve) => setTimeout(resolve, sessionStateTtlMs + 50));
      const refused = await second.get('/api/auth/me', { token: user.token });
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual(endedElsewhere);
    } finally {
      await first.close();
      await second.close();
      await database.close();
    }
  });
});
