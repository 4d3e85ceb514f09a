import type pg from 'pg';
import type { DbOrTx } from './client';

/**
 * A hot query built once per database handle and sent as a named prepared
 * statement: the SQL is not rebuilt on every call, and PostgreSQL parses and
 * plans it once per connection instead of once per call
 * (docs/decisions/0012-prepared-statements.md). A transaction's handle is
 * its pooled connection's (db/transaction.ts), so it too builds each query once.
 *
 *   const findWallet = prepared((db) =>
 *     db.select().from(wallets).where(eq(wallets.userId, sql.placeholder('userId'))).prepare('wallet_find'));
 *   const [row] = await findWallet(db).execute({ userId });
 */
export function prepared<Q>(build: (db: DbOrTx) => Q): (db: DbOrTx) => Q {
  const built = new WeakMap<DbOrTx, Q>();
  return (db) => {
    let query = built.get(db);
    if (!query) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}

/**
 * A hot statement written in SQL (a statement Drizzle's builder cannot express, such as a chain of
 * CTEs), sent as a named prepared statement on whichever connection runs it: parsed and planned once
 * per connection. `text` must be a constant: its parameters are $1, $2… bound to `values`.
 */
export async function executeNamed<Row>(
  db: DbOrTx,
  name: string,
  text: string,
  values: unknown[],
): Promise<Row[]> {
  const result = await clientOf(db).query({ name, text, values });
  return result.rows as Row[];
}

/**
 * A write made by another hot statement, to save its own round trip (a deal's timeline entry with the
 * notifications of its change): a named constant data-modifying CTE (`name as (insert …)`) using $1
 * upwards, its parameters, and the name of the combined prepared statement.
 */
export type Alongside = { statement: string; cte: string; values: unknown[] };

/** The pool (or, in a transaction, the connection) behind a Drizzle handle. */
function clientOf(db: DbOrTx): Pick<pg.ClientBase, 'query'> {
  const handle = db as unknown as { $client?: pg.Pool | pg.PoolClient; session?: { client: pg.PoolClient } };
  const client = handle.$client ?? handle.session?.client;
  if (!client) throw new Error('executeNamed: no connection behind this database handle');
  return client;
}
