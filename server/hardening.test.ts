/**
 * Requests as an attacker or a broken client sends them: every refusal is JSON
 * with a message and a code, changes nothing, and comes before any costly work.
 */
import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dispute } from '../contract/disputes';
import { headersTimeoutMs, requestTimeoutMs } from './app';
import { createDeal } from './test/deal-fixtures';
import { signInFirst } from './test/expected-errors';
import { ok, type SignedUpUser, signUp, startTestServer, type TestServer } from './test/harness';
import { balanceOf, dealWithDealmaker, deposit, payHalf, signUpMany } from './test/money-fixtures';
import { grantOperator } from './test/operators';
import { createTestDatabase } from './test/test-database';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let server: TestServer;
let alice: SignedUpUser;
/** Shortened here (the default is requestTimeoutMs): a body that has not arrived by then is cut. */
const requestTimeout = 1_500;

beforeAll(async () => {
  // A database of its own, for the operator command (an operator settles a dispute below).
  database = await createTestDatabase();
  server = await startTestServer({
    database,
    config: {
      headersTimeoutMs: 1_000,
      requestTimeoutMs: requestTimeout,
      corsOrigins: ['https://partner.example.test'],
    },
  });
  alice = await signUp(server);
});
afterAll(() => server.close());

/** Sends raw bytes and returns what comes back (status line and JSON body) once the server closes. */
function rawRequest(
  bytes: Buffer | string,
  timeoutMs = 5_000,
): Promise<{ status: number; body: unknown; raw: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer'));
    }, timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
      const text = raw.slice(raw.indexOf('\r\n\r\n') + 4);
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {}
      resolve({ status, body, raw });
    });
    socket.on('error', reject);
  });
}

/**
 * Sends the request head at once, then its body one byte every `everyMs` (never all of it), and returns
 * what comes back once the server closes the connection.
 */
function tricklingRequest(head: string, body: string, everyMs = 200) {
  const { port } = new URL(server.url);
  return new Promise<{ status: number; body: unknown; raw: string }>((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(head));
    let sent = 0;
    const drip = setInterval(() => {
      if (sent < body.length - 1 && !socket.destroyed) socket.write(body[sent++]!);
    }, everyMs);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer'));
    }, 15_000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', () => {
      clearInterval(drip);
      clearTimeout(timer);
      const raw = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
      let parsed: unknown = raw;
      try {
        parsed = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
      } catch {}
      resolve({ status, body: parsed, raw });
    });
    socket.on('error', reject);
  });
}

const cookieOf = (user: SignedUpUser) => `auth_token=${encodeURIComponent(user.token)}`;

