import { z } from 'zod';
import { dealFields, dealSchema } from './deals';
import { invalidCharacter, withoutNul } from './fields';
import { limits } from './limits';

/**
 * Changes a creator makes to their deal, and requests to join it: their own module, so that pages that
 * only show deals do not download these schemas (zod schemas cannot be tree-shaken out of a module).
 */

/**
 * PATCH /api/deals/{id}: the creator corrects their deal while it has no dealmaker. Any of the fields a
 * deal is created with (checked as at creation), at least one.
 */
export const editDealSchema = z
  .object({
    title: dealFields.title.optional(),
    description: dealFields.description.optional(),
    budget: dealFields.budget.optional(),
    timeline: dealFields.timeline.optional(),
  })
  .refine((edit) => Object.values(edit).some((value) => value !== undefined), {
    message: 'Nothing to change: send a title, description, budget or timeline',
  });
export type EditDealRequest = z.input<typeof editDealSchema>;
export type DealEdit = z.output<typeof editDealSchema>;

export const joinRequestStatuses = ['pending', 'accepted', 'declined'] as const;

/** A request to join a deal posted with joinPolicy 'approval' (GET /api/deals/{id}/join-requests). */
export const joinRequestSchema = z.object({
  id: z.number().int(),
  dealId: z.number().int(),
  requester: z.object({ username: z.string(), full_name: z.string() }),
  message: z.string(),
  status: z.enum(joinRequestStatuses),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type JoinRequest = z.infer<typeof joinRequestSchema>;
export const joinRequestListSchema = z.array(joinRequestSchema);

/** POST /api/deals/{id}/join-requests: an optional word to the creator. */
export const askToJoinSchema = z.object({
  message: z
    .string()
    .trim()
    .max(limits.requestMessage.max, `Message must be at most ${limits.requestMessage.max} characters`)
    .refine(withoutNul, invalidCharacter('Message'))
    .optional()
    .transform((value) => value ?? ''),
});
export type AskToJoinRequest = z.input<typeof askToJoinSchema>;

/** A join request accepted or declined, and the deal as it is now. */
export const joinDecisionResponseSchema = z.object({
  message: z.string(),
  request: joinRequestSchema,
  deal: dealSchema,
});
export type JoinDecisionResponse = z.infer<typeof joinDecisionResponseSchema>;
