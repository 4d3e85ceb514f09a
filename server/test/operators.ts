import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { turnOnTotp } from './authenticators';
import type { SignedUpUser, TestServer } from './harness';

/**
 * Operators in the server tests, made in one place: whatever an operator needs beyond the grant (a
 * second factor, say) is added here, and every test that acts as an operator follows.
 */

const run = promisify(execFile);

/** `npm run operator -- <args>` on a test database, as an operator of the server would run it. */
export const operatorCommand = (database: { url: string }, ...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'server/scripts/operator.ts', ...args], {
    env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' },
  });

/**
 * Makes the user an operator the only way there is (the command on the server's database), with the
 * authenticator app an operator must have (turned on now, so the session is fresh for settling), and waits
 * until the server sees it: it re-reads an account's state within a second.
 */
export async function grantOperator(server: TestServer, database: { url: string }, user: SignedUpUser) {
  await operatorCommand(database, 'grant', user.username);
  const status = await server.get<{ totp: boolean }>('/api/auth/2fa', { token: user.token });
  if (!status.body.totp) await turnOnTotp(server, user);
  await expect
    .poll(
      async () => (await server.get<{ isOperator?: boolean }>('/api/auth/me', { token: user.token })).body,
      { timeout: 5_000, interval: 100 },
    )
    .toMatchObject({ isOperator: true });
  return user;
}
