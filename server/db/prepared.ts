import type { DbOrTx } from './client';

/**
 * A hot query built once per database handle and sent as a named prepared
 * statement: the SQL is not rebuilt on every call, and PostgreSQL parses and
 * plans it once per connection instead of once per call
 * (docs/decisions/0012-prepared-statements.md). A transaction handle gets its
 * own build (it lives for one transaction), and still PostgreSQL's plan.
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
