import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { cents, createdAt, optionalTimestamp, tsvector, updatedAt } from './columns';
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
    /**
     * Where the deal stands, as the list's status filter names it (contract/vocabulary.ts dealStages):
     * 'open' (no counterpart yet), 'choosing' (both dealers, no dealmaker), 'in_progress', 'completed'.
     */
    stage: text('stage')
      .notNull()
      .generatedAlwaysAs(
        sql`case when is_completed then 'completed' when dealmaker_id is not null then 'in_progress' when counterpart_id is not null then 'choosing' else 'open' end`,
      ),
    /**
     * What ranked search looks in: the title (weight A) and the description (weight B), stemmed as
     * English (docs/decisions/0029-deal-search-and-filters.md).
     */
    searchVector: tsvector('search_vector')
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector('english'::regconfig, title), 'A') || setweight(to_tsvector('english'::regconfig, description), 'B')`,
      ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('deals_created_at_id').on(t.createdAt.desc(), t.id.desc()),
    // The list's filters and sorts (docs/decisions/0029-deal-search-and-filters.md).
    index('deals_stage_id').on(t.stage, t.id),
    index('deals_budget_id').on(t.budgetCents, t.id),
    index('deals_stage_budget_id').on(t.stage, t.budgetCents, t.id),
    // The words and the stage in one index (btree_gin): "a rare word among deals in progress" is one index
    // scan, not a bitmap of every deal in progress to intersect. search_vector's statistics target is 10,000
    // (migration 0012), so the planner knows each word's frequency.
    index('deals_search_vector_stage').using('gin', t.searchVector, t.stage).with({ fastupdate: false }),
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
    /** What the bidder offers to do, for the dealers to read (at most 2,000 characters). */
    proposal: text('proposal'),
    /** How many days the bidder expects the work to take. */
    deliveryDays: integer('delivery_days'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('bids_deal_bidder_key').on(t.dealId, t.bidderId),
    index('bids_bidder_id').on(t.bidderId),
  ],
);

/**
 * Every word the deals' titles and descriptions use (lowercased, 3–40 letters or digits), kept by the
 * database itself (trigger deals_keep_search_words, migration 0011): a keyword search that finds little
 * looks here for the words closest to the keywords (a typo, a word the stemmer does not join) and
 * searches again with them (docs/decisions/0029-deal-search-and-filters.md).
 */
export const searchWords = pgTable('search_words', { word: text('word').primaryKey() }, (t) => [
  index('search_words_trgm').using('gin', sql`${t.word} gin_trgm_ops`),
]);

/**
 * A bid that is gone, kept for its bidder's "My bids": written where bids are removed with their deal
 * still deciding (bids.repository `deleteOthers`: another dealmaker was chosen, 'lost'; or this bidder
 * was, by a request, 'won') and where a deal is deleted ('deal deleted'). A bid its bidder withdrew is
 * not kept. The deal's title, budget and stage are copied: the deal may be gone.
 */
export const bidHistory = pgTable(
  'bid_history',
  {
    /** The bid's own id (bids and history share it: one sequence, one "before" cursor). */
    bidId: integer('bid_id').primaryKey(),
    dealId: integer('deal_id').notNull(),
    bidderId: integer('bidder_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    priceCents: cents('price_cents').notNull(),
    proposal: text('proposal'),
    deliveryDays: integer('delivery_days'),
    dealTitle: text('deal_title').notNull(),
    dealBudgetCents: cents('deal_budget_cents').notNull(),
    /** The deal's stage when the bid went (contract/vocabulary.ts dealStages). */
    dealStage: text('deal_stage').notNull(),
    outcome: text('outcome').notNull(),
    bidCreatedAt: timestamp('bid_created_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    index('bid_history_bidder_bid').on(t.bidderId, t.bidId.desc()),
    check('bid_history_outcome', sql`${t.outcome} in ('won', 'lost', 'deal deleted')`),
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

/**
 * A saved search of the deals list (the list's own query), and whether new deals it finds are told to
 * its owner (`alert`). At most 20 a user (contract/limits.ts).
 */
export const savedSearches = pgTable(
  'saved_searches',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The query as contract/deals.ts savedSearchQuerySchema checked it: { q?, status?, minBudget?, maxBudget? } in cents. */
    query: jsonb('query')
      .$type<{ q?: string; status?: string[]; minBudgetCents?: number; maxBudgetCents?: number }>()
      .notNull(),
    alert: boolean('alert').notNull(),
    /** When its owner last looked at its results: matches after this are "new". */
    seenAt: timestamp('seen_at', { withTimezone: true }).defaultNow().notNull(),
    /** When its owner was last mailed its new matches: at most one mail an hour. */
    lastMailedAt: optionalTimestamp('last_mailed_at'),
    /** When the mail of its unmailed matches is due (its job is scheduled); null when none is. */
    mailDueAt: optionalTimestamp('mail_due_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('saved_searches_user_id').on(t.userId),
    index('saved_searches_alert').on(t.id).where(sql`${t.alert}`),
  ],
);

/** A deal a saved search found once it was posted (or changed to fit): its owner is told once. */
export const savedSearchMatches = pgTable(
  'saved_search_matches',
  {
    savedSearchId: integer('saved_search_id')
      .notNull()
      .references(() => savedSearches.id, { onDelete: 'cascade' }),
    dealId: integer('deal_id')
      .notNull()
      .references(() => deals.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    /** Null until a mail has listed it, or set at once when its owner was connected (told live only). */
    mailedAt: optionalTimestamp('mailed_at'),
  },
  (t) => [primaryKey({ columns: [t.savedSearchId, t.dealId] })],
);

/** A deal as the code reads it: the search columns and the derived stage stay in the database. */
export type DealRow = Omit<typeof deals.$inferSelect, 'searchText' | 'searchVector' | 'stage'>;
export type BidRow = typeof bids.$inferSelect;
export type DealmakerRequestRow = typeof dealmakerRequests.$inferSelect;
export type DealJoinRequestRow = typeof dealJoinRequests.$inferSelect;
