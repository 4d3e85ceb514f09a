import { and, desc, eq, ilike, isNotNull, lt, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { prepared } from '../../db/prepared';
import { users } from '../../db/schema';
import { containsPattern } from '../../db/search';

/**
 * Whether the listed user shares a deal with the viewer: both are among the creator, the joined
 * counterpart and the dealmaker of one deal (completed deals too). The viewer's partners are one
 * uncorrelated subquery (the viewer's deals, found through the three participant indexes), which
 * PostgreSQL runs once per statement and hashes: a whole page of users costs one query, not one per user.
 * Written in SQL with its own alias, so that no column in it can be read as the outer users row's.
 */
const sharesDealWith = (viewerId: number) => sql<boolean>`coalesce(users.id in (
  select partner.id
    from deals as viewer_deal,
         unnest(array[viewer_deal.creator_id, viewer_deal.counterpart_id, viewer_deal.dealmaker_id])
           as partner(id)
   where ${viewerId}::integer in (viewer_deal.creator_id, viewer_deal.counterpart_id, viewer_deal.dealmaker_id)
     and partner.id is not null), false)`;

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
   * full name (case-insensitive), leaving out the given ids; each with whether it
   * shares a deal with the viewer. The keyword never looks at the email, date of
   * birth or address: those may be hidden from the viewer, and a match would reveal them.
   */
  list(
    db: DbOrTx,
    options: {
      viewerId: number;
      keyword?: string | undefined;
      excludeIds?: number[] | undefined;
      limit: number;
      beforeId?: number | undefined;
    },
  ) {
    const conditions: SQL[] = [isNotNull(users.verifiedAt)];
    if (options.keyword) {
      const pattern = containsPattern(options.keyword);
      conditions.push(or(ilike(users.username, pattern), ilike(users.fullName, pattern))!);
    }
    if (options.excludeIds?.length) conditions.push(notInArray(users.id, options.excludeIds));
    if (options.beforeId) conditions.push(lt(users.id, options.beforeId));
    return db
      .select({ user: users, sharesDeal: sharesDealWith(options.viewerId) })
      .from(users)
      .where(and(...conditions))
      .orderBy(desc(users.id))
      .limit(options.limit);
  },

  /** A verified or unverified user by username (any letter case), with whether it shares a deal with the viewer. */
  async findByUsernameFor(db: DbOrTx, username: string, viewerId: number) {
    const [found] = await db
      .select({ user: users, sharesDeal: sharesDealWith(viewerId) })
      .from(users)
      .where(sql`lower(${users.username}) = lower(${username})`);
    return found;
  },

  /** Changes who sees the email, date of birth and address; the user's Last Updated stays (see the service). */
  async updateVisibility(
    db: DbOrTx,
    id: number,
    values: Partial<
      Pick<typeof users.$inferInsert, 'emailVisibility' | 'dateOfBirthVisibility' | 'addressVisibility'>
    >,
  ) {
    const [row] = await db.update(users).set(values).where(eq(users.id, id)).returning();
    return row;
  },
};
