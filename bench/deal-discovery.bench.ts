/**
 * The deals list's filters, sorts and ranked search (deal-search.repository) at 1,000,000 deals, straight
 * against PostgreSQL (no HTTP, no page cache): for each combination of keywords × status × budget × sort,
 * the database time of the first page as DealsService.find spends it (with keywords their closest words,
 * then pageIds with limit 50, then the snippets) and of the capped count as DealsService.count runs it,
 * with the plan of every query the row ran.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/deal-discovery.bench.ts
 *
 * The text is made of a vocabulary of 320 business words drawn with a Zipf-like frequency (s = 1.2: the
 * commonest word in every deal, the rarest in ~1%), a made-up name in each title (13,824 of them, each in
 * ~0.007% of deals) and marker words in known shares (see `markers`). Stages follow a deal's age as on a
 * live marketplace (the newest mostly open, the oldest mostly completed; 45 / 10 / 15 / 30% overall),
 * budgets are log-uniform from $100 to $10,000,000.
 *
 * BENCH_DEALS (default 1,000,000) sizes the table; BENCH_FULL=1 measures the full product of the
 * combinations (420 rows) instead of the representative set (`combinations`). Needs DATABASE_URL (a role
 * that may create databases and, to seed without the triggers, a superuser); the database is
 * dropped at the end, on failure and on Ctrl-C too. Writes results/<UTC time>-discovery-<size>.md, after
 * every row (marked incomplete until the last).
 *
 * While working on the queries: BENCH_DATABASE=<name> keeps the seeded database under that name and, when
 * it already holds deals, measures it again without seeding (migrating it first, so a new index is built);
 * BENCH_ONLY=<regular expression> measures only the rows whose label ("rare choosing,in_progress any newest")
 * it matches.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { limits } from '../contract/limits';
import type { DealSort, DealStage } from '../contract/vocabulary';
import { type Database, type Db, openDatabase } from '../server/db/client';
import { sessionSettings } from '../server/db/roles';
import * as schema from '../server/db/schema';
import { type DealSearch, dealSearchRepository } from '../server/features/deals/deal-search.repository';
import { dropDatabase, withAdmin, withDatabase } from '../server/test/test-database';

const dealCount = Number(process.env.BENCH_DEALS ?? 1_000_000);
const userCount = 4_000;
const warmups = 3;
const runs = 30;
/** A row whose warm-up takes longer than this is measured 5 times, not 30 (flagged in the table). */
const slowRunMs = 3_000;
const slowRuns = 5;
const pageLimit = 50;
/** What DealsService.count asks for: exact up to the cap, one more to know there are more. */
const countCap = limits.discovery.countCap + 1;
const targets = { p50: 20, p95: 50 };
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The code measured (others edit it meanwhile): each file's hash and time, read when the run starts. */
const measuredFiles = [
  'server/features/deals/deal-search.repository.ts',
  'server/features/deals/deals.service.ts',
  'server/db/schema/deals.ts',
  'server/db/migrations/0011_search_saved_searches_bid_history.sql',
];
const fingerprint = measuredFiles.map((file) => {
  const full = path.join(root, file);
  const hash = createHash('sha256').update(readFileSync(full)).digest('hex').slice(0, 12);
  return `\`${file}\` sha256 ${hash} (modified ${statSync(full).mtime.toISOString().slice(0, 19)}Z)`;
});

/**
 * Ordered from the commonest: rank k is drawn with probability ∝ 1/k^1.2. None of them stems to, or comes
 * within the trigram threshold (0.6) of, a marker or a test keyword; 'transport' (rank 21), 'private' (61)
 * and 'label' (91) are the words of the two-word, exclusion and phrase searches.
 */
