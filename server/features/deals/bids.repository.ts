import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { BidderStats } from '../../../contract/deals';
import type { DbOrTx } from '../../db/client';
import { bidHistory, bids, deals, reviews, users } from '../../db/schema';

const bidView = { bid: bids, bidderUsername: users.username };

/** One of a bidder's bids as GET /api/bids/mine reads it (live, or from the history when gone). */
export type MyBidRow = {
  id: number;
  priceCents: number;
  proposal: string | null;
  deliveryDays: number | null;
  createdAt: Date;
  dealId: number;
  dealTitle: string;
  dealStage: string;
  dealBudgetCents: number;
  selectedByCreator: boolean;
  selectedByCounterpart: boolean;
  dealmakerId: number | null;
  /** The outcome a gone bid was kept with; null for a live one. */
  endedOutcome: string | null;
};

/** Copies the bids of `source` (aliased b, joined to their deal as d) into bid_history with `outcome`. */
const keepInHistory = (source: SQL, outcome: SQL) => sql`
  insert into ${bidHistory} (bid_id, deal_id, bidder_id, price_cents, proposal, delivery_days,
                             deal_title, deal_budget_cents, deal_stage, outcome, bid_created_at)
  select b.id, b.deal_id, b.bidder_id, b.price_cents, b.proposal, b.delivery_days, d.title,
         d.budget_cents, d.stage, ${outcome}, b.created_at
  from ${source} b join ${deals} d on d.id = b.deal_id`;

