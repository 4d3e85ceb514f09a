import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { progressItems, users } from '../../db/schema';

const itemView = {
  item: progressItems,
  completerUsername: users.username,
  completerFullName: users.fullName,
};

export const progressRepository = {
  /** Appends an item at the end of the deal's list; the caller holds the deal lock, so positions never collide. */
  async append(db: DbOrTx, values: Omit<typeof progressItems.$inferInsert, 'position'>) {
    const [{ next }] = (await db
      .select({ next: sql<number>`coalesce(max(${progressItems.position}), 0) + 1` })
      .from(progressItems)
      .where(eq(progressItems.dealId, values.dealId))) as [{ next: number }];
    const [row] = await db
      .insert(progressItems)
      .values({ ...values, position: Number(next) })
      .returning();
    return row!;
  },

  async findById(db: DbOrTx, id: number) {
    const [row] = await db.select().from(progressItems).where(eq(progressItems.id, id));
    return row;
  },

  async lock(db: DbOrTx, id: number) {
    const [row] = await db.select().from(progressItems).where(eq(progressItems.id, id)).for('update');
    return row;
  },

  async update(db: DbOrTx, id: number, values: Partial<typeof progressItems.$inferInsert>) {
    await db
      .update(progressItems)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(progressItems.id, id));
  },

  async view(db: DbOrTx, id: number) {
    const [row] = await db
      .select(itemView)
      .from(progressItems)
      .leftJoin(users, eq(users.id, progressItems.completedById))
      .where(eq(progressItems.id, id));
    return row;
  },

  listOfDeal(db: DbOrTx, dealId: number) {
    return db
      .select(itemView)
      .from(progressItems)
      .leftJoin(users, eq(users.id, progressItems.completedById))
      .where(eq(progressItems.dealId, dealId))
      .orderBy(asc(progressItems.position));
  },
};

export type ProgressItemView = NonNullable<Awaited<ReturnType<typeof progressRepository.view>>>;