const vocabulary = `
deal contract service business project company market client delivery team
product sales support management development partner price order quality customer
transport logistics finance payment regional local national international buyer seller
agreement terms growth strategy operations network digital online retail wholesale
import export freight shipping warehouse inventory distribution storage packaging equipment
software hardware platform marketing brand design consulting advisory legal accounting
private audit insurance investment capital equity loan credit lease rental
property estate office construction renovation engineering energy solar wind power
utility water waste recycling cleaning maintenance repair installation security training
label education health medical pharmacy clinic dental fitness food beverage
restaurant catering bakery coffee organic farm agriculture dairy meat seafood
produce grain fruit vegetables textile apparel fashion furniture interior printing
publishing media video photography music event travel hotel tourism fleet
vehicle truck courier parcel express route port rail cargo container
customs broker agent tender procurement sourcing vendor franchise licensing subscription
hosting cloud data analytics mobile website ecommerce marketplace startup venture
merger portfolio dividend revenue profit margin budget forecast invoice billing
payroll staffing recruitment hiring talent outsourcing offshore nearshore compliance regulation
permit certification inspection safety risk claim warranty guarantee escrow milestone
deadline schedule timeline phase pilot prototype launch rollout upgrade migration
integration automation robotics sensor battery charging electric hybrid diesel fuel
chemical plastic metal steel aluminum copper timber paper glass ceramic
cotton leather rubber paint coating adhesive fabric yarn wool silk
toys games sports outdoor garden pets jewelry cosmetics beauty salon
spa wellness nutrition supplement vitamin bottling brewery winery distillery bottle
jar carton pallet crate forklift crane loader excavator tractor harvester
irrigation greenhouse nursery seeds fertilizer livestock poultry fishery aquaculture hatchery
tiles flooring roofing plumbing heating ventilation cooling lighting wiring insulation
telecom fiber antenna satellite radio broadcast streaming studio gallery theater
charity foundation grant scholarship tuition campus library archive museum heritage
consultancy bookkeeping tax valuation appraisal underwriting brokerage custody clearing settlement
exchange currency commodity futures options bond treasury liquidity refinancing mortgage
`
  .split(/\s+/)
  .filter(Boolean);
const zipfExponent = 1.2;

/** Syllables of the made-up names in titles (24³ names). */
const syllables =
  'ka lo ven tri mar zo bel dor ni quo ras tel vi sun or pex lum ga ri tan ber fi mo xa'.split(' ');

/** Words in known shares of the descriptions (none of them in the vocabulary). */
const markers = [
  { text: 'supply', share: 0.3 },
  { text: 'refrigerated', share: 0.01 },
  { text: 'acquisition', share: 0.0001 },
  { text: 'private label', share: 0.005 },
  { text: 'manufacturing', share: 0.005 },
];

const keywordKinds: Array<{ kind: string; q?: string; what: string }> = [
  { kind: 'none', what: 'no keywords' },
  { kind: 'common', q: 'supply', what: 'a word in ~30% of deals' },
  { kind: '1%', q: 'refrigerated', what: 'a word in ~1%' },
  { kind: 'rare', q: 'acquisition', what: 'a word in ~0.01% (~100 deals)' },
  {
    kind: 'two words',
    q: 'refrigerated transport',
    what: '1% word AND a vocabulary word of rank 21 (~0.2%)',
  },
  { kind: 'phrase', q: '"private label"', what: 'a phrase in ~0.5%, its words each in 4–7%' },
  { kind: 'exclusion', q: 'supply -transport', what: '30% word, minus a vocabulary word in ~21%' },
  {
    kind: 'typo',
    q: 'manufacturng',
    what: "no word match: the trigram fallback finds 'manufacturing' (~0.5%)",
  },
  { kind: 'unstemmed', q: 'acquire', what: "no word match: the fallback finds 'acquisition' (~0.01%)" },
];
const statuses: Array<DealStage[] | undefined> = [
  undefined,
  ['open'],
  ['completed'],
  ['choosing', 'in_progress'],
];
/** Budgets are log-uniform over 5 decades: a range's share is log10(max / min) / 5. */
const budgets = [
  { name: 'any' },
  { name: 'narrow $5,000–$5,058 (~0.1%)', minBudgetCents: 500_000, maxBudgetCents: 505_800 },
  { name: 'wide $200–$6.3M (~90%)', minBudgetCents: 20_000, maxBudgetCents: 630_000_000 },
];
const sorts: DealSort[] = ['newest', 'budget_desc', 'budget_asc', 'relevance'];

type Combination = {
  keywords: (typeof keywordKinds)[number];
  status: DealStage[] | undefined;
  budget: (typeof budgets)[number];
  sort: DealSort;
};

/**
 * The representative set (BENCH_FULL=1: the full product): without keywords, every status × budget × sort
 * (the list's common case); with each kind of keywords × every sort, no filter, the least selective
 * filters ('open' + the wide range) and the most selective ('completed', the oldest deals, + the narrow
 * range); and for the newest and relevance sorts each filter alone at its extreme
 * (['choosing', 'in_progress'], the narrow range, the wide range).
 */
function combinations(): Combination[] {
  const all: Combination[] = [];
  for (const keywords of keywordKinds)
    for (const status of statuses)
      for (const budget of budgets)
        for (const sort of sorts) {
          if (sort === 'relevance' && !keywords.q) continue;
          all.push({ keywords, status, budget, sort });
        }
  const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
  return (process.env.BENCH_FULL === '1' ? all : representative(all)).filter(
    (row) => !only || only.test(label(row)),
  );
}