export const bidsRepository = {
  async insert(db: DbOrTx, values: typeof bids.$inferInsert) {
    const [row] = await db.insert(bids).values(values).returning();
    return row!;
  },

  async findById(db: DbOrTx, id: number) {
    const [row] = await db.select().from(bids).where(eq(bids.id, id));
    return row;
  },

  async lock(db: DbOrTx, id: number) {
    const [row] = await db.select().from(bids).where(eq(bids.id, id)).for('update');
    return row;
  },

  async findByDealAndBidder(db: DbOrTx, dealId: number, bidderId: number) {
    const [row] = await db
      .select()
      .from(bids)
      .where(and(eq(bids.dealId, dealId), eq(bids.bidderId, bidderId)));
    return row;
  },

  async update(db: DbOrTx, id: number, values: Partial<typeof bids.$inferInsert>) {
    const [row] = await db
      .update(bids)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(bids.id, id))
      .returning();
    return row!;
  },

  async delete(db: DbOrTx, id: number) {
    await db.delete(bids).where(eq(bids.id, id));
  },

  /**
   * Removes every bid of the deal except one (the winner), keeping each in its bidder's history (won
   * when its bidder is the deal's dealmaker now, by a request; else lost); returns the removed bidders.
   * The deal's dealmaker is set first (dealmaker-assignment.ts).
   */
  async deleteOthers(db: DbOrTx, dealId: number, keepBidId: number | null) {
    const removed = await db.execute(sql`
      with removed as (
        delete from ${bids}
        where ${bids.dealId} = ${dealId} and ${bids.id} is distinct from ${keepBidId}
        returning *
      ), kept as (
        ${keepInHistory(sql`removed`, sql`case when d.dealmaker_id = b.bidder_id then 'won' else 'lost' end`)}
      )
      select bidder_id from removed`);
    const { rows } = removed as unknown as { rows: Array<{ bidder_id: number }> };
    return rows.map((r) => Number(r.bidder_id));
  },

  /** Keeps every bid of a deal about to be deleted in its bidder's history, as 'deal deleted'. */
  async keepBidsOfDeletedDeal(db: DbOrTx, dealId: number) {
    await db.execute(sql`
      ${keepInHistory(sql`${bids}`, sql`'deal deleted'`)} where b.deal_id = ${dealId}`);
  },

  /** Each bidder's record: average rating received, reviews received, completed deals as dealmaker. */
  async bidderStats(db: DbOrTx, bidderIds: readonly number[]): Promise<Map<number, BidderStats>> {
    const stats = new Map<number, BidderStats>(
      bidderIds.map((id) => [id, { averageRating: null, reviews: 0, completedDeals: 0 }]),
    );
    if (bidderIds.length === 0) return stats;
    const ids = `{${[...new Set(bidderIds)].join(',')}}`;
    const [ratings, completed] = await Promise.all([
      db
        .select({
          userId: reviews.reviewedId,
          average: sql<string>`round(avg(${reviews.rating}), 1)`,
          count: sql<number>`count(*)::int`,
        })
        .from(reviews)
        .where(sql`${reviews.reviewedId} = any(${ids}::int[])`)
        .groupBy(reviews.reviewedId),
      db
        .select({ userId: deals.dealmakerId, count: sql<number>`count(*)::int` })
        .from(deals)
        .where(and(sql`${deals.dealmakerId} = any(${ids}::int[])`, eq(deals.isCompleted, true)))
        .groupBy(deals.dealmakerId),
    ]);
    for (const row of ratings) {
      const entry = stats.get(row.userId)!;
      entry.averageRating = Number(row.average);
      entry.reviews = row.count;
    }
    for (const row of completed) stats.get(row.userId!)!.completedDeals = row.count;
    return stats;
  },

  /** The user's bids, live ones with their deal as it is and gone ones from their history, newest first. */
  async mine(db: DbOrTx, bidderId: number, page: { limit: number; before?: number }): Promise<MyBidRow[]> {
    const before = page.before ?? 2_147_483_647;
    const result = await db.execute(sql`
      select * from (
        (select b.id, b.price_cents, b.proposal, b.delivery_days, b.created_at,
                d.id as deal_id, d.title as deal_title, d.stage as deal_stage, d.budget_cents as deal_budget_cents,
                coalesce(d.selected_bid_by_creator = b.id, false) as selected_by_creator,
                coalesce(d.selected_bid_by_counterpart = b.id, false) as selected_by_counterpart,
                d.dealmaker_id, null::text as ended_outcome
           from ${bids} b join ${deals} d on d.id = b.deal_id
          where b.bidder_id = ${bidderId} and b.id < ${before}
          order by b.id desc limit ${page.limit})
        union all
        (select h.bid_id, h.price_cents, h.proposal, h.delivery_days, h.bid_created_at,
                h.deal_id, h.deal_title, h.deal_stage, h.deal_budget_cents, false, false, null::int, h.outcome
           from ${bidHistory} h
          where h.bidder_id = ${bidderId} and h.bid_id < ${before}
          order by h.bid_id desc limit ${page.limit})
      ) mine order by id desc limit ${page.limit}`);
    const { rows } = result as unknown as { rows: Array<Record<string, unknown>> };
    return rows.map((row) => ({
      id: Number(row.id),
      priceCents: Number(row.price_cents),
      proposal: (row.proposal as string | null) ?? null,
      deliveryDays: row.delivery_days === null ? null : Number(row.delivery_days),
      createdAt: new Date(row.created_at as string),
      dealId: Number(row.deal_id),
      dealTitle: String(row.deal_title),
      dealStage: String(row.deal_stage),
      dealBudgetCents: Number(row.deal_budget_cents),
      selectedByCreator: row.selected_by_creator === true,
      selectedByCounterpart: row.selected_by_counterpart === true,
      dealmakerId: row.dealmaker_id === null ? null : Number(row.dealmaker_id),
      endedOutcome: (row.ended_outcome as string | null) ?? null,
    }));
  },

  async bidderIds(db: DbOrTx, dealId: number) {
    const rows = await db.select({ bidderId: bids.bidderId }).from(bids).where(eq(bids.dealId, dealId));
    return rows.map((r) => r.bidderId);
  },

  /** Bids of a deal, newest first like every list (DESIGN.md §4); only one bidder's when `onlyBidderId` is given. */
  listOfDeal(db: DbOrTx, dealId: number, onlyBidderId?: number) {
    return db
      .select(bidView)
      .from(bids)
      .innerJoin(users, eq(users.id, bids.bidderId))
      .where(
        onlyBidderId === undefined
          ? eq(bids.dealId, dealId)
          : and(eq(bids.dealId, dealId), eq(bids.bidderId, onlyBidderId)),
      )
      .orderBy(desc(bids.id));
  },

  async view(db: DbOrTx, id: number) {
    const [row] = await db
      .select(bidView)
      .from(bids)
      .innerJoin(users, eq(users.id, bids.bidderId))
      .where(eq(bids.id, id));
    return row;
  },
};

export type BidView = NonNullable<Awaited<ReturnType<typeof bidsRepository.view>>>;
