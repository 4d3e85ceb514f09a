import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createPgliteTemplate, openDatabase } from '../db/client';
import { withAdmin, withDatabase } from './test-database';

/** Migrates one template database per run, so each test file starts from a copy in well under a second. */
export default async function setup() {
  const adminUrl = process.env.DATABASE_URL;
  if (adminUrl) {
    const template = `dealmaker_template_${process.pid}`;
    await withAdmin(adminUrl, async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${template}`);
    });
    const database = await openDatabase({ kind: 'postgres', url: withDatabase(adminUrl, template) });
    await database.close();
    process.env.DEALMAKER_PG_TEMPLATE = template;
    return async () => {
      await withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`));
    };
  }
  const folder = await mkdtemp(path.join(os.tmpdir(), 'dealmaker-template-'));
  const file = path.join(folder, 'template.tar');
  await writeFile(file, Buffer.from(await (await createPgliteTemplate()).arrayBuffer()));
  process.env.DEALMAKER_PGLITE_TEMPLATE = file;
  return async () => {
    await rm(folder, { recursive: true, force: true });
  };
}
