import { and, desc, eq, ilike, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { prepared } from '../../db/prepared';
import { bids, deals } from '../../db/schema';
import { containsPattern } from '../../db/search';

/**
 * Ids of a page of the deals list, newest first: all deals, or those whose
 * title or description contains a keyword (the lowercase search column; the
 * planner walks the newest deals for a common keyword and takes the trigram
 * index for a rare one: docs/decisions/0013-keyword-search.md).
 */
const pageIds = {
  all: prepared((db) =>
    db
      .select({ id: deals.id })
      .from(deals)
      .orderBy(desc(deals.id))
      .limit(sql.placeholder('limit'))
      .prepare('deal_ids'),
  ),
  allBefore: prepared((db) =>
    db
      .select({ id: deals.id })
      .from(deals)
      .where(lt(deals.id, sql.placeholder('before')))
      .orderBy(desc(deals.id))
      .limit(sql.placeholder('limit'))
      .prepare('deal_ids_before'),
  ),
  matching: prepared((db) =>
    db
      .select({ id: deals.id })
      .from(deals)
      .where(sql`${deals.searchText} like lower(${sql.placeholder('pattern')})`)
      .orderBy(desc(deals.id))
      .limit(sql.placeholder('limit'))
      .prepare('deal_ids_matching'),
  ),
  matchingBefore: prepared((db) =>
    db
      .select({ id: deals.id })
      .from(deals)
      .where(
        and(
          sql`${deals.searchText} like lower(${sql.placeholder('pattern')})`,
          lt(deals.id, sql.placeholder('before')),
        ),
      )
      .orderBy(desc(deals.id))
      .limit(sql.placeholder('limit'))
      .prepare('deal_ids_matching_before'),
  ),
};

/** The viewer's bids among these deals (their own bid shows on each deal card). */
const viewerBidsOn = prepared((db) =>
  db
    .select({ dealId: bids.dealId, id: bids.id, priceCents: bids.priceCents })
    .from(bids)
    .where(
      and(
        eq(bids.bidderId, sql.placeholder('viewerId')),
        sql`${bids.dealId} = any(${sql.placeholder('ids')}::int[])`,
      ),
    )
    .prepare('viewer_bids_on_deals'),
);

/** The separator between title and description in the search column (see the schema). */
const searchSeparator = '\u001f';

export const dealsRepository = {
  async insert(db: DbOrTx, values: typeof deals.$inferInsert): Promise<{ id: number }> {
    const [row] = await db.insert(deals).values(values).returning({ id: deals.id });
    return row!;
  },

  async delete(db: DbOrTx, id: number) {
    await db.delete(deals).where(eq(deals.id, id));
  },

  /**
   * The viewer's bids on any of these deals. The ids go as one array literal: the driver would escape
   * each of a page's 50 ids on every request.
   */
  viewerBidsOn(db: DbOrTx, viewerId: number, ids: readonly number[]) {
    return ids.length === 0
      ? Promise.resolve([])
      : viewerBidsOn(db).execute({ viewerId, ids: `{${ids.join(',')}}` });
  },

  /** Ids of one page of the deals list, newest first, optionally matching a keyword in title or description. */
  async pageIds(
    db: DbOrTx,
    options: { keyword?: string; beforeId?: number; limit: number },
  ): Promise<number[]> {
    const { keyword, beforeId: before, limit } = options;
    let rows: Array<{ id: number }>;
    if (!keyword) {
      rows = before
        ? await pageIds.allBefore(db).execute({ before, limit })
        : await pageIds.all(db).execute({ limit });
    } else if (keyword.includes(searchSeparator)) {
      // The one keyword the search column could match across title and description: ask the columns.
      const pattern = containsPattern(keyword);
      rows = await db
        .select({ id: deals.id })
        .from(deals)
        .where(
          and(
            or(ilike(deals.title, pattern), ilike(deals.description, pattern)),
            before ? lt(deals.id, before) : undefined,
          ),
        )
        .orderBy(desc(deals.id))
        .limit(limit);
    } else {
      const pattern = containsPattern(keyword);
      rows = before
        ? await pageIds.matchingBefore(db).execute({ pattern, before, limit })
        : await pageIds.matching(db).execute({ pattern, limit });
    }
    return rows.map((row) => row.id);
  },
};
