import { and, desc, eq, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { messages, users } from '../../db/schema';

const messageView = { message: messages, username: users.username, fullName: users.fullName };

export const messagesRepository = {
  /** Inserts the message unless the same sender already sent this clientId on this deal; returns the new row or undefined. */
  async insert(db: DbOrTx, values: typeof messages.$inferInsert) {
    const [row] = await db.insert(messages).values(values).onConflictDoNothing().returning();
    return row;
  },

  async findByClientId(db: DbOrTx, dealId: number, senderId: number, clientId: string) {
    const [row] = await db
      .select(messageView)
      .from(messages)
      .innerJoin(users, eq(users.id, messages.senderId))
      .where(
        and(eq(messages.dealId, dealId), eq(messages.senderId, senderId), eq(messages.clientId, clientId)),
      );
    return row;
  },

  async view(db: DbOrTx, id: number) {
    const [row] = await db
      .select(messageView)
      .from(messages)
      .innerJoin(users, eq(users.id, messages.senderId))
      .where(eq(messages.id, id));
    return row;
  },

  /** The newest `limit` messages (older than `beforeId`), newest first. */
  latest(db: DbOrTx, dealId: number, options: { limit: number; beforeId?: number }) {
    return db
      .select(messageView)
      .from(messages)
      .innerJoin(users, eq(users.id, messages.senderId))
      .where(
        and(eq(messages.dealId, dealId), options.beforeId ? lt(messages.id, options.beforeId) : undefined),
      )
      .orderBy(desc(messages.id))
      .limit(options.limit);
  },
};

export type MessageView = NonNullable<Awaited<ReturnType<typeof messagesRepository.view>>>;
