import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { migrationsFolder } from '../paths';
import * as schema from './schema';

export type Schema = typeof schema;
/** The Drizzle handle the repositories use. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle: repositories accept either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export type Database = {
  db: Db;
  /** 'embedded': the PostgreSQL server this process runs in DATA_DIR; 'postgres': DATABASE_URL. */
  kind: 'embedded' | 'postgres';
  /** Plain SQL on the pool, for libraries that bring their own SQL (the job queue). */
  executeSql: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;
  close: () => Promise<void>;
};

export type DatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize?: number }
  /** The embedded server of DATA_DIR; `lock: false` only for a caller that holds the folder's lock itself. */
  | { kind: 'embedded'; dataDir: string; lock?: boolean; log?: (line: string) => void };

/** Opens the database (starting the embedded server if that is the one) and brings its schema up to date. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') return connect(options.url, 'postgres', options.poolSize);
  // Loaded only in embedded mode: a server on DATABASE_URL never needs it.
  const { startEmbeddedPostgres } = await import('./embedded-postgres');
  const server = await startEmbeddedPostgres(options.dataDir, { lock: options.lock, log: options.log });
  try {
    const database = await connect(server.url, 'embedded');
    return {
      ...database,
      close: async () => {
        try {
          await database.close();
        } finally {
          await server.stop();
        }
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

async function connect(url: string, kind: Database['kind'], poolSize = 20): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // A broken idle connection must not take the process down; the next query reconnects.
  pool.on('error', () => {});
  try {
    await migrateWithLock(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return {
    db: drizzleNodePg(pool, { schema }) as unknown as Db,
    kind,
    executeSql: (text, values) => pool.query(text, values),
    close: () => pool.end(),
  };
}

/**
 * Several instances may start at once against one PostgreSQL: an advisory lock
 * lets one of them migrate while the others wait, then find nothing to do.
 */
async function migrateWithLock(pool: pg.Pool) {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [migrationLockKey]);
    try {
      await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [migrationLockKey]);
    }
  } finally {
    client.release();
  }
}
const migrationLockKey = 7_204_391_118;
