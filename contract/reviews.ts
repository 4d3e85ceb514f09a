import { z } from 'zod';
import { dealRoleSchema } from './deals';
import { bodyDealId as dealId } from './fields';
import { limits } from './limits';

/** Reviews after completion (spec §3 Review, User reviews response, Reviewable response). */
export const reviewSchema = z.object({
  id: z.number().int(),
  dealId: z.number().int(),
  dealTitle: z.string(),
  reviewedUsername: z.string(),
  rating: z.number().int().min(1).max(5),
  comment: z.string(),
  createdAt: z.string(),
  reviewer: z.object({ full_name: z.string(), username: z.string() }),
});
export type Review = z.infer<typeof reviewSchema>;

export const createReviewSchema = z.object({
  dealId,
  reviewedUsername: z
    .string({ error: 'Please select a user to review' })
    .trim()
    .min(1, 'Please select a user to review')
    .max(100),
  rating: z
    .number({ error: 'Rating must be a whole number from 1 to 5' })
    .int('Rating must be a whole number from 1 to 5')
    .min(1, 'Rating must be a whole number from 1 to 5')
    .max(5, 'Rating must be a whole number from 1 to 5'),
  comment: z
    .string()
    .trim()
    .max(limits.review.comment.max, `Comment must be at most ${limits.review.comment.max} characters`)
    .optional()
    .default(''),
});
export type NewReview = z.output<typeof createReviewSchema>;

export const userReviewsSchema = z.object({
  reviews: z.array(reviewSchema),
  /** Mean rating, unrounded; 0 when there are no reviews. */
  averageRating: z.number(),
  totalReviews: z.number().int(),
});

export const reviewableSchema = z.object({
  reviewableUsers: z.array(z.object({ username: z.string(), role: dealRoleSchema })),
  dealTitle: z.string(),
});
