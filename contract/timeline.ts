import { z } from 'zod';
import { decimalId } from './fields';
import { limits } from './limits';
import { messageSchema } from './messages';

/** The state changes a deal's timeline records (one system entry each). */
export const dealEventKinds = [
  'created',
  'edited',
  'join-requested',
  'join-declined',
  'joined',
  'left',
  'counterpart-removed',
  'bid-selected',
  'finalized',
  'request-accepted',
  'half-paid',
  'half-refunded',
  'half-expired',
  'locked',
  'milestone-funded',
  'plan-proposed',
  'plan-accepted',
  'plan-withdrawn',
  'plan-agreed',
  'milestone-submitted',
  'milestone-approved',
  'milestone-released',
  'milestone-timer-stopped',
  'marked-finished',
  'completed',
  'paid-out',
  'progress-added',
  'progress-moved',
  'dispute-raised',
  'dispute-resolved',
  'dispute-escalated',
  'settlement-proposed',
  'settlement-accepted',
  'settlement-withdrawn',
  'settled',
  'review-left',
] as const;
export type DealEventKind = (typeof dealEventKinds)[number];

const actorSchema = z.object({ username: z.string(), full_name: z.string() }).nullable();

export const timelineEventSchema = z.object({
  type: z.literal('event'),
  id: z.number().int(),
  kind: z.enum(dealEventKinds),
  actor: actorSchema,
  message: z.string(),
  createdAt: z.string(),
});
export type TimelineEvent = z.infer<typeof timelineEventSchema>;

export const timelineMessageSchema = messageSchema.extend({ type: z.literal('message') });

/** One entry of a deal's timeline: a chat message or a system entry (ids are one sequence: ordered by id). */
export const timelineItemSchema = z.discriminatedUnion('type', [timelineEventSchema, timelineMessageSchema]);
export type TimelineItem = z.infer<typeof timelineItemSchema>;

/**
 * GET /api/deals/{dealId}/timeline: newest first, older pages with `before`; with `after`, the entries
 * after that id oldest first (a client catching up after a reconnection, page after page).
 */
export const timelineSchema = z.object({ items: z.array(timelineItemSchema) });
export const timelineQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(limits.page.maxLimit).default(limits.page.defaultLimit),
    before: decimalId(Number.MAX_SAFE_INTEGER).optional(),
    after: decimalId(Number.MAX_SAFE_INTEGER).optional(),
  })
  .refine((query) => query.before === undefined || query.after === undefined, {
    message: 'Ask for entries before an id or after one, not both',
  });
