import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { cents, createdAt, optionalTimestamp, updatedAt } from './columns';
import { users } from './users';

export const deals = pgTable(
  'deals',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    budgetCents: cents('budget_cents').notNull(),
    timeline: text('timeline').notNull(),
    creatorId: integer('creator_id')
      .notNull()
      .references(() => users.id),
    counterpartId: integer('counterpart_id').references(() => users.id),
    dealmakerId: integer('dealmaker_id').references(() => users.id),
    selectedBidByCreator: integer('selected_bid_by_creator'),
    selectedBidByCounterpart: integer('selected_bid_by_counterpart'),
    completedByCreator: boolean('completed_by_creator').notNull().default(false),
    completedByCounterpart: boolean('completed_by_counterpart').notNull().default(false),
    isCompleted: boolean('is_completed').notNull().default(false),
    completionDate: optionalTimestamp('completion_date'),
    /** 'open': anyone may join as the counterpart (spec §5); 'approval': the creator accepts each request to join. */
    joinPolicy: text('join_policy').notNull().default('open'),
    /**
     * What a keyword search looks in: title and description lowercased, joined by a unit separator
     * (U+001F) so that a match never spans both (docs/decisions/0013-keyword-search.md).
     */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(sql`lower(title) || E'\\x1f' || lower(description)`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('deals_created_at_id').on(t.createdAt.desc(), t.id.desc()),
    index('deals_creator_id').on(t.creatorId),
    index('deals_counterpart_id').on(t.counterpartId),
    index('deals_dealmaker_id').on(t.dealmakerId),
    // Serves substring search (LIKE '%keyword%') for keywords too rare for a walk down the newest deals.
    // fastupdate off: new deals go straight into the index instead of a pending list every search rescans.
    index('deals_search_trgm').using('gin', sql`${t.searchText} gin_trgm_ops`).with({ fastupdate: false }),
    check('deals_join_policy', sql`${t.joinPolicy} in ('open', 'approval')`),
  ],
);

/**
 * A request to join a deal posted with joinPolicy 'approval' as its counterpart: pending until its
 * creator accepts or declines it (or it is declined by itself when someone else is accepted).
 */
export const dealJoinRequests = pgTable(
  'deal_join_requests',
  {
    id: serial('id').primaryKey(),
    dealId: integer('deal_id')
      .notNull()
      .references(() => deals.id, { onDelete: 'cascade' }),
    requesterId: integer('requester_id')
      .notNull()
      .references(() => users.id),
    message: text('message').notNull(),
    /** pending → accepted or declined. */
    status: text('status').notNull().default('pending'),
    decidedAt: optionalTimestamp('decided_at'),
    createdAt: createdAt(),
  },
  (t) => [
    // One pending request per user and deal (a declined one may be followed by another).
    uniqueIndex('deal_join_requests_pending_key')
      .on(t.dealId, t.requesterId)
      .where(sql`${t.status} = 'pending'`),
    index('deal_join_requests_requester_id').on(t.requesterId),
    check('deal_join_requests_status', sql`${t.status} in ('pending', 'accepted', 'declined')`),
  ],
);

export const bids = pgTable(
  'bids',
  {
    id: serial('id').primaryKey(),
    dealId: integer('deal_id')
      .notNull()
      .references(() => deals.id, { onDelete: 'cascade' }),
    bidderId: integer('bidder_id')
      .notNull()
      .references(() => users.id),
    priceCents: cents('price_cents').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('bids_deal_bidder_key').on(t.dealId, t.bidderId),
    index('bids_bidder_id').on(t.bidderId),
  ],
);

export const dealmakerRequests = pgTable(
  'dealmaker_requests',
  {
    id: serial('id').primaryKey(),
    dealId: integer('deal_id')
      .notNull()
      .references(() => deals.id, { onDelete: 'cascade' }),
    senderId: integer('sender_id')
      .notNull()
      .references(() => users.id),
    receiverId: integer('receiver_id')
      .notNull()
      .references(() => users.id),
    message: text('message').notNull(),
    rejected: boolean('rejected').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('dealmaker_requests_deal_receiver_key').on(t.dealId, t.receiverId),
    index('dealmaker_requests_receiver_id').on(t.receiverId),
  ],
);

/** A deal as the code reads it: the search column stays in the database. */
export type DealRow = Omit<typeof deals.$inferSelect, 'searchText'>;
export type BidRow = typeof bids.$inferSelect;
export type DealmakerRequestRow = typeof dealmakerRequests.$inferSelect;
export type DealJoinRequestRow = typeof dealJoinRequests.$inferSelect;