/** "rare choosing,in_progress any newest": what BENCH_ONLY matches. */
function label({ keywords, status, budget, sort }: Combination) {
  return `${keywords.kind} ${(status ?? ['any']).join(',')} ${budget.name.split(' ')[0]} ${sort}`;
}

function representative(all: Combination[]): Combination[] {
  const [anyBudget, narrow, wide] = budgets;
  const is = (status: DealStage[] | undefined, name: string) => (status ?? ['none']).join(',') === name;
  return all.filter(({ keywords, status, budget, sort }) => {
    if (!keywords.q) return true;
    if (is(status, 'none') && budget === anyBudget) return true;
    if (is(status, 'open') && budget === wide) return true;
    if (is(status, 'completed') && budget === narrow) return true;
    if (sort !== 'newest' && sort !== 'relevance') return false;
    return (
      (is(status, 'choosing,in_progress') && budget === anyBudget) ||
      (is(status, 'none') && (budget === narrow || budget === wide))
    );
  });
}

/**
 * The database, made and migrated as the server does it; dropped by `drop` (once, whatever happens) unless
 * it is kept (BENCH_DATABASE). `seeded` when a kept database already holds the deals.
 */
async function open(adminUrl: string) {
  const kept = process.env.BENCH_DATABASE;
  const name = kept ?? `dealmaker_discovery_bench_${process.pid}`;
  const exists = await withAdmin(adminUrl, async (client) => {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    return found.rowCount !== 0;
  });
  const ownerUrl = withDatabase(adminUrl, name);
  let database: Database | undefined;
  let dropped: Promise<void> | undefined;
  const drop = () => {
    dropped ??= (async () => {
      await database?.close().catch(() => {});
      if (kept) return console.log(`kept database ${name}`);
      await dropDatabase(adminUrl, name);
      console.log(`dropped database ${name}`);
    })();
    return dropped;
  };
  try {
    database = await openDatabase({ kind: 'postgres', url: ownerUrl });
  } catch (error) {
    await drop();
    throw error;
  }
  const seeded =
    exists &&
    (await withAdmin(ownerUrl, async (client) => {
      const { rows } = await client.query<{ any: boolean }>('select exists (select 1 from deals) as any');
      return rows[0]!.any;
    }));
  return { database, ownerUrl, name, drop, seeded };
}

/**
 * Users, then the deals in one INSERT … SELECT generate_series, straight into the database with the audit
 * and foreign-key triggers off (setup, not a change anyone made) and the deals' indexes dropped meanwhile
 * and built again afterwards from their own definitions (a million inserts into two GIN indexes with
 * fastupdate off would take far longer than building them); then VACUUM ANALYZE as the owner.
 */
