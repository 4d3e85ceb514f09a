import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/test-database';
import type { Database, Tx } from './client';
import { clientOf, handleOn, poolOf } from './driver';

/**
 * db/driver.ts reaches into Drizzle's handles for their `pg` connection (`$client`, `session.client`):
 * properties Drizzle does not promise to keep. If an upgrade moves them, this fails before anything else.
 */

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

/** The backend a query on `db` runs on, as PostgreSQL tells it. */
async function backendOf(db: Database['db'] | Tx): Promise<number> {
  const result = (await db.execute(sql`select pg_backend_pid() as pid`)) as unknown as {
    rows: Array<{ pid: number }>;
  };
  return result.rows[0]!.pid;
}

describe('the pg connection behind a Drizzle handle', () => {
  it("is the pool of the server's handle", async () => {
    const pool = poolOf(database.db);
    expect(pool).toBeInstanceOf(pg.Pool);
    expect(clientOf(database.db)).toBe(pool);
    expect((await pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it('is the connection of a handle made on one (a transaction of transact)', async () => {
    const client = await poolOf(database.db).connect();
    try {
      const handle = handleOn(client);
      expect(clientOf(handle)).toBe(client);
      const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      expect(await backendOf(handle)).toBe(pid);
      expect(() => poolOf(handle as never)).toThrow(/no pg pool/);
    } finally {
      client.release();
    }
  });

  it("is the transaction's connection in a transaction of Drizzle's own", async () => {
    await database.db.transaction(async (tx) => {
      const client = clientOf(tx as Tx);
      expect(client).not.toBe(poolOf(database.db));
      await client.query(`select set_config('dealmaker.driver_probe', 'inside', true)`);
      const result = (await tx.execute(
        sql`select current_setting('dealmaker.driver_probe', true) as probe`,
      )) as unknown as { rows: Array<{ probe: string }> };
      expect(result.rows[0]!.probe).toBe('inside');
    });
  });

  it('is refused loudly for anything else', () => {
    expect(() => clientOf({} as never)).toThrow(/no pg connection/);
  });
});
