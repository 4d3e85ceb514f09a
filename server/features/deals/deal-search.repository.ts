import { and, asc, desc, type SQL, sql } from 'drizzle-orm';
import type { DealSort, DealStage } from '../../../contract/vocabulary';
import type { DbOrTx } from '../../db/client';
import { deals } from '../../db/schema';

/**
 * The deals list's filters, sorts and ranked search (docs/decisions/0029-deal-search-and-filters.md).
 *
 * Keywords are read as a web search (websearch_to_tsquery: words, "phrases", -excluded) against the
 * stemmed title and description (`search_vector`). When that finds fewer deals than asked for, deals
 * with the words closest to the keywords follow (a typo, or a word the stemmer does not join): each
 * keyword is replaced by its closest words among those the deals use (`search_words`, pg_trgm
 * similarity) and the search runs again with them.
 */
export type DealSearch = {
  q?: string;
  stages?: DealStage[];
  minBudgetCents?: number;
  maxBudgetCents?: number;
};

/** The keywords as tsqueries: `exact` as typed, `near` with each word replaced by its closest words (if any differ). */
export type KeywordQueries = { exact: SQL; near?: SQL };

/** Descriptions up to this long come whole in a snippet. */
const wholeDescriptionChars = 240;

/** Relevance ranks the newest this many matches: a common word must not rank half the table. */
const rankedCandidates = 100;
/** How many of the deals' words may stand for one keyword. */
const closestWordsPerKeyword = 3;

const searchConfig = sql.raw(`'english'::regconfig`);
const textQuery = (q: string) => sql`websearch_to_tsquery(${searchConfig}, ${q})`;

/**
 * The keywords as the closest-words search reads them: the plain words (each may be replaced by its
 * closest words), the quoted phrases (asked for exactly: kept as they are) and the excluded words and
 * phrases (kept out).
 */
function keywordParts(q: string): { words: string[]; phrases: string[]; excluded: string[] } {
  const words: string[] = [];
  const phrases: string[] = [];
  const excluded: string[] = [];
  for (const token of q.toLowerCase().match(/-?"[^"]*"?|\S+/g) ?? []) {
    const negated = token.startsWith('-');
    const quoted = token.replace(/^-/, '').startsWith('"');
    const parts = token
      .replace(/^-/, '')
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word.length >= 3 && word !== 'or');
    if (parts.length === 0) continue;
    if (negated) excluded.push(parts.join(' '));
    else if (quoted) phrases.push(parts.join(' '));
    else words.push(...parts);
  }
  const first8 = (list: string[]) => [...new Set(list)].slice(0, 8);
  return { words: first8(words), phrases: first8(phrases), excluded: first8(excluded) };
}

function filterConditions(search: DealSearch): SQL[] {
  const conditions: SQL[] = [];
  // One stage as `=`: the planner can then read (stage, id) in order; `= any(…)` walked the primary key.
  if (search.stages?.length === 1) conditions.push(sql`${deals.stage} = ${search.stages[0]}`);
  else if (search.stages?.length)
    conditions.push(sql`${deals.stage} = any(${`{${search.stages.join(',')}}`}::text[])`);
  if (search.minBudgetCents !== undefined)
    conditions.push(sql`${deals.budgetCents} >= ${search.minBudgetCents}`);
  if (search.maxBudgetCents !== undefined)
    conditions.push(sql`${deals.budgetCents} <= ${search.maxBudgetCents}`);
  return conditions;
}

type Order = Exclude<DealSort, 'relevance'>;