async function seed(ownerUrl: string, log: (line: string) => void) {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    await client.query(`SET session_replication_role = replica`);
    await client.query(`SET maintenance_work_mem = '1GB'`);
    await client.query(`SELECT setseed(0.42)`);
    let started = performance.now();
    await client.query(
      `insert into users (username, email, full_name, password_hash, verified_at)
       select 'trader' || g, 'trader' || g || '@example.test', 'Trader ' || g, 'x', now()
         from generate_series(1, $1::int) g`,
      [userCount],
    );
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `select indexname as name, indexdef as definition from pg_indexes
        where schemaname = 'public' and tablename = 'deals' and indexname <> 'deals_pkey'`,
    );
    for (const index of indexes) await client.query(`drop index ${pg.escapeIdentifier(index.name)}`);
    // Zipf by the inverse of the continuous distribution ∝ x^-s on [1, V + 1): rank = floor(x).
    const zipfScale = 1 - (vocabulary.length + 1) ** (1 - zipfExponent);
    const zipfPower = 1 / (1 - zipfExponent);
    const word = `($1::text[])[floor(power(1 - random() * $2::float8, $3::float8))::int]`;
    const words = (count: string) => `(select string_agg(${word}, ' ') from generate_series(1, ${count}))`;
    const syllable = `($4::text[])[1 + floor(random() * ${syllables.length})::int]`;
    const markerText = markers
      .map((marker, i) => `case when m${i} < ${marker.share} then '${marker.text}' end`)
      .join(', ');
    await client.query(
      `insert into deals (title, description, budget_cents, timeline, creator_id, counterpart_id, dealmaker_id,
                          completed_by_creator, completed_by_counterpart, is_completed, completion_date,
                          created_at, updated_at)
       select initcap(${words('3 + s.g % 4')}) || ' ' || initcap(${syllable} || ${syllable} || ${syllable}),
              initcap(${words('10 + s.g % 11')}) || ' ' || concat_ws(' ', ${markerText}) || ' '
                || ${words('8 + (s.g / 7) % 13')} || '.',
              floor(10000 * power(100000::float8, r_budget))::bigint,
              (1 + s.g % 12) || ' weeks',
              1 + floor(r_creator * $5::int)::int,
              case when stage <> 'open' then 1 + floor(r_counterpart * $5::int)::int end,
              case when stage in ('in_progress', 'completed') then 1 + floor(r_dealmaker * $5::int)::int end,
              stage = 'completed', stage = 'completed', stage = 'completed',
              case when stage = 'completed' then created_at + interval '30 days' end,
              created_at, created_at
         from (select g, r_budget, r_creator, r_counterpart, r_dealmaker, ${markers.map((_, i) => `m${i}`).join(', ')},
                      now() - ($6::int - g) * interval '30 seconds' as created_at,
                      -- A deal's age a (0 oldest, 1 newest): completed 0.6 (1 - a), open 0.9 a, the rest
                      -- choosing 40% / in progress 60%: 30 / 45 / 10 / 15% overall.
                      case when r_stage < 0.6 * (1 - a) then 'completed'
                           when r_stage < 0.6 * (1 - a) + 0.9 * a then 'open'
                           when r_stage < 0.6 * (1 - a) + 0.9 * a + 0.4 * (0.4 - 0.3 * a) then 'choosing'
                           else 'in_progress' end as stage
                 from (select g, g::float8 / $6::int as a, random() as r_stage, random() as r_budget,
                              random() as r_creator, random() as r_counterpart, random() as r_dealmaker,
                              ${markers.map((_, i) => `random() as m${i}`).join(', ')}
                         from generate_series(1, $6::int) g) r) s`,
      [vocabulary, zipfScale, zipfPower, syllables, userCount, dealCount],
    );
    log(`inserted ${fmt(dealCount)} deals in ${seconds(started)} s`);
    for (const index of indexes) {
      started = performance.now();
      await client.query(index.definition);
      log(`built ${index.name} in ${seconds(started)} s`);
    }
    // The trigger that keeps the deals' words (search_words) was off with the others: fill it as migration 0011 does.
    const { rows: wordsTable } = await client.query<{ exists: boolean }>(
      `select to_regclass('search_words') is not null as exists`,
    );
    if (wordsTable[0]!.exists) {
      started = performance.now();
      await client.query(
        `insert into search_words (word)
         select distinct word
           from deals, regexp_split_to_table(lower(title || ' ' || description), '[^[:alnum:]]+') as word
          where length(word) between 3 and 40
         on conflict do nothing`,
      );
      const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from search_words`);
      log(`filled search_words (${fmt(rows[0]!.n)} words) in ${seconds(started)} s`);
    }
    await client.query(`SET session_replication_role = origin`);
    started = performance.now();
    await client.query(`vacuum analyze users`);
    if (wordsTable[0]!.exists) await client.query(`vacuum analyze search_words`);
    await client.query(`vacuum analyze deals`);
    log(`vacuum analyze in ${seconds(started)} s`);
  } finally {
    await client.end();
  }
}

/** What the seeded table holds: the shares the searches rely on, measured, and the sizes. */
async function describeData(ownerUrl: string) {
  return withAdmin(ownerUrl, async (client) => {
    const shares = await client.query<Record<string, number>>(
      `select count(*)::int as deals,
              ${keywordKinds
                .filter((k) => k.q)
                .map(
                  (k, i) =>
                    `count(*) filter (where search_vector @@ websearch_to_tsquery('english', $${i + 1}))::int as "${k.kind}"`,
                )
                .join(',\n              ')},
              count(*) filter (where search_text like '%manufacturing%')::int as "manufacturing (text)",
              count(*) filter (where stage = 'open')::int as open,
              count(*) filter (where stage = 'choosing')::int as choosing,
              count(*) filter (where stage = 'in_progress')::int as in_progress,
              count(*) filter (where stage = 'completed')::int as completed,
              count(*) filter (where budget_cents between ${budgets[1]!.minBudgetCents} and ${budgets[1]!.maxBudgetCents})::int as "narrow budget",
              count(*) filter (where budget_cents between ${budgets[2]!.minBudgetCents} and ${budgets[2]!.maxBudgetCents})::int as "wide budget"
         from deals`,
      keywordKinds.filter((k) => k.q).map((k) => k.q),
    );
    const sizes = await client.query<{ name: string; size: string }>(
      `select relname as name, pg_size_pretty(pg_total_relation_size(c.oid)) as size
         from pg_class c
        where relname = 'deals' or oid in (select indexrelid from pg_index where indrelid = 'deals'::regclass)
        order by pg_total_relation_size(c.oid) desc`,
    );
    const sample = await client.query<{ title: string; description: string }>(
      `select title, description from deals where id in (1, ${Math.floor(dealCount / 2)}, ${dealCount})`,
    );
    // Loads pg_trgm in this session: its settings are unknown until then.
    await client.query(`select word_similarity('a', 'b')`);
    const settings = await client.query<{ name: string; setting: string }>(
      `select name, current_setting(name) as setting from unnest(array['server_version', 'shared_buffers',
              'work_mem', 'effective_cache_size', 'random_page_cost', 'jit', 'max_parallel_workers_per_gather',
              'pg_trgm.similarity_threshold', 'pg_trgm.word_similarity_threshold']) name`,
    );
    return { counts: shares.rows[0]!, sizes: sizes.rows, sample: sample.rows, settings: settings.rows };
  });
}

type Stats = { p50: number; p95: number; max: number; runs: number };
/** The machine's 1-minute load average when each row ended: others' work on the same cores shows in it. */
const loads: number[] = [];
type Plan = { label: string; lines: string[] };
type Row = Combination & { ids: number; count: number; page: Stats; counting: Stats; plans: Plan[] };

/** Nearest-rank percentiles. */
function stats(times: number[]): Stats {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
  return { p50: at(0.5), p95: at(0.95), max: sorted.at(-1)!, runs: sorted.length };
}

async function measure<T>(work: () => Promise<T>): Promise<{ stats: Stats; result: T }> {
  let result!: T;
  let slowest = 0;
  for (let i = 0; i < warmups; i++) {
    const started = performance.now();
    result = await work();
    slowest = Math.max(slowest, performance.now() - started);
  }
  const times: number[] = [];
  for (let i = 0; i < (slowest > slowRunMs ? slowRuns : runs); i++) {
    const started = performance.now();
    result = await work();
    times.push(performance.now() - started);
  }
  return { stats: stats(times), result };
}

function searchOf(combination: Combination): DealSearch {
  return {
    q: combination.keywords.q,
    stages: combination.status,
    minBudgetCents: combination.budget.minBudgetCents,
    maxBudgetCents: combination.budget.maxBudgetCents,
  };
}

/** The count as DealsService.count runs it. */
async function countOf(db: Db, combination: Combination): Promise<number> {
  const search = searchOf(combination);
  const keywords = search.q ? await dealSearchRepository.keywordQueries(db, search.q) : undefined;
  return dealSearchRepository.count(db, search, keywords, countCap);
}

/**
 * The server's database work for the first page (DealsService.find on a page-cache miss): the keywords'
 * queries (their closest words), the ids, and the snippets.
 */
async function firstPage(db: Db, combination: Combination): Promise<number> {
  const search = searchOf(combination);
  const keywords = search.q ? await dealSearchRepository.keywordQueries(db, search.q) : undefined;
  const ids = await dealSearchRepository.pageIds(db, search, keywords, {
    sort: combination.sort,
    limit: pageLimit,
  });
  if (keywords) await dealSearchRepository.snippets(db, ids, keywords);
  return ids.length;
}

/** A plan's lines with the estimated rows only (no costs), long conditions cut: node, rows, time, buffers. */
function compact(lines: string[]): string[] {
  // Planning's own buffers follow its heading: both go.
  const kept = lines
    .filter((line, i) => !(/^\s*Buffers:/.test(line) && /^\s*Planning:/.test(lines[i - 1] ?? '')))
    .filter((line) => !/^\s*(Planning:|Output:|Sort Key:|Group Key:)/.test(line))
    .map((line) =>
      line.replace(/\s*\(cost=[^ ]+ rows=(\d+) width=\d+\)/, ' (est. $1)').replace(/^(.{150}).+$/, '$1…'),
    );
  return kept.length > 40 ? [...kept.slice(0, 39), `… ${kept.length - 39} more lines`] : kept;
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of each query the page (without the snippets) and the count ran: captured by
 * a logger on a drizzle handle of the owner, then replayed in order in one transaction on one connection
 * (rolled back), a SET the repository made run as it is so that the plans are the ones it got.
 */
async function plansOf(
  explainer: pg.Client,
  capturing: { db: Db; queries: Query[] },
  combination: Combination,
) {
  const plans: Plan[] = [];
  const isSet = (query: Query) => /^\s*set\s/i.test(query.sql);
  const explain = async (label: string, work: () => Promise<unknown>) => {
    capturing.queries.length = 0;
    await work();
    const queries = capturing.queries.filter((query) => !/^\s*(begin|commit|rollback)\b/i.test(query.sql));
    const explained = queries.filter((query) => !isSet(query));
    await explainer.query('begin');
    try {
      for (const query of queries) {
        if (isSet(query)) {
          await explainer.query(query.sql, query.params);
          continue;
        }
        const result = await explainer.query<Record<string, string>>(
          `explain (analyze, buffers) ${query.sql}`,
          query.params,
        );
        const n = explained.indexOf(query) + 1;
        plans.push({
          label: explained.length > 1 ? `${label} ${n}/${explained.length}` : label,
          lines: compact(result.rows.map((row) => row['QUERY PLAN']!)),
        });
      }
    } finally {
      await explainer.query('rollback');
    }
  };
  const search = searchOf(combination);
  const keywords = search.q ? await dealSearchRepository.keywordQueries(capturing.db, search.q) : undefined;
  if (search.q) {
    const q = search.q;
    await explain('closest words', () => dealSearchRepository.keywordQueries(capturing.db, q));
  }
  await explain('page', () =>
    dealSearchRepository.pageIds(capturing.db, search, keywords, {
      sort: combination.sort,
      limit: pageLimit,
    }),
  );
  await explain('count', () => dealSearchRepository.count(capturing.db, search, keywords, countCap));
  return plans;
}

type Query = { sql: string; params: unknown[] };

const fmt = (n: number) => n.toLocaleString('en-US');
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
const statusName = (status: DealStage[] | undefined) => (status ? status.join(', ') : 'any');
const misses = (row: Row) => row.page.p50 > targets.p50 || row.page.p95 > targets.p95;

function report(context: {
  rows: Row[];
  total: number;
  data: Awaited<ReturnType<typeof describeData>>;
  seedLog: string[];
  startedAt: Date;
}) {
  const { rows, total, data, seedLog, startedAt } = context;
  const done = rows.length === total;
  const cpus = os.cpus();
  const out: string[] = [];
  out.push(
    `# Deal discovery at ${fmt(dealCount)} deals: filters, sorts and ranked search${done ? '' : ` (incomplete: ${rows.length} of ${total} rows)`}`,
    '',
    `\`bench/deal-discovery.bench.ts\`, started ${startedAt.toISOString()}. PostgreSQL straight from the repository`,
    '(no HTTP, no page cache): the server’s database time for a page and for its count.',
    '',
    '## Method',
    '',
    `- **Page** = with keywords \`dealSearchRepository.keywordQueries\` (their closest words), then \`pageIds\` (first page,`,
    `  limit ${pageLimit}, the row’s sort), then \`snippets\` of those ids, as \`DealsService.find\` runs them on a page-cache miss.`,
    '  **Count** = `keywordQueries` with keywords, then',
    `  \`dealSearchRepository.count\` with cap ${countCap}, as \`DealsService.count\``,
    `  runs it. Each: ${warmups} discarded warm-ups, then ${runs}`,
    `  runs one after another on the server’s pool (its restricted role); p50 / p95 / max by nearest rank (a row`,
    `  whose warm-up took over ${slowRunMs / 1000} s is measured ${slowRuns} times, marked ⁽⁵⁾).`,
    '- **Plans**: once per row, every query the page (without snippets) and the count ran, captured with a drizzle',
    '  logger and replayed in order under `EXPLAIN (ANALYZE, BUFFERS)` with the same parameters, in one transaction',
    '  (a `SET` the repository makes replayed too) on an owner connection (appendix: `est.` = the',
    '  planner’s row estimate, costs removed, long conditions cut). Run after the timings: the buffers are warm.',
    `- **Code measured** (as loaded when the run started): ${fingerprint.join('; ')}.`,
    `- **Data**: ${fmt(userCount)} users, then ${fmt(dealCount)} deals in one \`INSERT … SELECT generate_series\` (setseed 0.42),`,
    '  triggers off, the deals’ indexes dropped during the insert and built again from their own definitions, then',
    `  \`VACUUM ANALYZE\` as the owner. Titles: 3–6 vocabulary words + a made-up name (${syllables.length}³ names);`,
    `  descriptions: 10–20 + 8–20 vocabulary words with the markers between. Vocabulary: ${vocabulary.length} business words,`,
    `  rank k drawn ∝ 1/k^${zipfExponent}. Stages by age (newest mostly open, oldest mostly completed); budgets`,
    '  log-uniform $100–$10M. Created one every 30 s (ids in creation order).',
    `- **Targets**: page ≤ ${targets.p50} ms p50 and ≤ ${targets.p95} ms p95.`,
    '- **Rows**: ' +
      (total === 420
        ? 'the full product (BENCH_FULL=1).'
        : 'without keywords every status × budget × sort; with each kind of keywords × every sort: no filter, the least selective filters (open + wide budget) and the most selective (completed + narrow budget); and for newest and relevance each filter alone at its extreme (choosing+in_progress; narrow; wide). The full product (420 rows) with BENCH_FULL=1.'),
    '',
    '## Machine',
    '',
    `${cpus.length} cores (${cpus[0]?.model.trim()}), shared with other work: absolute times move between runs;`,
    `${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}. 1-minute load average as rows ended: ${
      loads.length
        ? `${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}, median ${stats(loads).p50.toFixed(1)}`
        : '—'
    } (2 means both cores busy). PostgreSQL settings: ${data.settings.map((s) => `${s.name} ${s.setting}`).join(', ')}; the server’s role sets ${Object.entries(
      sessionSettings,
    )
      .map(([name, value]) => `${name} ${value}`)
      .join(', ')} for its sessions (and the plans).`,
    '',
    '## Data as seeded',
    '',
    '| What | Deals | Share |',
    '|---|---|---|',
    ...Object.entries(data.counts)
      .filter(([name]) => name !== 'deals')
      .map(([name, n]) => {
        const kind = keywordKinds.find((k) => k.kind === name);
        const label = kind ? `matches \`${kind.q}\` (by words)` : name;
        return `| ${label} | ${fmt(n)} | ${((100 * n) / data.counts.deals!).toFixed(3)}% |`;
      }),
    '',
    `Sizes: ${data.sizes.map((s) => `${s.name} ${s.size}`).join(', ')}.`,
    '',
    `Seeding: ${seedLog.join('; ')}.`,
    '',
    'Sample deals:',
    '',
    ...data.sample.map((d) => `- **${d.title}** — ${d.description}`),
    '',
    '## Keywords',
    '',
    ...keywordKinds.map((k) => `- **${k.kind}**: ${k.q ? `\`${k.q}\`` : '—'}, ${k.what}`),
    '',
    '## Results',
    '',
    '| # | Keywords | Status | Budget | Sort | Ids | Page p50 | p95 | max | Count p50 | p95 | Count | Target |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((row, i) => {
      const five = (s: Stats) => (s.runs < runs ? '⁽⁵⁾' : '');
      return `| ${i + 1} | ${row.keywords.kind} | ${statusName(row.status)} | ${row.budget.name.split(' ')[0]} | ${row.sort} | ${row.ids} | ${ms(row.page.p50)}${five(row.page)} | ${ms(row.page.p95)} | ${ms(row.page.max)} | ${ms(row.counting.p50)}${five(row.counting)} | ${ms(row.counting.p95)} | ${row.count >= countCap ? `${fmt(countCap - 1)}+` : fmt(row.count)} | ${misses(row) ? '✗' : '✓'} |`;
    }),
    '',
    'Times in ms. Budget: any / narrow ($5,000–$5,058, ~0.1%) / wide ($200–$6.3M, ~90%). Count: the value',
    `\`count\` answered (${fmt(countCap - 1)}+ = the cap was reached).`,
    '',
    '## Rows that miss the target',
    '',
  );
  const missed = rows.map((row, i) => ({ row, n: i + 1 })).filter(({ row }) => misses(row));
  if (missed.length === 0) out.push('None.');
  else {
    out.push(`${missed.length} of ${rows.length} rows, slowest page first:`, '');
    for (const { row, n } of missed.sort((a, b) => b.row.page.p50 - a.row.page.p50))
      out.push(
        `- #${n} ${row.keywords.kind}${row.keywords.q ? ` (\`${row.keywords.q}\`)` : ''}, status ${statusName(row.status)}, budget ${row.budget.name.split(' ')[0]}, ${row.sort}: page p50 ${ms(row.page.p50)} / p95 ${ms(row.page.p95)} ms, count p50 ${ms(row.counting.p50)} ms`,
      );
  }
  const slowCounts = rows
    .map((row, i) => ({ row, n: i + 1 }))
    .filter(({ row }) => row.counting.p50 > targets.p50);
  out.push(
    '',
    `Counts over ${targets.p50} ms p50 (the count has no target of its own; it runs beside the page): ${
      slowCounts.length === 0
        ? 'none'
        : slowCounts.map(({ n, row }) => `#${n} (${ms(row.counting.p50)})`).join(', ')
    }.`,
    '',
    '## Appendix: plans',
    '',
  );
  for (const [i, row] of rows.entries()) {
    out.push(
      `### #${i + 1} ${row.keywords.kind}${row.keywords.q ? ` \`${row.keywords.q}\`` : ''} · ${statusName(row.status)} · ${row.budget.name.split(' ')[0]} · ${row.sort}`,
      '',
      '```',
    );
    for (const plan of row.plans) out.push(`[${plan.label}]`, ...plan.lines);
    out.push('```', '');
  }
  return out.join('\n');
}

