// Deal keyword search on 100,000 deals: the query plan of GET /api/deals/all/{keyword} and its time with the
// trigram indexes, against the same query with index scans switched off, measured in one run.
// `node --import tsx bench/deal-search.bench.ts` (embedded database), or with DATABASE_URL for PostgreSQL.
import { sql } from 'drizzle-orm';
import { createPgliteTemplate, type Database, openDatabase } from '../server/db/client';
import { dealsRepository } from '../server/features/deals/deals.repository';
import { withAdmin, withDatabase } from '../server/test/test-database';

const dealCount = 100_000;
const keywords = ['harbor', 'abc12', 'supply of goods', 'zz9q'];
const rounds = 20;

async function open(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = await openDatabase({ kind: 'pglite', loadDataDir: await createPgliteTemplate() });
    return { database, drop: async () => {} };
  }
  const name = `dealmaker_search_bench_${process.pid}`;
  await withAdmin(url, (client) => client.query(`CREATE DATABASE ${name}`));
  const database = await openDatabase({ kind: 'postgres', url: withDatabase(url, name) });
  return {
    database,
    drop: async () => {
      await withAdmin(url, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** Deterministic titles and descriptions (md5 of the row number), a few with a real word in them. */
async function seed(database: Database) {
  await database.db.execute(
    sql`insert into users (username, email, full_name, password_hash, verified_at) values ('bench', 'bench@example.test', 'Bench', 'x', now())`,
  );
  await database.db.execute(sql`
    insert into deals (title, description, budget_cents, timeline, creator_id)
    select 'Deal ' || g || ' ' || md5(g::text) || case when g % 997 = 0 then ' Harbor logistics' else '' end,
           'Description ' || md5((g * 7)::text) || ' for supply of goods',
           100000 + g, '4 weeks', 1
    from generate_series(1, ${dealCount}) g`);
  await database.db.execute(sql`analyze deals`);
}

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

async function timeSearch(database: Database, keyword: string) {
  const started = performance.now();
  for (let i = 0; i < rounds; i++) await dealsRepository.list(database.db, 1, { keyword, limit: 50 });
  return (performance.now() - started) / rounds;
}

async function main() {
  const { database, drop } = await open();
  try {
    const seeded = performance.now();
    await seed(database);
    console.log(
      `${database.kind}: ${dealCount} deals seeded in ${Math.round(performance.now() - seeded)} ms\n`,
    );

    const query = dealsRepository.list(database.db, 1, { keyword: keywords[0], limit: 50 });
    const plan = rowsOf(await database.db.execute(sql`explain ${query}`)).map((row) =>
      String(row['QUERY PLAN']),
    );
    console.log(`Query plan for keyword "${keywords[0]}" (lines that touch deals):`);
    for (const line of plan.filter((l) => /deals|Bitmap/.test(l) && !/bids|escrows|users/.test(l)))
      console.log(line);
    const usesIndexes =
      plan.some((l) => l.includes('deals_title_trgm')) &&
      plan.some((l) => l.includes('deals_description_trgm'));
    console.log(`\nuses the trigram indexes: ${usesIndexes ? 'yes' : 'NO'}\n`);

    console.log('keyword            indexed ms   no-index ms   ratio');
    for (const keyword of keywords) {
      const indexed = await timeSearch(database, keyword);
      // The same query with index scans forbidden: what the search would cost without its indexes.
      const unindexed = await database.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_bitmapscan = off`);
        await tx.execute(sql`set local enable_indexscan = off`);
        const started = performance.now();
        for (let i = 0; i < 3; i++) await dealsRepository.list(tx, 1, { keyword, limit: 50 });
        return (performance.now() - started) / 3;
      });
      console.log(
        `${keyword.padEnd(18)} ${indexed.toFixed(1).padStart(10)} ${unindexed.toFixed(1).padStart(13)} ${(unindexed / indexed).toFixed(1).padStart(7)}×`,
      );
    }
    if (!usesIndexes) process.exitCode = 1;
  } finally {
    await database.close();
    await drop();
  }
}

await main();
