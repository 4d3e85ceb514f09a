import { and, desc, eq, getTableColumns, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { prepared } from '../../db/prepared';
import { bids, type DealRow, deals, escrows, users } from '../../db/schema';
import { containsPattern } from '../../db/search';

const creator = alias(users, 'creator');
const counterpart = alias(users, 'counterpart');
const dealmaker = alias(users, 'dealmaker');

/** The deal's own columns; the search text (title and description again) stays in the database. */
const { searchText: _searchText, ...dealColumns } = getTableColumns(deals);

/** The usernames of a deal's people (joined as creator, counterpart and dealmaker). */
const usernames = {
  creatorUsername: creator.username,
  counterpartUsername: counterpart.username,
  dealmakerUsername: dealmaker.username,
};

/** Everything a deal's wire shape needs, in one query: the three usernames, escrow state and the viewer's bid. */
function selectDealViews(db: DbOrTx, viewerId: number | SQL.Aliased | ReturnType<typeof sql.placeholder>) {
  return db
    .select({
      deal: dealColumns,
      ...usernames,
      escrowPaid: sql<boolean>`coalesce(${escrows.creatorPaid} or ${escrows.counterpartPaid}, false)`,
      myBidId: bids.id,
      myBidPriceCents: bids.priceCents,
    })
    .from(deals)
    .innerJoin(creator, eq(creator.id, deals.creatorId))
    .leftJoin(counterpart, eq(counterpart.id, deals.counterpartId))
    .leftJoin(dealmaker, eq(dealmaker.id, deals.dealmakerId))
    .leftJoin(escrows, eq(escrows.dealId, deals.id))
    .leftJoin(bids, and(eq(bids.dealId, deals.id), eq(bids.bidderId, viewerId as number)));
}

export type DealView = Awaited<ReturnType<ReturnType<typeof selectDealViews>['execute']>>[number];

const byId = eq(deals.id, sql.placeholder('id'));
const dealById = prepared((db) => db.select(dealColumns).from(deals).where(byId).prepare('deal_by_id'));
const lockDealById = prepared((db) =>
  db.select(dealColumns).from(deals).where(byId).for('update').prepare('deal_lock'),
);
const dealViewById = prepared((db) =>
  selectDealViews(db, sql.placeholder('viewerId')).where(byId).prepare('deal_view'),
);
/**
 * The deal locked, then its escrow locked (the lock order of every money call), with the usernames of
 * its people: one statement where it took three. The escrow's lock waits for the deal's, since its
 * CTE reads the locked deal's id; each CTE answers the latest version of the row it locked.
 */
const lockDealWithEscrow = prepared((db) => {
  const lockedDeal = db.$with('locked_deal').as(db.select(dealColumns).from(deals).where(byId).for('update'));
  const lockedEscrow = db
    .$with('locked_escrow')
    .as(db.select().from(escrows).where(sql`${escrows.dealId} = (select id from locked_deal)`).for('update'));
  const columnsOf = <C extends object>(source: Record<string, unknown>, columns: C) =>
    Object.fromEntries(Object.keys(columns).map((key) => [key, source[key]])) as C;
  return db
    .with(lockedDeal, lockedEscrow)
    .select({
      deal: columnsOf(lockedDeal as unknown as Record<string, unknown>, dealColumns),
      escrow: columnsOf(lockedEscrow as unknown as Record<string, unknown>, getTableColumns(escrows)),
      ...usernames,
    })
    .from(lockedDeal)
    .innerJoin(creator, eq(creator.id, lockedDeal.creatorId))
    .leftJoin(counterpart, eq(counterpart.id, lockedDeal.counterpartId))
    .leftJoin(dealmaker, eq(dealmaker.id, lockedDeal.dealmakerId))
    .leftJoin(lockedEscrow, sql`true`)
    .prepare('deal_lock_with_escrow');
});
/** Views of the given deals (a page of a list), newest first. */
const dealViewsByIds = prepared((db) =>
  selectDealViews(db, sql.placeholder('viewerId'))
    .where(sql`${deals.id} = any(${sql.placeholder('ids')}::int[])`)
    .orderBy(desc(deals.id))
    .prepare('deal_views_by_ids'),
);

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
  async insert(db: DbOrTx, values: typeof deals.$inferInsert): Promise<DealRow> {
    const [row] = await db.insert(deals).values(values).returning(dealColumns);
    return row!;
  },

  /** Locks the deal row: every change to a deal's people, selection or state goes through this lock. */
  async lock(db: DbOrTx, id: number): Promise<DealRow | undefined> {
    const [row] = await lockDealById(db).execute({ id });
    return row;
  },

  /** The deal and its escrow locked, in this order, with the usernames of its people (`lockDealWithEscrow`). */
  async lockWithEscrow(db: DbOrTx, id: number) {
    const [row] = await lockDealWithEscrow(db).execute({ id });
    return row;
  },

  async findById(db: DbOrTx, id: number): Promise<DealRow | undefined> {
    const [row] = await dealById(db).execute({ id });
    return row;
  },

  async update(db: DbOrTx, id: number, values: Partial<typeof deals.$inferInsert>): Promise<DealRow> {
    const [row] = await db
      .update(deals)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(deals.id, id))
      .returning(dealColumns);
    return row!;
  },

  async delete(db: DbOrTx, id: number) {
    await db.delete(deals).where(eq(deals.id, id));
  },

  async view(db: DbOrTx, id: number, viewerId: number) {
    const [row] = await dealViewById(db).execute({ id, viewerId });
    return row;
  },

  /** The views of these deals as the viewer sees them, newest first. */
  viewsByIds(db: DbOrTx, ids: number[], viewerId: number) {
    return ids.length === 0 ? Promise.resolve([]) : dealViewsByIds(db).execute({ ids, viewerId });
  },

  /**
   * The viewer's bids on any of these deals. The ids go as one array literal: the driver would escape
   * each of a page's 50 ids on every request.
   */
  viewerBidsOn(db: DbOrTx, viewerId: number, ids: number[]) {
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

  /** Deals the user is a dealer of (creator or counterpart), newest first. */
  listOfDealer(db: DbOrTx, userId: number) {
    return selectDealViews(db, userId)
      .where(or(eq(deals.creatorId, userId), eq(deals.counterpartId, userId)))
      .orderBy(desc(deals.id));
  },

  listOfDealmaker(db: DbOrTx, userId: number) {
    return selectDealViews(db, userId).where(eq(deals.dealmakerId, userId)).orderBy(desc(deals.id));
  },

  /** Deals where the user is creator, counterpart or dealmaker (a user's activity), newest first. */
  listOfParticipant(db: DbOrTx, userId: number, viewerId: number) {
    return selectDealViews(db, viewerId)
      .where(or(eq(deals.creatorId, userId), eq(deals.counterpartId, userId), eq(deals.dealmakerId, userId)))
      .orderBy(desc(deals.id));
  },
};
