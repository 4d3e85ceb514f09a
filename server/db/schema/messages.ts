import { index, integer, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
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

/** How far a participant has read a deal's chat (monotonic). */
export const messageReads = pgTable(
  'message_reads',
  {
    dealId: integer('deal_id')
      .notNull()
      .references(() => deals.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lastReadId: integer('last_read_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.dealId, t.userId] }), index('message_reads_user_id').on(t.userId)],
);

export type MessageRow = typeof messages.$inferSelect;