function orderBy(sort: Order): SQL[] {
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
   * The keywords as tsqueries. `near` asks the deals' vocabulary (`search_words`, trigram similarity
   * ≥ pg_trgm.similarity_threshold) for each plain keyword's closest words; it is there only when some
   * plain keyword has a closer word than itself, and it keeps the quoted phrases as they are and the
   * excluded words out.
   */
  async keywordQueries(db: DbOrTx, q: string): Promise<KeywordQueries> {
    const exact = textQuery(q);
    const { words, phrases, excluded } = keywordParts(q);
    if (words.length === 0) return { exact };
    const result = await db.execute(sql`
      select asked.word as asked, closest.word
        from unnest(${`{${words.map((word) => `"${word}"`).join(',')}}`}::text[]) as asked(word)
        cross join lateral (
          select word from search_words
           where word % asked.word and word <> asked.word
           order by word <-> asked.word limit ${closestWordsPerKeyword}
        ) closest`);
    const { rows } = result as unknown as { rows: Array<{ asked: string; word: string }> };
    if (rows.length === 0) return { exact };
    // Each plain keyword: itself or one of its closest words; every phrase; none of the excluded.
    const groups = words.map((word) => {
      const options = [word, ...rows.filter((row) => row.asked === word).map((row) => row.word)];
      return sql`(${sql.join(
        options.map((option) => sql`plainto_tsquery(${searchConfig}, ${option})`),
        sql` || `,
      )})`;
    });
    const required = [
      ...groups,
      ...phrases.map((phrase) => sql`phraseto_tsquery(${searchConfig}, ${phrase})`),
    ];
    const without = excluded.map((text) => sql` && !!phraseto_tsquery(${searchConfig}, ${text})`);
    return { exact, near: sql`(${sql.join(required, sql` && `)}${sql.join(without, sql``)})` };
  },

  /**
   * Ids of one page of deals the search finds, in the order asked for: `before` pages the newest-first
   * order by id, `offset` any order. With keywords, the deals their words match come first; when they
   * do not fill the page, those the closest words match follow (`keywords.near`).
   */
  async pageIds(
    db: DbOrTx,
    search: DealSearch,
    keywords: KeywordQueries | undefined,
    page: { sort: DealSort; limit: number; before?: number; offset?: number },
  ): Promise<number[]> {
    const { sort, limit, before } = page;
    const offset = page.offset ?? 0;
    const filters = filterConditions(search);
    if (before !== undefined) filters.push(sql`${deals.id} < ${before}`);
    if (!keywords) {
      return idsWhere(db, filters, orderBy(sort === 'relevance' ? 'newest' : sort), { limit, offset });
    }
    const wanted = offset + limit;
    const matched = await this.matchingIds(db, keywords.exact, filters, sort, wanted);
    if (matched.length >= wanted || !keywords.near || before !== undefined) return matched.slice(offset);
    const nearFilters = [...filters, sql`not (${deals.searchVector} @@ ${keywords.exact})`];
    const near = await this.matchingIds(db, keywords.near, nearFilters, sort, wanted - matched.length);
    return [...matched, ...near].slice(offset);
  },

  /**
   * The first `wanted` deals a tsquery matches, in the order asked for; for relevance, the newest
   * `rankedCandidates` matches ranked.
   *
   * One query, and PostgreSQL chooses between walking the deals in the order asked for (right for a
   * common word) and collecting the matches from the word index to sort them (right for a rare one): it
   * can, because it knows how common each word is (search_vector's statistics target is 10,000, so every
   * word the deals use a few dozen times has its own frequency) and because the word index holds the stage
   * too (deals_search_vector_stage), so "rare word, stage X" is one index scan (decision record 0029).
   */
  async matchingIds(db: DbOrTx, tsquery: SQL, filters: SQL[], sort: DealSort, wanted: number) {
    const order = sort === 'relevance' ? 'newest' : sort;
    const needed = sort === 'relevance' ? Math.max(rankedCandidates, wanted) : wanted;
    const ids = await idsWhere(db, [...filters, sql`${deals.searchVector} @@ ${tsquery}`], orderBy(order), {
      limit: needed,
    });
    if (sort !== 'relevance' || ids.length === 0) return ids;
    const ranked = await db
      .select({ id: deals.id })
      .from(deals)
      .where(sql`${deals.id} = any(${`{${ids.join(',')}}`}::int[])`)
      .orderBy(desc(sql`ts_rank(${deals.searchVector}, ${tsquery}, 1)`), desc(deals.id))
      .limit(wanted);
    return ranked.map((row) => row.id);
  },

  /**
   * How many deals the search finds, exact up to `cap` (counting stops there): with keywords, those their
   * words match, then those the closest words match.
   */
  async count(db: DbOrTx, search: DealSearch, keywords: KeywordQueries | undefined, cap: number) {
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
    if (!keywords) return countOf(filters, cap);
    const matched = await countOf([...filters, sql`${deals.searchVector} @@ ${keywords.exact}`], cap);
    if (matched >= cap || !keywords.near) return matched;
    const near = [
      ...filters,
      sql`${deals.searchVector} @@ ${keywords.near}`,
      sql`not (${deals.searchVector} @@ ${keywords.exact})`,
    ];
    return matched + (await countOf(near, cap - matched));
  },

  /**
   * A short excerpt of each deal's description with the keywords' matches (by their words or their
   * closest words) between U+0002 and U+0003 (characters a description cannot bring in: they are taken
   * out first); the caller splits it.
   */
  async snippets(
    db: DbOrTx,
    dealIds: readonly number[],
    keywords: KeywordQueries,
  ): Promise<Map<number, string>> {
    if (dealIds.length === 0) return new Map();
    const tsquery = keywords.near ? sql`(${keywords.exact} || ${keywords.near})` : keywords.exact;
    // A short description comes whole with its matches marked; a long one as two fragments around them.
    const whole = 'HighlightAll=true, StartSel=\u0002, StopSel=\u0003';
    const fragments =
      'StartSel=\u0002, StopSel=\u0003, MaxWords=28, MinWords=12, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "';
    const text = sql`translate(${deals.description}, E'\\x02\\x03', '')`;
    const rows = await db
      .select({
        id: deals.id,
        snippet: sql<string>`ts_headline(${searchConfig}, ${text}, ${tsquery},
          case when length(${deals.description}) <= ${wholeDescriptionChars} then ${whole} else ${fragments} end)`,
      })
      .from(deals)
      .where(sql`${deals.id} = any(${`{${dealIds.join(',')}}`}::int[])`);
    return new Map(rows.map((row) => [row.id, row.snippet]));
  },
};
