import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { deals, savedSearches, savedSearchMatches, users } from '../../db/schema';

export type SavedSearchRow = typeof savedSearches.$inferSelect;
export type StoredQuery = SavedSearchRow['query'];

/** Matches since the owner last opened the search. */
const newMatches = sql<number>`(
  select count(*)::int from ${savedSearchMatches} m
  where m.saved_search_id = ${savedSearches.id} and m.created_at > ${savedSearches.seenAt})`;

export const savedSearchesRepository = {
  /** Serializes changes to one user's saved searches until the transaction ends (the limit of 20). */
  async lockSearchesOf(db: DbOrTx, userId: number) {
    await db.execute(sql`select pg_advisory_xact_lock(hashtext('saved_searches'), ${userId})`);
  },

  async countOf(db: DbOrTx, userId: number) {
    const [row] = await db
      .select({ count: count() })
      .from(savedSearches)
      .where(eq(savedSearches.userId, userId));
    return row!.count;
  },

  async insert(db: DbOrTx, values: typeof savedSearches.$inferInsert) {
    const [row] = await db.insert(savedSearches).values(values).returning({ id: savedSearches.id });
    return row!.id;
  },

  /** The user's saved searches, newest first, each with its number of new matches. */
  list(db: DbOrTx, userId: number) {
    return db
      .select({ search: savedSearches, newMatches })
      .from(savedSearches)
      .where(eq(savedSearches.userId, userId))
      .orderBy(desc(savedSearches.id));
  },

  /** One of the user's saved searches (undefined when it is not theirs or does not exist). */
  async findOwn(db: DbOrTx, id: number, userId: number) {
    const [row] = await db
      .select({ search: savedSearches, newMatches })
      .from(savedSearches)
      .where(and(eq(savedSearches.id, id), eq(savedSearches.userId, userId)));
    return row;
  },

  /** Changes one of the user's saved searches; false when it is not theirs or does not exist. */
  async updateOwn(
    db: DbOrTx,
    id: number,
    userId: number,
    values: Partial<Pick<SavedSearchRow, 'alert' | 'seenAt'>>,
  ) {
    const changed = await db
      .update(savedSearches)
      .set(values)
      .where(and(eq(savedSearches.id, id), eq(savedSearches.userId, userId)))
      .returning({ id: savedSearches.id });
    return changed.length > 0;
  },

  /** Deletes one of the user's saved searches; false when it is not theirs or does not exist. */
  async deleteOwn(db: DbOrTx, id: number, userId: number) {
    const deleted = await db
      .delete(savedSearches)
      .where(and(eq(savedSearches.id, id), eq(savedSearches.userId, userId)))
      .returning({ id: savedSearches.id });
    return deleted.length > 0;
  },

  /**
   * Records the deal as a match of every saved search with alerts on that it fits now and had not
   * matched before, but those of the deal's own people; returns the new matches with their owners.
   * The keywords match by their stemmed words (websearch_to_tsquery), as the list's word search does.
   */
  async recordMatches(db: DbOrTx, dealId: number) {
    const result = await db.execute(sql`
      insert into ${savedSearchMatches} (saved_search_id, deal_id)
      select s.id, d.id
        from ${deals} d
        join ${savedSearches} s on s.alert
       where d.id = ${dealId}
         and s.user_id <> d.creator_id
         and s.user_id is distinct from d.counterpart_id
         and s.user_id is distinct from d.dealmaker_id
         and (s.query -> 'status' is null
              or d.stage in (select jsonb_array_elements_text(s.query -> 'status')))
         and (s.query ->> 'minBudgetCents' is null or d.budget_cents >= (s.query ->> 'minBudgetCents')::bigint)
         and (s.query ->> 'maxBudgetCents' is null or d.budget_cents <= (s.query ->> 'maxBudgetCents')::bigint)
         and (s.query ->> 'q' is null
              or d.search_vector @@ websearch_to_tsquery('english'::regconfig, s.query ->> 'q'))
      on conflict do nothing
      returning saved_search_id`);
    const { rows } = result as unknown as { rows: Array<{ saved_search_id: number }> };
    if (rows.length === 0) return [];
    return db
      .select({
        id: savedSearches.id,
        userId: savedSearches.userId,
        name: savedSearches.name,
        dealTitle: deals.title,
      })
      .from(savedSearches)
      .innerJoin(deals, eq(deals.id, dealId))
      .where(
        sql`${savedSearches.id} = any(${`{${rows.map((row) => row.saved_search_id).join(',')}}`}::int[])`,
      );
  },

  /** Marks the matches of these searches with this deal as told live (nothing to mail). */
  async toldLive(db: DbOrTx, savedSearchIds: number[], dealId: number) {
    if (savedSearchIds.length === 0) return;
    await db
      .update(savedSearchMatches)
      .set({ mailedAt: sql`now()` })
      .where(
        and(
          eq(savedSearchMatches.dealId, dealId),
          sql`${savedSearchMatches.savedSearchId} = any(${`{${savedSearchIds.join(',')}}`}::int[])`,
        ),
      );
  },

  /**
   * Sets when the search's mail is due, unless one is already due: within `gatherSeconds`, or an hour
   * after the last mail. Returns that time when this call set it (its caller schedules the mail).
   */
  async claimMailDue(db: DbOrTx, savedSearchId: number, gatherSeconds: number): Promise<Date | undefined> {
    const [row] = await db
      .update(savedSearches)
      .set({
        mailDueAt: sql`greatest(now() + make_interval(secs => ${gatherSeconds}), ${savedSearches.lastMailedAt} + interval '1 hour')`,
      })
      .where(and(eq(savedSearches.id, savedSearchId), isNull(savedSearches.mailDueAt)))
      .returning({ mailDueAt: savedSearches.mailDueAt });
    return row?.mailDueAt ?? undefined;
  },

  /** The search locked, with its owner, for its mail; undefined when it is gone. */
  async lockForMail(db: DbOrTx, savedSearchId: number) {
    const [row] = await db
      .select({ search: savedSearches, email: users.email, fullName: users.fullName })
      .from(savedSearches)
      .innerJoin(users, eq(users.id, savedSearches.userId))
      .where(eq(savedSearches.id, savedSearchId))
      .for('update', { of: savedSearches });
    return row;
  },

  /** The search's matches no mail has listed yet, oldest first, with their deals' titles. */
  unmailed(db: DbOrTx, savedSearchId: number) {
    return db
      .select({ dealId: savedSearchMatches.dealId, title: deals.title, budgetCents: deals.budgetCents })
      .from(savedSearchMatches)
      .innerJoin(deals, eq(deals.id, savedSearchMatches.dealId))
      .where(and(eq(savedSearchMatches.savedSearchId, savedSearchId), isNull(savedSearchMatches.mailedAt)))
      .orderBy(savedSearchMatches.createdAt);
  },

  async mailed(db: DbOrTx, savedSearchId: number) {
    await db
      .update(savedSearchMatches)
      .set({ mailedAt: sql`now()` })
      .where(and(eq(savedSearchMatches.savedSearchId, savedSearchId), isNull(savedSearchMatches.mailedAt)));
  },

  async finishMail(db: DbOrTx, savedSearchId: number, mailedNow: boolean) {
    await db
      .update(savedSearches)
      .set({ mailDueAt: null, ...(mailedNow ? { lastMailedAt: sql`now()` } : {}) })
      .where(eq(savedSearches.id, savedSearchId));
  },
};
