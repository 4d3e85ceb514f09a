import { type AnyColumn, and, asc, desc, type SQL, sql } from 'drizzle-orm';
import type { DealSort, DealStage } from '../../../contract/discovery';
import type { DbOrTx, Tx } from '../../db/client';
import { deals } from '../../db/schema';

/**
 * The deals list's filters, sorts and ranked search (docs/decisions/0029-deal-search-and-filters.md).
 *
 * Keywords are read as a web search (websearch_to_tsquery: words, "phrases", -excluded) against the
 * stemmed title and description (`search_vector`). When that finds fewer deals than asked for, deals
 * whose words are close to the keywords (pg_trgm word similarity over `search_text`: one typo, or a
 * word the stemmer does not join) follow, so a misspelt search still finds something.
 */
export type DealSearch = {
  q?: string;
  stages?: DealStage[];
  minBudgetCents?: number;
  maxBudgetCents?: number;
};

/** Descriptions up to this long come whole in a snippet. */
const wholeDescriptionChars = 240;

/** Relevance ranks the newest this many matches: a common word must not rank half the table. */
const rankedCandidates = 200;
/** How many deals, in the order asked for, a keyword search reads before it asks the word index (`matchingIds`). */
const probeRows = 10_000;

const searchConfig = sql.raw(`'english'::regconfig`);
const textQuery = (q: string) => sql`websearch_to_tsquery(${searchConfig}, ${q})`;

/** The keywords' words for the similarity fallback: plain and phrase words, not excluded ones. */
export function fallbackWords(q: string): { words: string[]; excluded: string[] } {
  const words: string[] = [];
  const excluded: string[] = [];
  for (const token of q.toLowerCase().match(/-?"[^"]*"?|\S+/g) ?? []) {
    const negated = token.startsWith('-');
    const parts = token
      .replace(/^-/, '')
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word.length >= 3 && word !== 'or');
    (negated ? excluded : words).push(...parts);
  }
  return { words: [...new Set(words)].slice(0, 8), excluded: [...new Set(excluded)].slice(0, 8) };
}

function filterConditions(search: DealSearch): SQL[] {
  const conditions: SQL[] = [];
  if (search.stages?.length)
    conditions.push(sql`${deals.stage} = any(${`{${search.stages.join(',')}}`}::text[])`);
  if (search.minBudgetCents !== undefined)
    conditions.push(sql`${deals.budgetCents} >= ${search.minBudgetCents}`);
  if (search.maxBudgetCents !== undefined)
    conditions.push(sql`${deals.budgetCents} <= ${search.maxBudgetCents}`);
  return conditions;
}

/** Deals the keywords match by their stemmed words. */
const matchesText = (q: string) => sql`${deals.searchVector} @@ ${textQuery(q)}`;

/**
 * Deals the keywords do not match by their words but come close to (each word similar to one of the
 * deal's words), none of the excluded words in them.
 */
function nearlyMatches(q: string): SQL | undefined {
  const { words, excluded } = fallbackWords(q);
  if (words.length === 0) return undefined;
  const conditions = words.map((word) => sql`${word} <% ${deals.searchText}`);
  conditions.push(sql`not (${matchesText(q)})`);
  for (const word of excluded)
    conditions.push(sql`not (${deals.searchVector} @@ plainto_tsquery(${searchConfig}, ${word}))`);
  return sql.join(conditions, sql` and `);
}

type Order = Exclude<DealSort, 'relevance'>;

/** The order over these columns (the deals table's or a subquery's). */
function orderOf(
  sort: Order,
  columns: { id: SQL.Aliased | AnyColumn; budgetCents: SQL.Aliased | AnyColumn },
): SQL[] {
  const id = sql`${columns.id}`;
  const budget = sql`${columns.budgetCents}`;
  switch (sort) {
    case 'newest':
      return [desc(id)];
    case 'budget_desc':
      return [desc(budget), desc(id)];
    case 'budget_asc':
      return [asc(budget), asc(id)];
  }
}
const orderBy = (sort: Order) => orderOf(sort, { id: deals.id, budgetCents: deals.budgetCents });
/** The same orders over the columns of the word index's matches (`matchingIds`). */
const orderSql: Record<Order, string> = {
  newest: 'id desc',
  budget_desc: 'budget_cents desc, id desc',
  budget_asc: 'budget_cents asc, id asc',
};

/** Ids of the deals meeting every condition, in this order. */
async function idsWhere(
  db: DbOrTx,
  conditions: SQL[],
  order: SQL[],
  page: { limit: number; offset?: number },
): Promise<number[]> {
  const rows = await db
    .select({ id: deals.id })
    .from(deals)
    .where(and(...conditions))
    .orderBy(...order)
    .limit(page.limit)
    .offset(page.offset ?? 0);
  return rows.map((row) => row.id);
}