async function main() {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    console.log(
      'deal-discovery.bench.ts needs DATABASE_URL (PostgreSQL, a role that may create databases): skipped',
    );
    return;
  }
  const startedAt = new Date();
  const stamp = startedAt.toISOString().slice(0, 16).replace(':', '');
  const size = dealCount >= 1_000_000 ? `${dealCount / 1_000_000}m` : `${Math.round(dealCount / 1000)}k`;
  const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
  const file = path.join(resultsDir, `${stamp}-discovery-${size}.md`);
  const { database, ownerUrl, name, drop, seeded } = await open(adminUrl);
  const onSignal = (signal: NodeJS.Signals) => {
    console.log(`${signal}: dropping ${name}`);
    void drop().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const ownerPool = new pg.Pool({ connectionString: ownerUrl, max: 2 });
  const explainer = new pg.Client({ connectionString: ownerUrl });
  try {
    const seedLog: string[] = [];
    if (seeded) {
      seedLog.push(`reused the database seeded by an earlier run (${name}), analyzed again`);
      await withAdmin(ownerUrl, (client) => client.query('vacuum analyze deals'));
    } else {
      console.log(`database ${name}: seeding ${fmt(dealCount)} deals`);
      await seed(ownerUrl, (line) => {
        seedLog.push(line);
        console.log(line);
      });
    }
    const data = await describeData(ownerUrl);
    console.log(data.counts);
    const queries: Query[] = [];
    const capturing = {
      queries,
      db: drizzle(ownerPool, {
        schema,
        logger: { logQuery: (sql, params) => queries.push({ sql, params }) },
      }) as unknown as Db,
    };
    await explainer.connect();
    // The plans the server's role gets: its planner settings (roles.ts), which the owner does not have.
    for (const [setting, value] of Object.entries(sessionSettings))
      await explainer.query(`set ${setting} = ${pg.escapeLiteral(value)}`);
    const todo = combinations();
    console.log(`${todo.length} rows; results in ${file}`);
    const rows: Row[] = [];
    mkdirSync(resultsDir, { recursive: true });
    for (const combination of todo) {
      const page = await measure(() => firstPage(database.db, combination));
      const counting = await measure(() => countOf(database.db, combination));
      const plans = await plansOf(explainer, capturing, combination);
      const row: Row = {
        ...combination,
        ids: page.result,
        count: counting.result,
        page: page.stats,
        counting: counting.stats,
        plans,
      };
      rows.push(row);
      loads.push(os.loadavg()[0]!);
      console.log(
        `${String(rows.length).padStart(3)} ${row.keywords.kind.padEnd(10)} ${statusName(row.status).padEnd(21)} ${row.budget.name.split(' ')[0]!.padEnd(6)} ${row.sort.padEnd(11)} ids ${String(row.ids).padStart(2)}  page ${ms(row.page.p50).padStart(6)} / ${ms(row.page.p95).padStart(6)} / ${ms(row.page.max).padStart(6)}  count ${ms(row.counting.p50).padStart(6)} / ${ms(row.counting.p95).padStart(6)} = ${row.count}${misses(row) ? '  ✗' : ''}  load ${loads.at(-1)!.toFixed(1)}`,
      );
      writeFileSync(file, report({ rows, total: todo.length, data, seedLog, startedAt }));
    }
    console.log(`wrote ${file}`);
  } finally {
    await explainer.end().catch(() => {});
    await ownerPool.end().catch(() => {});
    await drop();
  }
}

await main();
