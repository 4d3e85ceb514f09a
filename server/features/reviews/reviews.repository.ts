import { and, desc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { deals, reviews, users } from '../../db/schema';

const reviewer = alias(users, 'reviewer');
const reviewed = alias(users, 'reviewed');

function selectReviewViews(db: DbOrTx) {
  return db
    .select({
      review: reviews,
      dealTitle: deals.title,
      reviewedUsername: reviewed.username,
      reviewerUsername: reviewer.username,
      reviewerFullName: reviewer.fullName,
    })
    .from(reviews)
    .innerJoin(deals, eq(deals.id, reviews.dealId))
    .innerJoin(reviewer, eq(reviewer.id, reviews.reviewerId))
    .innerJoin(reviewed, eq(reviewed.id, reviews.reviewedId));
}

export type ReviewView = Awaited<ReturnType<ReturnType<typeof selectReviewViews>['execute']>>[number];

export const reviewsRepository = {
  /** Inserts unless this reviewer already reviewed this user on this deal; returns the row or undefined. */
  async insert(db: DbOrTx, values: typeof reviews.$inferInsert) {
    const [row] = await db.insert(reviews).values(values).onConflictDoNothing().returning();
    return row;
  },

  async view(db: DbOrTx, id: number) {
    const [row] = await selectReviewViews(db).where(eq(reviews.id, id));
    return row;
  },

  /** Reviews a user received, newest first. */
  listForUser(db: DbOrTx, userId: number) {
    return selectReviewViews(db).where(eq(reviews.reviewedId, userId)).orderBy(desc(reviews.id));
  },

  async reviewedIdsBy(db: DbOrTx, dealId: number, reviewerId: number) {
    const rows = await db
      .select({ reviewedId: reviews.reviewedId })
      .from(reviews)
      .where(and(eq(reviews.dealId, dealId), eq(reviews.reviewerId, reviewerId)));
    return new Set(rows.map((r) => r.reviewedId));
  },
};