export const dealSearchRepository = {
  /**
   * Ids of one page of deals the search finds, in the order asked for: `before` pages the newest-first
   * order by id, `offset` any order.
   */
  async pageIds(
    db: DbOrTx,
    search: DealSearch,
    page: { sort: DealSort; limit: number; before?: number; offset?: number },
  ): Promise<number[]> {
    const { sort, limit, before } = page;
    const offset = page.offset ?? 0;
    const filters = filterConditions(search);
    if (before !== undefined) filters.push(sql`${deals.id} < ${before}`);
    if (!search.q) {
      return idsWhere(db, filters, orderBy(sort === 'relevance' ? 'newest' : sort), { limit, offset });
    }
    const wanted = offset + limit;
    const matched = await this.matchingIds(db, search.q, filters, sort, wanted);
    if (matched.length >= wanted) return matched.slice(offset);
    // Fewer word matches than the page reaches: near matches follow them.
    const near = nearlyMatches(search.q);
    if (!near || before !== undefined) return matched.slice(offset);
    const nearIds = await idsWhere(db, [...filters, near], [desc(similarity(search.q)), desc(deals.id)], {
      limit: wanted - matched.length,
    });
    return [...matched, ...nearIds].slice(offset);
  },

  /**
   * The first `wanted` deals the keywords match by their words, in the order asked for; for relevance,
   * the newest matches ranked (at most `rankedCandidates`: those among the first `probeRows` deals
   * when they fill the page, else the newest overall).
   *
   * PostgreSQL cannot tell how many deals a tsquery matches well enough to choose between walking the
   * deals in the order asked for (right for a common word) and collecting every match from the word
   * index to sort them (right for a rare one): it walked the whole table for a rare word. So the walk is
   * tried first and bounded: the first `probeRows` deals the filters find in that order, the keywords
   * checked on each. When they hold enough matches, those are the answer (any later match comes after
   * them in that order); otherwise the keywords are rare among them, and every match is collected from
   * the word index (a materialized CTE, so the planner cannot turn it back into a walk) and sorted.
   */
  async matchingIds(db: DbOrTx, q: string, filters: SQL[], sort: DealSort, wanted: number) {
    const order = sort === 'relevance' ? 'newest' : sort;
    const needed = sort === 'relevance' ? Math.max(rankedCandidates, wanted) : wanted;
    const firstRows = db
      .select({ id: deals.id, budgetCents: deals.budgetCents, searchVector: deals.searchVector })
      .from(deals)
      .where(and(...filters))
      .orderBy(...orderBy(order))
      .limit(probeRows)
      .as('first_rows');
    const probed = await db
      .select({ id: firstRows.id })
      .from(firstRows)
      .where(sql`${firstRows.searchVector} @@ ${textQuery(q)}`)
      .orderBy(...orderOf(order, { id: firstRows.id, budgetCents: firstRows.budgetCents }))
      .limit(needed);
    let ids = probed.map((row) => row.id);
    // Relevance ranks what the walk found when that fills the page: the newest matches, at most
    // rankedCandidates of them, among the first probeRows deals.
    if (ids.length < (sort === 'relevance' ? wanted : needed)) {
      const conditions = sql.join([...filters, matchesText(q)], sql` and `);
      const result = await db.execute(sql`
        with matches as materialized (
          select ${deals.id} as id, ${deals.budgetCents} as budget_cents from ${deals} where ${conditions}
        )
        select id from matches order by ${sql.raw(orderSql[order])} limit ${needed}`);
      ids = (result as unknown as { rows: Array<{ id: number }> }).rows.map((row) => Number(row.id));
    }
    if (sort !== 'relevance' || ids.length === 0) return ids;
    const ranked = await db
      .select({ id: deals.id })
      .from(deals)
      .where(sql`${deals.id} = any(${`{${ids.join(',')}}`}::int[])`)
      .orderBy(desc(sql`ts_rank(${deals.searchVector}, ${textQuery(q)}, 1)`), desc(deals.id))
      .limit(wanted);
    return ranked.map((row) => row.id);
  },

  /** How many deals the search finds, exact up to `cap` (counting stops there); `tx` a transaction of its own. */
  async count(db: Tx, search: DealSearch, cap: number): Promise<number> {
    const filters = filterConditions(search);
    const countOf = async (conditions: SQL[], upTo: number) => {
      const found = db
        .select({ id: deals.id })
        .from(deals)
        .where(and(...conditions))
        .limit(upTo)
        .as('found');
      const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(found);
      return row!.count;
    };
    if (!search.q) return countOf(filters, cap);
    // As in matchingIds, the planner may walk the whole table for a rare word: the count (run in a
    // transaction of its own, DealsService.count) reads the word index's matches as a bitmap instead,
    // which stops at `cap` rows for a common word and is small for a rare one.
    await db.execute(sql`set local enable_seqscan = off`);
    await db.execute(sql`set local enable_indexscan = off`);
    const matched = await countOf([...filters, matchesText(search.q)], cap);
    const near = nearlyMatches(search.q);
    if (matched >= cap || !near) return matched;
    return matched + (await countOf([...filters, near], cap - matched));
  },

  /**
   * A short excerpt of each deal's description with the keywords' matches between U+0002 and U+0003
   * (characters a description cannot bring in: they are taken out first); the caller splits it.
   */
  async snippets(db: DbOrTx, dealIds: readonly number[], q: string): Promise<Map<number, string>> {
    if (dealIds.length === 0) return new Map();
    // A short description comes whole with its matches marked; a long one as two fragments around them.
    const whole = 'HighlightAll=true, StartSel=\u0002, StopSel=\u0003';
    const fragments =
      'StartSel=\u0002, StopSel=\u0003, MaxWords=28, MinWords=12, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "';
    const text = sql`translate(${deals.description}, E'\\x02\\x03', '')`;
    const rows = await db
      .select({
        id: deals.id,
        snippet: sql<string>`ts_headline(${searchConfig}, ${text}, ${textQuery(q)},
          case when length(${deals.description}) <= ${wholeDescriptionChars} then ${whole} else ${fragments} end)`,
      })
      .from(deals)
      .where(sql`${deals.id} = any(${`{${dealIds.join(',')}}`}::int[])`);
    return new Map(rows.map((row) => [row.id, row.snippet]));
  },
};

/** How close a deal's words come to the keywords' words (for ordering near matches). */
function similarity(q: string): SQL {
  const { words } = fallbackWords(q);
  return sql.join(
    words.map((word) => sql`word_similarity(${word}, ${deals.searchText})`),
    sql` + `,
  );
}
