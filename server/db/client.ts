import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { migrationsFolder } from '../paths';
import type { EmbeddedServerWatch } from './embedded-postgres';
import { type ExecuteSql, installJobQueue } from './job-queue';
import { type AppLogin, type DatabaseLogin, DatabaseRoleError, provideAppLogin } from './roles';
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
  /** Who the queries run as: the restricted role, or the owner when none could be had (roles.ts). */
  login: DatabaseLogin;
  /** Plain SQL on the pool, for libraries that bring their own SQL (the job queue). */
  executeSql: ExecuteSql;
  /** The pool's connections: open, idle, and callers waiting for one (for the metrics). */
  poolStats(): { total: number; idle: number; waiting: number };
  /** Tells `observer` how long each query of the server took, in seconds (for the metrics). */
  observeQueries(observer: (seconds: number) => void): void;
  close: () => Promise<void>;
};

export type DatabaseOptions =
  | {
      kind: 'postgres';
      /** The owner's login (DATABASE_URL): migrations, the job queue's schema, the restricted role. */
      url: string;
      /** A ready-made restricted login (DATABASE_APP_URL), for an owner that may not create roles. */
      appUrl?: string;
      poolSize?: number;
      /** Connections the pool opens at start (the server's: its first burst of requests need not wait). */
      warmConnections?: number;
    }
  /** The embedded server of DATA_DIR; `lock: false` only for a caller that holds the folder's lock itself. */
  | {
      kind: 'embedded';
      dataDir: string;
      lock?: boolean;
      log?: (line: string) => void;
      /** Told when its PostgreSQL ends unasked, is started again, or cannot be (embedded-postgres.ts). */
      watch?: EmbeddedServerWatch;
      warmConnections?: number;
    };

/**
 * Opens the database (starting the embedded server if that is the one): as its owner, brings its schema
 * up to date and makes (or updates) the restricted role; then connects as that role, which is what the
 * returned handle runs as (docs/decisions/0021-restricted-database-role.md). No connection of the owner
 * stays open.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') return connect(options.url, 'postgres', options);
  // Loaded only in embedded mode: a server on DATABASE_URL never needs it.
  const { startEmbeddedPostgres } = await import('./embedded-postgres');
  const server = await startEmbeddedPostgres(options.dataDir, {
    lock: options.lock,
    log: options.log,
    watch: options.watch,
  });
  try {
    // Its owner is the cluster's superuser, so the restricted role is always made.
    const database = await connect(server.url, 'embedded', { warmConnections: options.warmConnections });
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

/**
 * Brings a database's schema up to date as its owner and makes no role: the test template, whose
 * copies each make their own (a role made for the template would outlive it, roles being cluster-wide).
 */
export async function migrateDatabase(ownerUrl: string): Promise<void> {
  await prepareAsOwner(ownerUrl, (owner) => migrateAndInstall(owner));
}

async function connect(
  ownerUrl: string,
  kind: Database['kind'],
  options: { appUrl?: string; poolSize?: number; warmConnections?: number },
): Promise<Database> {
  const login = await prepareAsOwner(ownerUrl, async (owner) => {
    await migrateAndInstall(owner);
    return provideAppLogin(owner, ownerUrl, options.appUrl);
  });
  const pool = new pg.Pool({
    connectionString: login.url,
    max: options.poolSize ?? 20,
    // A database that does not answer must not hold callers: after 5 s they are answered 503 (a
    // refused connection fails at once); the pool connects again on the next call once it is back.
    connectionTimeoutMillis: 5_000,
    keepAlive: true,
    // Connections are kept for minutes, not pg's default 10 s: opening one costs the server a process and
    // both sides a password exchange (SCRAM), which bursty traffic would otherwise pay again and again.
    idleTimeoutMillis: 5 * 60_000,
  });
  // A broken idle connection must not take the process down; the next query reconnects.
  pool.on('error', () => {});
  let queryObserver: ((seconds: number) => void) | undefined;
  pool.on('connect', (client) => timeQueries(client, () => queryObserver));
  try {
    await checkLogin(pool, login);
  } catch (error) {
    await pool.end();
    throw error;
  }
  await warmPool(pool, Math.min(options.poolSize ?? 20, options.warmConnections ?? 0));
  return {
    db: drizzleNodePg(pool, { schema }) as unknown as Db,
    kind,
    login: { user: login.user, restricted: login.restricted },
    executeSql: (text, values) => pool.query(text, values),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    observeQueries: (observer) => {
      queryObserver = observer;
    },
    close: () => pool.end(),
  };
}

/**
 * Opens `count` connections at start, so that the first burst of requests (a restarted instance taking its
 * share of the traffic at once) does not wait for them one by one. Best effort: the pool opens more as needed.
 */
async function warmPool(pool: pg.Pool, count: number) {
  const clients = await Promise.all(
    Array.from({ length: count }, () => pool.connect().catch(() => undefined)),
  );
  for (const client of clients) client?.release();
}

/**
 * Wraps one connection's `query` to time every query it runs, once, when the pool opens it: every
 * query of the server (Drizzle's, the prepared ones, transactions', the job queue's) goes through it.
 */
function timeQueries(client: pg.PoolClient, observer: () => ((seconds: number) => void) | undefined) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const observe = observer();
    const started = performance.now();
    const result = query(...args);
    if (!observe || !(result instanceof Promise)) return result;
    const done = () => observe((performance.now() - started) / 1000);
    result.then(done, done);
    return result;
  };
}

/**
 * One connection of the owner, holding the migration lock while `work` runs: several instances may
 * start at once against one PostgreSQL, and one of them migrates, installs the job queue and makes the
 * role while the others wait, then find nothing left to do. Closing the session releases the lock.
 */
async function prepareAsOwner<T>(ownerUrl: string, work: (owner: pg.Client) => Promise<T>): Promise<T> {
  const owner = new pg.Client({ connectionString: ownerUrl });
  owner.on('error', () => {});
  await owner.connect();
  try {
    await owner.query('SELECT pg_advisory_lock($1)', [migrationLockKey]);
    return await work(owner);
  } finally {
    await owner.end();
  }
}
/** The advisory lock the owner holds while preparing a database (also taken by a restore: no server starts meanwhile). */
export const migrationLockKey = 7_204_391_118;

async function migrateAndInstall(owner: pg.Client) {
  await migrateNodePg(drizzleNodePg(owner, { schema }), { migrationsFolder });
  await installJobQueue((text, values) => owner.query(text, values));
}

/** The pool signs in as the login it was given (DATABASE_APP_URL through a proxy could map it): checked once. */
async function checkLogin(pool: pg.Pool, login: AppLogin) {
  let user: string;
  try {
    user = (await pool.query<{ user: string }>('SELECT current_user AS "user"')).rows[0]!.user;
  } catch (error) {
    throw new DatabaseRoleError(
      `Could not sign in to the database as "${login.user}", the server's ${login.restricted ? 'restricted ' : ''}login: ${(error as Error).message}`,
    );
  }
  if (user !== login.user) {
    throw new DatabaseRoleError(
      `The database login was meant to be "${login.user}" but the connection runs as "${user}".`,
    );
  }
}
