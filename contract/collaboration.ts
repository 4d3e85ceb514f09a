import { z } from 'zod';
import { limits } from './limits';

const requiredText = (name: string, max: number) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .min(1, `${name} is required`)
    .max(max, `${name} must be at most ${max} characters`);
const dealId = z.number({ error: 'dealId is required' }).int().positive().max(2_147_483_647);

// Progress items (spec §3 Progress item, §4 Progress item)
export const progressStatuses = ['pending', 'in_progress', 'completed'] as const;
export type ProgressStatus = (typeof progressStatuses)[number];

export const progressItemSchema = z.object({
  id: z.number().int(),
  dealId: z.number().int(),
  /** 1-based order within the deal ('Step N'). */
  position: z.number().int(),
  title: z.string(),
  description: z.string(),
  status: z.enum(progressStatuses),
  createdAt: z.string(),
  updatedAt: z.string(),
  completedAt: z.string().nullable(),
  completedByUsername: z.string().nullable(),
  completedByUser: z.object({ full_name: z.string() }).nullable(),
});
export type ProgressItem = z.infer<typeof progressItemSchema>;

export const createProgressSchema = z.object({
  dealId,
  title: requiredText('Title', limits.progress.title.max),
  description: z
    .string()
    .trim()
    .max(
      limits.progress.description.max,
      `Description must be at most ${limits.progress.description.max} characters`,
    )
    .optional()
    .default(''),
});
export type NewProgressItem = z.output<typeof createProgressSchema>;

export const progressStatusChangeSchema = z.object({
  status: z.enum(progressStatuses, { error: 'Status must be pending, in_progress or completed' }),
});

/** The moves allowed on the server: pending → in_progress → completed, in_progress → pending. */
export const progressTransitions: Record<ProgressStatus, ProgressStatus[]> = {
  pending: ['in_progress'],
  in_progress: ['completed', 'pending'],
  completed: [],
};

// Disputes (spec §3 Dispute, §4 Dispute)
export const disputeStatuses = ['open', 'resolved', 'closed'] as const;

export const disputeSchema = z.object({
  id: z.number().int(),
  dealId: z.number().int(),
  title: z.string(),
  description: z.string(),
  status: z.enum(disputeStatuses),
  raisedByUsername: z.string(),
  raiser: z.object({ full_name: z.string() }),
  createdAt: z.string(),
  resolution: z.string().nullable(),
  resolvedByUsername: z.string().nullable(),
  resolver: z.object({ full_name: z.string() }).nullable(),
  resolvedAt: z.string().nullable(),
});
export type Dispute = z.infer<typeof disputeSchema>;

export const createDisputeSchema = z.object({
  dealId,
  title: requiredText('Title', limits.dispute.title.max),
  description: requiredText('Description', limits.dispute.description.max),
});
export type NewDispute = z.output<typeof createDisputeSchema>;

export const resolveDisputeSchema = z.object({
  resolution: requiredText('Resolution', limits.dispute.resolution.max),
});

// Reviews (spec §3 Review, User reviews response, Reviewable response)
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

export const dealRoleSchema = z.enum(['creator', 'counterpart', 'dealmaker']);

export const reviewableSchema = z.object({
  reviewableUsers: z.array(z.object({ username: z.string(), role: dealRoleSchema })),
  dealTitle: z.string(),
});
