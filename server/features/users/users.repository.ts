import { and, desc, eq, ilike, isNotNull, lt, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { prepared } from '../../db/prepared';
import { users } from '../../db/schema';
import { containsPattern } from '../../db/search';

const userById = prepared((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare('user_by_id'),
);

export const usersRepository = {
  async findById(db: DbOrTx, id: number) {
    const [row] = await userById(db).execute({ id });
    return row;
  },

  async lockById(db: DbOrTx, id: number) {
    const [row] = await db.select().from(users).where(eq(users.id, id)).for('update');
    return row;
  },

  findByUsername(db: DbOrTx, username: string) {
    return db.query.users.findFirst({ where: sql`lower(${users.username}) = lower(${username})` });
  },

  findByEmail(db: DbOrTx, email: string) {
    return db.query.users.findFirst({ where: sql`lower(${users.email}) = lower(${email})` });
  },

  findByVerificationKeyHash(db: DbOrTx, hash: string) {
    return db.query.users.findFirst({ where: eq(users.verificationKeyHash, hash) });
  },

  async insert(db: DbOrTx, values: typeof users.$inferInsert) {
    const [row] = await db.insert(users).values(values).returning();
    return row!;
  },

  async deleteById(db: DbOrTx, id: number) {
    await db.delete(users).where(eq(users.id, id));
  },

  async update(db: DbOrTx, id: number, values: Partial<typeof users.$inferInsert>) {
    const [row] = await db
      .update(users)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning();
    return row;
  },

  /**
   * Verified users, newest first, optionally matching a keyword in username or
   * full name (case-insensitive), leaving out the given ids.
   */
  list(
    db: DbOrTx,
    options: { keyword?: string; excludeIds?: number[]; limit: number; beforeId?: number | undefined },
  ) {
    const conditions: SQL[] = [isNotNull(users.verifiedAt)];
    if (options.keyword) {
      const pattern = containsPattern(options.keyword);
      conditions.push(or(ilike(users.username, pattern), ilike(users.fullName, pattern))!);
    }
    if (options.excludeIds?.length) conditions.push(notInArray(users.id, options.excludeIds));
    if (options.beforeId) conditions.push(lt(users.id, options.beforeId));
    return db
      .select()
      .from(users)
      .where(and(...conditions))
      .orderBy(desc(users.id))
      .limit(options.limit);
  },
};
