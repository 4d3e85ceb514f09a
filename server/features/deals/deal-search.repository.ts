import { and, asc, desc, type SQL, sql } from 'drizzle-orm';
import type { DealSort, DealStage } from '../../../contract/discovery';
import type { DbOrTx } from '../../db/client';
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
const rankedCandidates = 1000;

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

function orderBy(sort: Exclude<DealSort, 'relevance'>): SQL[] {
  switch (sort) {
    case 'newest':
      return [desc(deals.id)];
    case 'budget_desc':
      return [desc(deals.budgetCents), desc(deals.id)];
    case 'budget_asc':
      return [asc(deals.budgetCents), asc(deals.id)];
  }
}

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

  /** The first `wanted` deals the keywords match by their words, in the order asked for. */
  async matchingIds(db: DbOrTx, q: string, filters: SQL[], sort: DealSort, wanted: number) {
    const conditions = [...filters, matchesText(q)];
    if (sort !== 'relevance') return idsWhere(db, conditions, orderBy(sort), { limit: wanted });
    // Ranked among the newest matches (rankedCandidates): see the decision record for why.
    const candidates = db
      .select({
        id: deals.id,
        rank: sql<number>`ts_rank(${deals.searchVector}, ${textQuery(q)}, 1)`.as('rank'),
      })
      .from(deals)
      .where(and(...conditions))
      .orderBy(desc(deals.id))
      .limit(rankedCandidates)
      .as('candidates');
    const rows = await db
      .select({ id: candidates.id })
      .from(candidates)
      .orderBy(desc(candidates.rank), desc(candidates.id))
      .limit(wanted);
    return rows.map((row) => row.id);
  },

  /** How many deals the search finds, exact up to `cap` (counting stops there). */
  async count(db: DbOrTx, search: DealSearch, cap: number): Promise<number> {
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
