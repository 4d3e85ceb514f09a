import pg from 'pg';
import { runningClusterUrl } from '../../server/db/embedded-postgres';
import { e2eEnv } from './env';

/**
 * Plain SQL on the journeys' server's own database (the embedded PostgreSQL of its DATA_DIR, reached as
 * its owner through the Unix socket), for what no API can do and no journey can wait for — such as a
 * session growing old. Use sparingly: journeys go through the app.
 */
export async function runSql(text: string, values: unknown[] = []) {
  const url = runningClusterUrl(e2eEnv().dataDir);
  if (!url) throw new Error('The journeys’ database is not running.');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}
