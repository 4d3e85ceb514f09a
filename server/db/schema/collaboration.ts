import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, optionalTimestamp, updatedAt } from './columns';
import { deals } from './deals';
import { users } from './users';

export const messages = pgTable(
  'messages',
  {
    id: serial('id').primaryKey(),
    dealId: integer('deal_id')
      .notNull()
      .references(() => deals.id, { onDelete: 'cascade' }),
    senderId: integer('sender_id')
      .notNull()
      .references(() => users.id),
    content: text('content').notNull(),
    /** Client-generated id: a retried send stores one message. */
    clientId: text('client_id'),
    createdAt: createdAt(),
  },
  (t) => [
    // History pages walk a deal's messages by id.
    index('messages_deal_id').on(t.dealId, t.id),
    uniqueIndex('messages_sender_client_key').on(t.dealId, t.senderId, t.clientId),
  ],
);

export const progressItems = pgTable(
  'progress_items',
  {
    id: serial('id').primaryKey(),
    dealId: integer('deal_id')
      .notNull()
      .references(() => deals.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    status: text('status').notNull().default('pending'),
    completedAt: optionalTimestamp('completed_at'),
    completedById: integer('completed_by_id').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('progress_items_deal_position_key').on(t.dealId, t.position)],
);

export const disputes = pgTable(
  'disputes',
  {
    id: serial('id').primaryKey(),
    dealId: integer('deal_id')
      .notNull()
      .references(() => deals.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull(),
    status: text('status').notNull().default('open'),
    raisedById: integer('raised_by_id')
      .notNull()
      .references(() => users.id),
    resolution: text('resolution'),
    resolvedById: integer('resolved_by_id').references(() => users.id),
    resolvedAt: optionalTimestamp('resolved_at'),
    createdAt: createdAt(),
  },
  (t) => [index('disputes_deal_id').on(t.dealId)],
);

export const reviews = pgTable(
  'reviews',
  {
    id: serial('id').primaryKey(),
    dealId: integer('deal_id')
      .notNull()
      .references(() => deals.id, { onDelete: 'cascade' }),
    reviewerId: integer('reviewer_id')
      .notNull()
      .references(() => users.id),
    reviewedId: integer('reviewed_id')
      .notNull()
      .references(() => users.id),
    rating: smallint('rating').notNull(),
    comment: text('comment').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('reviews_deal_pair_key').on(t.dealId, t.reviewerId, t.reviewedId),
    index('reviews_reviewed_id').on(t.reviewedId),
    check('reviews_rating_range', sql`${t.rating} between 1 and 5`),
  ],
);
