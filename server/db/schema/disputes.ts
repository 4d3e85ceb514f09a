import { index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { createdAt, optionalTimestamp } from './columns';
import { deals } from './deals';
import { users } from './users';

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
    /** When it goes to the operators' queue by itself unless settled (DISPUTE_ESCALATION_HOURS after it was raised). */
    escalatesAt: optionalTimestamp('escalates_at'),
    /** When it went to the operators' queue (a dealer asked, or nothing settled it in time); it stays open. */
    escalatedAt: optionalTimestamp('escalated_at'),
    createdAt: createdAt(),
  },
  (t) => [index('disputes_deal_id').on(t.dealId)],
);

export type DisputeRow = typeof disputes.$inferSelect;
