import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { buildApp } from '../app';
import { type Config, loadConfig } from '../config';
import type { Database } from '../db/client';
import type { Mail, Mailer } from '../lib/mail';
import { createTestDatabase } from './test-database';

export type ApiResponse<T = any> = { status: number; body: T; headers: Headers };
export type RequestOptions = {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  /** Sent as is (for multipart uploads or malformed JSON). */
  rawBody?: BodyInit;
};

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/**
 * Every test client calls from 127.0.0.1, so the per-address limits would count a whole test file as one
 * person: relaxed here. Tests of the limits start their server with `rateLimits: limits.rateLimits`.
 */
const relaxedPerAddressLimits = {
  signInFailuresPerAddress: { points: 100_000, seconds: 900 },
  registrationsPerAddress: { points: 100_000, seconds: 3600 },
  resetRequestsPerAddress: { points: 100_000, seconds: 3600 },
};

/**
 * A test user writes far faster than a person (a page of 52 deals, races of many bids): the per-user write
 * limits are relaxed too. Tests of those limits pass low ones in `config.rateLimits`.
 */
const relaxedWriteLimits = {
  dealsPerUser: { points: 100_000, seconds: 3600 },
  bidsPerUser: { points: 100_000, seconds: 3600 },
  messagesPerUser: { points: 100_000, seconds: 60 },
  dealmakerRequestsPerUser: { points: 100_000, seconds: 3600 },
  settlementProposalsPerUser: { points: 100_000, seconds: 3600 },
};

/**
 * The real server on a real database (one per test file), listening on a free
 * port and called over HTTP. Mail is captured instead of sent.
 */
export async function startTestServer(
  options: {
    config?: Partial<Config>;
    database?: Database;
    /** Called after each mail is captured; a test makes sending fail by throwing here. */
    mailer?: Mailer;
    /** close() leaves the database open: several servers share one, and their caller closes it. */
    keepDatabase?: boolean;
    /** Folder of a built web app to serve instead of web/dist. */
    webDist?: string;
  } = {},
) {
  const database = options.database ?? (await createTestDatabase());
  const mails: Mail[] = [];
  const config: Config = {
    ...loadConfig({ DATA_DIR: '/nonexistent-test-data-dir', LOG_LEVEL: 'silent' }),
    rateLimits: { ...relaxedPerAddressLimits, ...relaxedWriteLimits },
    ...options.config,
  };
  const app = await buildApp({
    config,
    database,
    logger: false,
    ...(options.webDist ? { webDist: options.webDist } : {}),
    mailer: {
      async send(mail) {
        mails.push(mail);
        await options.mailer?.send(mail);
      },
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  async function request<T = any>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body = options.rawBody;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const response = await fetch(`${url}${path}`, { method, headers, body });
    const text = await response.text();
    // What the call left running after answering (a reset link's mail) is done before the test looks.
    await app.services.background.idle();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('application/json')) parsed = JSON.parse(text);
    return {
      status: response.status,
      body: withoutRequestId(parsed, response) as T,
      headers: response.headers,
    };
  }

  return {
    app,
    url,
    database,
    db: database.db,
    mails,
    request,
    get: <T = any>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
    post: <T = any>(path: string, options?: RequestOptions) => request<T>('POST', path, options),
    put: <T = any>(path: string, options?: RequestOptions) => request<T>('PUT', path, options),
    patch: <T = any>(path: string, options?: RequestOptions) => request<T>('PATCH', path, options),
    delete: <T = any>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
    /** The link of the last mail sent to an address. */
    lastLinkTo(email: string): string {
      const mail = mails.findLast((m) => m.to.toLowerCase() === email.toLowerCase());
      if (!mail) throw new Error(`no mail was sent to ${email}`);
      return mail.link;
    },
    async close() {
      await app.close();
      if (!options.keepDatabase) await database.close();
    },
  };
}

let userCounter = 0;

/** Registers, verifies and signs in a new user; names are unique within the run. */
export async function signUp(
  server: TestServer,
  overrides: { username?: string; full_name?: string; password?: string } = {},
) {
  userCounter++;
  const username = overrides.username ?? `user${process.pid % 10000}_${userCounter}`;
  const email = `${username.toLowerCase()}@example.test`;
  const password = overrides.password ?? 'correct horse battery';
  const full_name = overrides.full_name ?? `User ${username}`;
  const registered = await server.post('/api/auth/register', {
    body: { username, email, password, full_name },
  });
  if (registered.status !== 201) throw new Error(`register failed: ${JSON.stringify(registered.body)}`);
  const key = server.lastLinkTo(email).split('/').pop()!;
  const verified = await server.get(`/api/auth/register/${key}`);
  if (verified.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verified.body)}`);
  const login = await server.post('/api/auth/login', { body: { username, password } });
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  return { token: login.body.token as string, user: login.body.user, username, email, password, full_name };
}
export type SignedUpUser = Awaited<ReturnType<typeof signUp>>;

/**
 * Every error body must carry its request's id, the same as the X-Request-Id header: checked here for
 * every failed call of every test, then taken out so that tests compare the rest of the body exactly.
 */
function withoutRequestId(body: unknown, response: Response): unknown {
  if (response.status < 400 || body === null || typeof body !== 'object' || !('code' in body)) return body;
  const { requestId, ...rest } = body as { requestId?: unknown };
  const header = response.headers.get('x-request-id');
  if (typeof requestId !== 'string' || requestId !== header) {
    throw new Error(
      `error body ${JSON.stringify(body)} does not carry the request's id (X-Request-Id: ${header})`,
    );
  }
  return rest;
}

/** The body of a call that must answer `status` (200 by default); a failure shows the body it got. */
export async function ok<T>(response: Promise<ApiResponse>, status = 200): Promise<T> {
  const answer = await response;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body as T;
}