describe('refusals of the HTTP layer are JSON with a code', () => {
  it('answers 431 to oversized headers', async () => {
    const answer = await rawRequest(
      `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(answer.status).toBe(431);
    expect(answer.body).toEqual({ message: 'The request headers are too large.', code: 'HEADERS_TOO_LARGE' });
  });

  it('answers 400 to a NUL byte in the request line and to Content-Length with chunked encoding', async () => {
    const malformed = { message: 'The request is malformed.', code: 'MALFORMED_REQUEST' };
    const nul = await rawRequest(Buffer.from('GET /api/hea\u0000lth HTTP/1.1\r\nHost: x\r\n\r\n'));
    expect([nul.status, nul.body]).toEqual([400, malformed]);
    const smuggled = await rawRequest(
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    );
    expect([smuggled.status, smuggled.body]).toEqual([400, malformed]);
  });

  it('answers 414 to a path parameter over 1,000 characters, and 400 to a malformed address', async () => {
    const long = await server.get(`/api/deals/all/${'k'.repeat(1001)}`, { token: alice.token });
    expect(long.status).toBe(414);
    expect(long.body).toEqual({ message: 'The address is too long.', code: 'URI_TOO_LONG' });
    const fine = await server.get(`/api/deals/all/${'k'.repeat(100)}`, { token: alice.token });
    expect(fine.status).toBe(200);
    const broken = await server.get('/api/deals/all/%E0%A4%A', { token: alice.token });
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({
      message: 'The address of the request is malformed.',
      code: 'MALFORMED_REQUEST',
    });
  });

  it('answers 413 to a body over 1 MB and 415 to a body that is not JSON, and changes nothing', async () => {
    const before = (await server.get('/api/deals/my-deals', { token: alice.token })).body.length;
    const huge = await server.post('/api/deals/create-deal', {
      token: alice.token,
      body: { title: 't', description: 'd'.repeat(1_100_000), budget: 1, timeline: 't' },
    });
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual({ message: 'Request body is too large.', code: 'PAYLOAD_TOO_LARGE' });
    const text = await server.post('/api/deals/create-deal', {
      token: alice.token,
      headers: { 'content-type': 'text/plain' },
      rawBody: JSON.stringify({ title: 't', description: 'd', budget: 1, timeline: 't' }),
    });
    expect(text.status).toBe(415);
    expect(text.body).toEqual({ message: 'Unsupported content type.', code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect((await server.get('/api/deals/my-deals', { token: alice.token })).body.length).toBe(before);
  });

  it('drops a connection that never finishes its headers', async () => {
    expect(headersTimeoutMs).toBe(10_000);
    const started = performance.now();
    const answer = await rawRequest('GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: 1', 8_000);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(answer.status === 0 || answer.status === 408).toBe(true);
  });

  it('answers 408 to a body that trickles in, and creates nothing', async () => {
    expect(requestTimeoutMs).toBe(30_000);
    const before = (await server.get('/api/deals/my-deals', { token: alice.token })).body.length;
    const body = JSON.stringify({ title: 'Slow', description: 'd', budget: 1, timeline: 't' });
    const answer = await tricklingRequest(
      `POST /api/deals/create-deal HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${alice.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      body,
    );
    expect(answer.status).toBe(408);
    expect(answer.body).toEqual({
      message: 'The request took too long to arrive.',
      code: 'MALFORMED_REQUEST',
    });
    // One answer only, on a connection then closed.
    expect(answer.raw.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect((await server.get('/api/deals/my-deals', { token: alice.token })).body.length).toBe(before);
  });
});

describe('ids are plain decimal integers', () => {
  it.each(['0x61', '97e0', '+97', '97.0', '097a', '1e1'])('refuses the id %s with 400', async (id) => {
    const deal = await server.get(`/api/deals/${encodeURIComponent(id)}`, { token: alice.token });
    expect(deal.status).toBe(400);
    expect(deal.body.code).toBe('VALIDATION_FAILED');
    const page = await server.get(`/api/deals/all?before=${encodeURIComponent(id)}`, { token: alice.token });
    expect(page.status).toBe(400);
  });

  it('reads a plain id', async () => {
    const deal = await createDeal(server, alice);
    expect((await server.get(`/api/deals/${deal.id}`, { token: alice.token })).status).toBe(200);
  });
});

describe('authentication comes first', () => {
  it('answers 401, not 400, to a call without a token and with a bad body', async () => {
    const response = await server.post('/api/deals/create-deal', { body: { title: '' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(signInFirst);
    const badJson = await server.post('/api/wallet/deposit', {
      headers: { 'content-type': 'application/json' },
      rawBody: '{not json',
    });
    expect(badJson.status).toBe(401);
  });
});

describe('changes authenticated by the cookie alone must come from this product', () => {
  const newDeal = { title: 'Cookie deal', description: 'd', budget: 5, timeline: 't' };

  it('refuses a foreign Origin or Referer with 403 and changes nothing', async () => {
    const before = (await server.get('/api/deals/my-deals', { token: alice.token })).body.length;
    for (const headers of [
      { origin: 'https://evil.example.test' } as Record<string, string>,
      { referer: 'https://evil.example.test/page' },
      { origin: 'null' },
    ]) {
      const response = await server.post('/api/deals/create-deal', {
        headers: { cookie: cookieOf(alice), ...headers },
        body: newDeal,
      });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        message: 'This request came from another site. Please use Dealmaker itself to make changes.',
        code: 'FOREIGN_ORIGIN',
      });
    }
    expect((await server.get('/api/deals/my-deals', { token: alice.token })).body.length).toBe(before);
  });

  it('accepts the product’s own origin, a CORS origin, no origin at all, and any origin with a Bearer token', async () => {
    const { origin } = new URL(server.url);
    for (const headers of [
      { cookie: cookieOf(alice), origin } as Record<string, string>,
      { cookie: cookieOf(alice), referer: `${origin}/deals` },
      { cookie: cookieOf(alice), origin: 'https://partner.example.test' },
      { cookie: cookieOf(alice) },
      { authorization: `Bearer ${alice.token}`, origin: 'https://evil.example.test' },
    ]) {
      const response = await server.post('/api/deals/create-deal', { headers, body: newDeal });
      expect(response.status, JSON.stringify(headers)).toBe(201);
    }
  });

  it('lets reads through from anywhere (they change nothing)', async () => {
    const response = await server.get('/api/deals/my-deals', {
      headers: { cookie: cookieOf(alice), origin: 'https://evil.example.test' },
    });
    expect(response.status).toBe(200);
  });
});

describe('the origin check follows how the request is really signed in', () => {
  const newDeal = { title: 'Basic deal', description: 'd', budget: 5, timeline: 't' };

  it('refuses a cookie change from a foreign origin whatever other Authorization header it carries', async () => {
    const before = (await server.get('/api/deals/my-deals', { token: alice.token })).body.length;
    for (const authorization of [
      'Basic YWxpY2U6c2VjcmV0',
      'Negotiate YIIBzgYGKwYBBQUCoIIBwjCCAb6gMDAuBgkqhk',
      'Bearer',
    ]) {
      const response = await server.post('/api/deals/create-deal', {
        headers: { cookie: cookieOf(alice), origin: 'https://evil.example.test', authorization },
        body: newDeal,
      });
      expect([response.status, response.body], authorization).toEqual([
        403,
        {
          message: 'This request came from another site. Please use Dealmaker itself to make changes.',
          code: 'FOREIGN_ORIGIN',
        },
      ]);
    }
    expect((await server.get('/api/deals/my-deals', { token: alice.token })).body.length).toBe(before);
  });

  it('lets a Bearer token through from anywhere, and never falls back to the cookie behind a bad one', async () => {
    const forged = await server.post('/api/deals/create-deal', {
      headers: {
        cookie: cookieOf(alice),
        origin: 'https://evil.example.test',
        authorization: 'Bearer not-a-token',
      },
      body: newDeal,
    });
    expect([forged.status, forged.body]).toEqual([401, signInFirst]);
  });
});

describe('malformed text is refused with 400 everywhere, and changes nothing', () => {
  const loneSurrogate = {
    message: 'Text contains malformed characters (a lone UTF-16 surrogate).',
    code: 'VALIDATION_FAILED',
  };
  const auditCount = async () =>
    (
      (await server.db.execute(sql`select count(*)::int as n from audit_log`)) as unknown as {
        rows: Array<{ n: number }>;
      }
    ).rows[0]!.n;

  it('refuses a lone surrogate in the sign-in username or password, with no sign-in attempt recorded', async () => {
    const before = await auditCount();
    for (const [body, field] of [
      [{ username: '\ud800', password: 'correct horse battery' }, 'username'],
      [{ username: `${alice.username}\udc00`, password: alice.password }, 'username'],
      [{ username: alice.username, password: 'pass\ud83dword' }, 'password'],
    ] as const) {
      const response = await server.post('/api/auth/login', { body });
      expect([response.status, response.body], JSON.stringify(body)).toEqual([
        400,
        { ...loneSurrogate, fieldErrors: { [field]: [loneSurrogate.message] } },
      ]);
    }
    expect(await auditCount()).toBe(before);
    // A character outside the Basic Multilingual Plane is a whole pair: fine (here, a wrong password).
    const emoji = await server.post('/api/auth/login', { body: { username: 'x😀y', password: 'whatever' } });
    expect(emoji.status).toBe(401);
  });

  it('refuses it in a deal’s title and in a chat message', async () => {
    const before = (await server.get('/api/deals/my-deals', { token: alice.token })).body.length;
    const created = await server.post('/api/deals/create-deal', {
      token: alice.token,
      body: { title: 'Broken \ud800 title', description: 'd', budget: 5, timeline: 't' },
    });
    expect([created.status, created.body]).toEqual([
      400,
      { ...loneSurrogate, fieldErrors: { title: [loneSurrogate.message] } },
    ]);
    expect((await server.get('/api/deals/my-deals', { token: alice.token })).body.length).toBe(before);

    const deal = await createDeal(server, alice);
    const sent = await server.post('/api/messages/send', {
      token: alice.token,
      body: { dealId: deal.id, content: '\udfffHello' },
    });
    expect([sent.status, sent.body]).toEqual([
      400,
      { ...loneSurrogate, fieldErrors: { content: [loneSurrogate.message] } },
    ]);
    expect((await server.get(`/api/messages/deal/${deal.id}`, { token: alice.token })).body).toEqual([]);
  });

  it('refuses it in an operator’s settlement, which settles nothing', async () => {
    const [creator, counterpart, dealmaker, operator] = await signUpMany(server, 4);
    await grantOperator(server, database, operator);
    for (const dealer of [creator, counterpart]) await deposit(server, dealer, 100);
    const deal = await dealWithDealmaker(server, { creator, counterpart, dealmaker }, 100);
    await ok(payHalf(server, creator, deal.id));
    await ok(payHalf(server, counterpart, deal.id));
    const dispute = await ok<Dispute>(
      server.post('/api/disputes', {
        token: counterpart.token,
        body: { dealId: deal.id, title: 'Late', description: 'Two weeks late.' },
      }),
      201,
    );
    await ok(server.post(`/api/disputes/${dispute.id}/escalate`, { token: counterpart.token }));
    const balances = () =>
      Promise.all([creator, counterpart, dealmaker].map((user) => balanceOf(server, user)));
    const before = await balances();
    const auditBefore = await auditCount();

    const response = await server.post(`/api/admin/disputes/${dispute.id}/settle`, {
      token: operator.token,
      body: { toDealmaker: 50, resolution: 'Half each \ud800 way.' },
    });
    expect([response.status, response.body]).toEqual([
      400,
      { ...loneSurrogate, fieldErrors: { resolution: [loneSurrogate.message] } },
    ]);
    expect(await balances()).toEqual(before);
    expect(await auditCount()).toBe(auditBefore);
    const [stored] = await ok<Dispute[]>(
      server.get(`/api/disputes/deal/${deal.id}`, { token: creator.token }),
    );
    expect(stored).toMatchObject({ id: dispute.id, status: 'open', resolution: null });
  });
});
