import { z } from 'zod';
import { bodyDealId as dealId, requiredText } from './fields';
import { limits } from './limits';

/** The dealmaker's milestones on a deal (spec §3 Progress item, §4 Progress item). */
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
