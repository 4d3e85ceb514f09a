import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../db/client';

/** The server the tests create their databases on: DATABASE_URL, or the embedded one global-setup started. */
export function testAdminUrl(): string {
  const url = process.env.DATABASE_URL ?? process.env.DEALMAKER_TEST_ADMIN_URL;
  if (!url) throw new Error('global-setup did not start a database server');
  return url;
}

/** A fresh, migrated database for one test file: a copy of the template global-setup migrated, dropped on close. */
export async function createTestDatabase(): Promise<Database & { url: string }> {
  const adminUrl = testAdminUrl();
  const name = `dealmaker_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (client) =>
    client.query(`CREATE DATABASE ${name} TEMPLATE ${process.env.DEALMAKER_PG_TEMPLATE ?? 'template1'}`),
  );
  const url = withDatabase(adminUrl, name);
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 30 });
  return {
    ...database,
    /** For a command run on it in its own process (`npm run operator`). */
    url,
    close: async () => {
      await database.close();
      await withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

export async function withAdmin<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
