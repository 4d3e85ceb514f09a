import type { APIRequestContext, Page } from '@playwright/test';
import { e2eEnv } from './env';
import { readLastMail } from './mail';

export type TestUser = { id: number; username: string; email: string; password: string; full_name: string };

let counter = 0;

/** A username no other journey (nor an earlier run against the same server) uses. */
export function uniqueUsername(base = 'user'): string {
  counter++;
  const suffix = `${Date.now().toString(36)}${process.pid.toString(36)}${counter}`;
  return `${base.replace(/[^A-Za-z0-9_.-]/g, '')}_${suffix}`.slice(0, 30);
}

/**
 * Every journey registers from 127.0.0.1, where the per-address registration limit (10 an hour)
 * would stop the suite: the test server trusts X-Forwarded-For (as behind a proxy), and each
 * registration comes from its own address in the benchmarking range 198.18.0.0/15.
 */
function distinctAddress(): string {
  counter++;
  const n = (process.pid * 1000 + counter) % 65_536;
  return `198.18.${n >> 8}.${n & 255}`;
}

/**
 * Registers a user through the API, opens the verification link from the mail as a call
 * (Accept: application/json) and returns the credentials. The username is used as given.
 */
export async function createVerifiedUser(
  request: APIRequestContext,
  options: { username: string; email?: string; password?: string; full_name?: string },
): Promise<TestUser> {
  const { baseUrl } = e2eEnv();
  const username = options.username;
  const email = options.email ?? `${username.toLowerCase()}@example.test`;
  const password = options.password ?? 'correct horse battery';
  const full_name = options.full_name ?? `${username.charAt(0).toUpperCase()}${username.slice(1)} Tester`;

  const registered = await request.post(`${baseUrl}/api/auth/register`, {
    data: { username, email, password, full_name },
    headers: { 'x-forwarded-for': distinctAddress() },
  });
  if (registered.status() !== 201) {
    throw new Error(`Registering ${username} failed (${registered.status()}): ${await registered.text()}`);
  }
  const mail = await readLastMail(email);
  const verified = await request.get(mail.link, { headers: { accept: 'application/json' } });
  if (!verified.ok())
    throw new Error(`Verifying ${username} failed (${verified.status()}): ${await verified.text()}`);
  const { user } = await login(request, { username, password });
  return { id: user.id, username, email, password, full_name };
}

/** Signs in through the API: the token and the user as the server answers them. */
export async function login(request: APIRequestContext, credentials: { username: string; password: string }) {
  const { baseUrl } = e2eEnv();
  const response = await request.post(`${baseUrl}/api/auth/login`, {
    data: { username: credentials.username, password: credentials.password },
  });
  if (!response.ok()) {
    throw new Error(
      `Signing in ${credentials.username} failed (${response.status()}): ${await response.text()}`,
    );
  }
  return (await response.json()) as { token: string; user: { id: number; username: string } };
}

/**
 * Makes the page's browser context signed in as the user, without going through the sign-in
 * dialog: the token from an API login goes into the auth_token cookie the app and the API read.
 * Returns the token (for API calls made as the same user).
 */
export async function signIn(page: Page, user: Pick<TestUser, 'username' | 'password'>): Promise<string> {
  const { baseUrl } = e2eEnv();
  const { token } = await login(page.context().request, user);
  await page
    .context()
    .addCookies([
      { name: 'auth_token', value: token, domain: new URL(baseUrl).hostname, path: '/', sameSite: 'Lax' },
    ]);
  return token;
}
