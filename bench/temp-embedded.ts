import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Database, openDatabase } from '../server/db/client';
import { runningClusterUrl } from '../server/db/embedded-postgres';

/**
 * The product's embedded PostgreSQL in a fresh temporary DATA_DIR, for benchmarks that measure
 * the one-machine setup: closing it stops the server and deletes the folder.
 */
export async function openTemporaryEmbedded(): Promise<Database & { url: string }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dealmaker-bench-'));
  try {
    const database = await openDatabase({ kind: 'embedded', dataDir });
    return {
      ...database,
      /** For a server started in its own process on the same cluster. */
      url: runningClusterUrl(dataDir)!,
      close: async () => {
        try {
          await database.close();
        } finally {
          await rm(dataDir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
