/**
 * Keyword search and the plain deals list, straight against the database (no
 * HTTP, no cache): their query plans and times at 10k, 100k and (on
 * PostgreSQL: DATABASE_URL) 1M deals, for a keyword in 1% of the titles, a
 * keyword in 0.01% of them, and none. Flat times from 10k to 1M mean the cost
 * grows with the page, not with the table (docs/decisions/0013-keyword-search.md).
 *
 *   node --import tsx bench/deal-search.bench.ts
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { dealRepository } from '../server/core/deal/deal.repository';
import { type Database, openDatabase } from '../server/db/client';
import { dealsRepository } from '../server/features/deals/deals.repository';
import { dropDatabase, withAdmin, withDatabase } from '../server/test/test-database';
import { openTemporaryEmbedded } from './temp-embedded';

const rounds = 30;
const sizes = process.env.DATABASE_URL ? [10_000, 100_000, 1_000_000] : [10_000, 100_000];
const keywords = [
  { keyword: 'zephyr', share: '1% of titles' },
  { keyword: 'quasar', share: '0.01% of titles' },
  { keyword: 'no-such-word', share: 'none' },
];

/** The database the pages are read from (the server's restricted role), and its owner's URL for VACUUM. */
async function open(): Promise<{ database: Database; ownerUrl: string; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = await openTemporaryEmbedded();
    return { database, ownerUrl: database.url, drop: () => database.close() };
  }
  const name = `dealmaker_search_bench_${process.pid}`;
  await withAdmin(url, (client) => client.query(`CREATE DATABASE ${name}`));
  const ownerUrl = withDatabase(url, name);
  const database = await openDatabase({ kind: 'postgres', url: ownerUrl });
  return {
    database,
    ownerUrl,
    drop: async () => {
      await database.close();
      await dropDatabase(url, name);
    },
  };
}

/** Grows the deals table to `total` deals (1 in 100 titles with "zephyr", 1 in 10,000 with "quasar"). */
async function growTo(database: Database, ownerUrl: string, from: number, total: number) {
  await database.db.execute(sql`
    insert into deals (title, description, budget_cents, timeline, creator_id)
    select case when g % 10000 = 0 then 'Quasar optics line ' || g
                when g % 100 = 0 then 'Acquire the zephyr fleet ' || g
                else (array['Freight','Packaging','Warehouse','Courier','Bakery','Software'])[1 + g % 6] || ' deal ' || g end,
           'Deal ' || g || ' about logistics, supply and finance for a regional buyer with a long history',
           100000 + g, '4 weeks', 1
      from generate_series(${from + 1}::int, ${total}::int) g`);
  // Only the owner may: the server's role would skip the table with a warning.
  await withAdmin(ownerUrl, (client) => client.query('vacuum analyze deals'));
}

async function timePage(database: Database, keyword: string | undefined) {
  const run = async () => {
    const ids = await dealsRepository.pageIds(database.db, { keyword, limit: 50 });
    await dealRepository.viewsByIds(database.db, ids, 1);
  };
  for (let i = 0; i < 5; i++) await run();
  const started = performance.now();
  for (let i = 0; i < rounds; i++) await run();
  return (performance.now() - started) / rounds;
}

async function planOf(database: Database, keyword: string) {
  const result = (await database.db.execute(sql`
    explain (analyze, buffers) select id from deals where search_text like lower(${`%${keyword}%`})
     order by id desc limit 50`)) as unknown as { rows: Array<Record<string, string>> };
  return result.rows.map((row) => row['QUERY PLAN']!);
}

async function main() {
  const { database, ownerUrl, drop } = await open();
  try {
    await database.db.execute(sql`
      insert into users (username, email, full_name, password_hash, verified_at)
      values ('searcher', 'searcher@example.test', 'Searcher', 'x', now())`);
    console.log(
      `${database.kind}: ms per page of 50 (ids + views), mean of ${rounds}, after 5 warm-up rounds`,
    );
    console.log(`deals       list   ${keywords.map((k) => `${k.keyword} (${k.share})`.padEnd(28)).join('')}`);
    let seeded = 0;
    for (const size of sizes) {
      const started = performance.now();
      await growTo(database, ownerUrl, seeded, size);
      seeded = size;
      const seedSeconds = ((performance.now() - started) / 1000).toFixed(1);
      const cells = [(await timePage(database, undefined)).toFixed(2).padStart(6)];
      for (const { keyword } of keywords)
        cells.push((await timePage(database, keyword)).toFixed(2).padEnd(28));
      console.log(`${String(size).padEnd(10)} ${cells.join('   ')} (seeded in ${seedSeconds} s)`);
    }
    for (const { keyword } of keywords) {
      console.log(`\nPlan at ${seeded} deals for "${keyword}":`);
      for (const line of await planOf(database, keyword)) console.log(`  ${line}`);
    }
  } finally {
    await drop();
  }
}

await main();
