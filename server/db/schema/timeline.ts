import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { deals } from './deals';
import { users } from './users';

/**
 * The deal's record: one row per state change, written in the transaction
 * of the change, never changed afterwards (a trigger refuses it; deleting the
 * deal removes them with it). Its ids come from the messages' sequence, so
 * that the timeline (these and the chat) is one list ordered by id.
 */
export const dealEvents = pgTable(
  'deal_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().default(sql`nextval('messages_id_seq')`),
    dealId: integer('deal_id')
      .notNull()
      .references(() => deals.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    message: text('message').notNull(),
    /** What the entry is about, for a client that wants more than the sentence (amounts, ids). */
    details: jsonb('details'),
    createdAt: createdAt(),
  },
  (t) => [index('deal_events_deal_id_id').on(t.dealId, t.id)],
);

export type DealEventRow = typeof dealEvents.$inferSelect;
