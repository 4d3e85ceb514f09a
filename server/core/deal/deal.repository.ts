import { and, desc, eq, getTableColumns, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { prepared } from '../../db/prepared';
import { bids, type DealRow, deals, disputes, escrows, users } from '../../db/schema';

const creator = alias(users, 'creator');
const counterpart = alias(users, 'counterpart');
const dealmaker = alias(users, 'dealmaker');

/** The deal's own columns; the search columns (title and description again) and the derived stage stay in the database. */
const {
  searchText: _searchText,
  searchVector: _searchVector,
  stage: _stage,
  ...dealColumns
} = getTableColumns(deals);

/** The usernames of a deal's people (joined as creator, counterpart and dealmaker). */
const usernames = {
  creatorUsername: creator.username,
  counterpartUsername: counterpart.username,
  dealmakerUsername: dealmaker.username,
};

/**
 * Everything a deal's wire shape needs, in one query: the three usernames, the escrow's halves and
 * state (null before the deal has a dealmaker) and the viewer's bid; with the deal's row, all that the
 * viewer's `can` asks of the rules.
 */
function selectDealViews(db: DbOrTx, viewerId: number | SQL.Aliased | ReturnType<typeof sql.placeholder>) {
  return db
    .select({
      deal: dealColumns,
      ...usernames,
      escrowCreatorPaid: escrows.creatorPaid,
      escrowCounterpartPaid: escrows.counterpartPaid,
      escrowStatus: escrows.status,
      escrowHeldCents: escrows.heldCents,
      escrowReleasedCents: escrows.releasedCents,
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

/** What may change on a deal's row (its id, creator and creation time never do). */
export type DealChanges = Omit<Partial<typeof deals.$inferInsert>, 'id' | 'creatorId' | 'createdAt'>;

/** The deal's row and its views: the kernel's queries (DealAccess is their only caller). */
export const dealRepository = {
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

  async update(db: DbOrTx, id: number, values: DealChanges): Promise<DealRow> {
    const [row] = await db
      .update(deals)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(deals.id, id))
      .returning(dealColumns);
    return row!;
  },

  async view(db: DbOrTx, id: number, viewerId: number) {
    const [row] = await dealViewById(db).execute({ id, viewerId });
    return row;
  },

  /** The views of these deals as the viewer sees them, newest first. */
  viewsByIds(db: DbOrTx, ids: number[], viewerId: number) {
    return ids.length === 0 ? Promise.resolve([]) : dealViewsByIds(db).execute({ ids, viewerId });
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

  /** Whether the deal has an open dispute: a deal cannot be marked finished while it does. */
  async hasOpenDispute(db: DbOrTx, dealId: number): Promise<boolean> {
    const [row] = await db
      .select({ id: disputes.id })
      .from(disputes)
      .where(and(eq(disputes.dealId, dealId), eq(disputes.status, 'open')))
      .limit(1);
    return !!row;
  },
};
