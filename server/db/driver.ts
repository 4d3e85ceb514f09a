import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Db, DbOrTx, Tx } from './client';
import * as schema from './schema';

/**
 * The one module that knows how a Drizzle node-postgres handle holds its `pg` connection: Drizzle keeps
 * it in properties it does not type for us (`$client` on a handle made by `drizzle()`, `session.client`
 * in a transaction of its own). driver.test.ts fails if an upgrade of Drizzle moves them.
 */
type DrizzleInternals = { $client?: pg.Pool | pg.PoolClient; session?: { client?: pg.Pool | pg.PoolClient } };

/** The pool (or, on a connection's handle or in a transaction, the connection) behind a Drizzle handle. */
export function clientOf(db: DbOrTx): pg.Pool | pg.PoolClient {
  const handle = db as unknown as DrizzleInternals;
  const client = handle.$client ?? handle.session?.client;
  if (!client) throw new Error('db/driver: no pg connection behind this Drizzle handle');
  return client;
}

/** The pool behind the server's handle (`openDatabase`'s `db`). */
export function poolOf(db: Db): pg.Pool {
  const pool = (db as unknown as DrizzleInternals).$client;
  if (!pool || !('totalCount' in pool)) throw new Error('db/driver: no pg pool behind this Drizzle handle');
  return pool;
}

/** A Drizzle handle on one pooled connection (a transaction's, db/transaction.ts). */
export function handleOn(client: pg.PoolClient): Tx {
  return drizzle(client, { schema }) as unknown as Tx;
}
