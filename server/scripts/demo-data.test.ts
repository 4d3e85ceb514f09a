import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { createTestDatabase } from '../test/test-database';

const run = promisify(execFile);
let database: Database & { url: string };

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

it('`npm run demo-data` fills an empty database, says how to sign in, and exits', async () => {
  // A timeout, not a hang: anything left running (the job queue's timers) would keep the command alive.
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'server/scripts/demo-data.ts'], {
    env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' },
    timeout: 90_000,
  });
  expect(stdout).toContain("Sign in as alice, bob, carol, dave, erin with the password 'dealmaker-demo'.");
  const { rows } = await database.executeSql('SELECT count(*)::int AS users FROM users');
  expect(rows).toEqual([{ users: 5 }]);
}, 120_000);
