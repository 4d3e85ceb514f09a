import { integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, optionalTimestamp, updatedAt } from './columns';
import { deals } from './deals';
import { users } from './users';

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

export type ProgressItemRow = typeof progressItems.$inferSelect;
