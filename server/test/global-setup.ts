import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { migrateDatabase } from '../db/client';
import { startEmbeddedPostgres } from '../db/embedded-postgres';
import { dropOrphanedRoles, testAdminUrl, withAdmin, withDatabase } from './test-database';

/**
 * One PostgreSQL server for the run — the machine's (DATABASE_URL) or, by
 * default, the product's own embedded server in a temporary folder — and one
 * migrated template database on it, so each test file starts from a copy in
 * a fraction of a second. The template gets no restricted role: each copy
 * makes its own when it is opened, and drops it with itself.
 */
export default async function setup() {
  let stopEmbedded = async () => {};
  if (!process.env.DATABASE_URL) {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'dealmaker-test-db-'));
    const server = await startEmbeddedPostgres(folder);
    process.env.DEALMAKER_TEST_ADMIN_URL = server.url;
    stopEmbedded = async () => {
      await server.stop();
      await rm(folder, { recursive: true, force: true });
    };
  }
  const adminUrl = testAdminUrl();
  const template = `dealmaker_template_${process.pid}`;
  await withAdmin(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${template}`);
  });
  await migrateDatabase(withDatabase(adminUrl, template));
  process.env.DEALMAKER_PG_TEMPLATE = template;
  return async () => {
    await withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`));
    // Test files that make databases of their own (two server processes on one database) drop them
    // without their roles: on a shared PostgreSQL those would pile up run after run.
    await dropOrphanedRoles(adminUrl);
    await stopEmbedded();
  };
}
