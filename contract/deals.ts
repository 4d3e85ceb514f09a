import { z } from 'zod';
import { bodyDealId, invalidCharacter, requiredText, withoutNul } from './fields';
import { limits } from './limits';
import { moneySchema } from './money';

const text = (name: string, bounds: { max: number }) =>
  requiredText(name, bounds.max).refine(withoutNul, invalidCharacter(name));

export const createDealSchema = z.object({
  title: text('Title', limits.deal.title),
  description: text('Description', limits.deal.description),
  budget: moneySchema(limits.deal.budgetCents.min, limits.deal.budgetCents.max),
  timeline: text('Timeline', limits.deal.timeline),
});
export type CreateDealRequest = z.input<typeof createDealSchema>;
/** A validated deal: amounts in cents. */
export type NewDeal = z.output<typeof createDealSchema>;

/** A deal as spec §3 describes it, plus what the viewer needs to draw its card. */
export const dealSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  budget: z.number(),
  timeline: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  dealer_creator: z.string(),
  dealer_joined: z.string().nullable(),
  dealmaker: z.string().nullable(),
  is_completed: z.boolean(),
  completion_date: z.string().nullable(),
  completed_by_creator: z.boolean(),
  completed_by_counterpart: z.boolean(),
  selected_bid_by_creator: z.number().int().nullable(),
  selected_bid_by_dealer: z.number().int().nullable(),
  /** Any escrow half paid: the deal can no longer be deleted or left. */
  escrow_paid: z.boolean(),
  /** The viewer's own bid on this deal, if any. */
  my_bid: z.object({ id: z.number().int(), price: z.number() }).nullable(),
});
export type Deal = z.infer<typeof dealSchema>;
export const dealListSchema = z.array(dealSchema);

/** The part a user plays in a deal (DESIGN.md §5: roles are per deal). */
export const dealRoleSchema = z.enum(['creator', 'counterpart', 'dealmaker']);
export type DealRole = z.infer<typeof dealRoleSchema>;

/** A deal on a user's Activity tab, with the part that user plays in it. */
export const activityEntrySchema = dealSchema.extend({ role: dealRoleSchema });
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

/** GET /api/deals/all/{keyword}: matched case-insensitively in titles and descriptions. */
export const dealSearchParamsSchema = z.object({
  keyword: z.string().trim().max(limits.searchQuery.max).refine(withoutNul, invalidCharacter('Keyword')),
});

export const bidSchema = z.object({
  id: z.number().int(),
  dealId: z.number().int(),
  dealmaker: z.string(),
  price: z.number(),
  timestamp: z.string(),
});
export type Bid = z.infer<typeof bidSchema>;

export const createBidSchema = z.object({
  dealId: bodyDealId,
  price: moneySchema(limits.bidPriceCents.min, limits.bidPriceCents.max),
});
export const updateBidSchema = z.object({
  price: moneySchema(limits.bidPriceCents.min, limits.bidPriceCents.max),
});
export type NewBid = z.output<typeof createBidSchema>;
export type BidChange = z.output<typeof updateBidSchema>;

export const dealmakerRequestSchema = z.object({
  id: z.number().int(),
  dealId: z.number().int(),
  message: z.string(),
  senderUsername: z.string(),
  receiverUsername: z.string(),
  rejected: z.boolean(),
  createdAt: z.string(),
});
export type DealmakerRequest = z.infer<typeof dealmakerRequestSchema>;

/** An incoming request, with the deal it is about (spec §3 Dealmaker request). */
export const incomingRequestSchema = dealmakerRequestSchema.extend({
  deal: z.object({
    title: z.string(),
    description: z.string(),
    budget: z.number(),
    createdAt: z.string(),
    creator: z.object({ username: z.string() }),
    joined_user: z.object({ username: z.string() }).nullable(),
  }),
});
export type IncomingRequest = z.infer<typeof incomingRequestSchema>;

export const defaultRequestMessage = 'I would like to request you to be a dealmaker for my deal.';

export const sendRequestSchema = z.object({
  dealId: bodyDealId,
  receiverUsername: z
    .string({ error: 'receiverUsername is required' })
    .trim()
    .min(1, 'receiverUsername is required')
    .max(100)
    .refine(withoutNul, invalidCharacter('receiverUsername')),
  message: z
    .string()
    .trim()
    .max(limits.requestMessage.max, `Message must be at most ${limits.requestMessage.max} characters`)
    .refine(withoutNul, invalidCharacter('Message'))
    .optional()
    .transform((value) => value || defaultRequestMessage),
});

export type NewDealmakerRequest = z.output<typeof sendRequestSchema>;

/** PUT /bid-management/select-bid/{dealId}/{bidId}: what happened, and the deal as it is now. */
export const selectBidResponseSchema = z.object({ message: z.string(), deal: dealSchema });
export type SelectBidResponse = z.infer<typeof selectBidResponseSchema>;

/** POST /request-dealmaker/accept/{id}: the receiver is now the deal's dealmaker. */
export const acceptRequestResponseSchema = z.object({ message: z.string(), deal: dealSchema });
/** POST /request-dealmaker/reject/{id}. */
export const rejectRequestResponseSchema = z.object({
  message: z.string(),
  request: dealmakerRequestSchema,
});
