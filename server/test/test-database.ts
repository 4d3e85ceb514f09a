import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { type Database, openDatabase } from '../db/client';

/**
 * A fresh, migrated database for one test file: a copy of the PGlite template
 * made by global-setup, or, when DATABASE_URL is set, a new PostgreSQL database
 * cloned from the template database global-setup migrated.
 */
export async function createTestDatabase(): Promise<Database> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const templateFile = process.env.DEALMAKER_PGLITE_TEMPLATE;
    if (!templateFile) throw new Error('global-setup did not prepare the PGlite template');
    const loadDataDir = new Blob([await readFile(templateFile)]);
    return openDatabase({ kind: 'pglite', loadDataDir });
  }
  const name = `dealmaker_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (client) =>
    client.query(`CREATE DATABASE ${name} TEMPLATE ${process.env.DEALMAKER_PG_TEMPLATE ?? 'template1'}`),
  );
  const database = await openDatabase({ kind: 'postgres', url: withDatabase(adminUrl, name), poolSize: 30 });
  return {
    ...database,
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
