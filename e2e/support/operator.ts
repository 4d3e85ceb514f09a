import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { e2eEnv } from './env';
import type { Actor } from './fixtures';
import { expect } from './fixtures';
import { turnOnAuthenticatorApp } from './security';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Makes the actor an operator the only way there is: the server's command
 * (`npm run operator -- grant <username>`), run against the journeys' server's data folder, with the
 * authenticator app an operator must have before the console opens (turned on through the API, which
 * also leaves the session fresh for settling). Returns once the server answers /api/auth/me with
 * isOperator (it re-reads account state within a second).
 */
export async function grantOperator(actor: Actor) {
  await turnOnAuthenticatorApp(actor);
  const { dataDir } = e2eEnv();
  const { DATABASE_URL: _database, ...env } = process.env;
  await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', path.join('server', 'scripts', 'operator.ts'), 'grant', actor.user.username],
    { cwd: root, env: { ...env, DATA_DIR: dataDir }, timeout: 60_000 },
  );
  await expect
    .poll(
      async () => {
        const me = await actor.context.request.get('/api/auth/me', {
          headers: { authorization: `Bearer ${actor.token}` },
        });
        return ((await me.json()) as { isOperator?: boolean }).isOperator;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
}
