import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../db/client';
import { appRoleName, roleComment } from '../db/roles';

/** The server the tests create their databases on: DATABASE_URL, or the embedded one global-setup started. */
export function testAdminUrl(): string {
  const url = process.env.DATABASE_URL ?? process.env.DEALMAKER_TEST_ADMIN_URL;
  if (!url) throw new Error('global-setup did not start a database server');
  return url;
}

/**
 * A fresh, migrated database for one test file: a copy of the template global-setup migrated, with its
 * own restricted role (the one the server runs as); the database and its role are dropped on close.
 */
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
    /** The owner's connection string: for a command run on it in its own process (`npm run operator`). */
    url,
    close: async () => {
      await database.close();
      await dropDatabase(adminUrl, name);
    },
  };
}

/** Drops a database and the restricted role the server made for it: roles outlive databases otherwise. */
export async function dropDatabase(adminUrl: string, name: string) {
  await withAdmin(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    await client.query(`DROP ROLE IF EXISTS ${pg.escapeIdentifier(appRoleName(name))}`);
  });
}

/**
 * Drops the restricted roles of Dealmaker databases that no longer exist (made by a test or a benchmark
 * that dropped its database without its role, e.g. after a crash): only roles named and commented as
 * ours, and only when their database is gone.
 */
export async function dropOrphanedRoles(adminUrl: string) {
  await withAdmin(adminUrl, async (client) => {
    const { rows } = await client.query<{ role: string; database: string }>(
      `SELECT r.rolname AS role, substr(c.description, length($1) + 1) AS database
         FROM pg_roles r JOIN pg_shdescription c ON c.objoid = r.oid AND c.classoid = 'pg_authid'::regclass
        WHERE r.rolname LIKE 'dealmaker\\_%\\_app' AND starts_with(c.description, $1)`,
      [roleComment('')],
    );
    const { rows: databases } = await client.query<{ datname: string }>('SELECT datname FROM pg_database');
    const existing = new Set(databases.map((row) => row.datname));
    for (const { role, database } of rows) {
      if (existing.has(database) || role !== appRoleName(database)) continue;
      await client.query(`DROP ROLE IF EXISTS ${pg.escapeIdentifier(role)}`);
    }
  });
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
