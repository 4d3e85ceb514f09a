import { z } from 'zod';
import { bodyDealId, invalidCharacter, moneySchema, requiredText, withoutNul } from './fields';
import { limits } from './limits';

const text = (name: string, bounds: { max: number }) =>
  requiredText(name, bounds.max).refine(withoutNul, invalidCharacter(name));

/**
 * Who may become a deal's counterpart: 'open', anyone, by joining (spec §5, the default); 'approval', the
 * creator accepts each request to join (POST /api/deals/{id}/join-requests).
 */
export const joinPolicies = ['open', 'approval'] as const;
export type JoinPolicy = (typeof joinPolicies)[number];

/** The fields a deal is created with, checked the same way when it is edited (contract/deal-changes.ts). */
export const dealFields = {
  title: text('Title', limits.deal.title),
  description: text('Description', limits.deal.description),
  budget: moneySchema(limits.deal.budgetCents.min, limits.deal.budgetCents.max),
  timeline: text('Timeline', limits.deal.timeline),
};

export const createDealSchema = z.object({
  ...dealFields,
  joinPolicy: z.enum(joinPolicies, { error: "Join policy must be 'open' or 'approval'" }).default('open'),
});
export type CreateDealRequest = z.input<typeof createDealSchema>;
/** A validated deal: amounts in cents. */
export type NewDeal = z.output<typeof createDealSchema>;

/**
 * A deal as spec §3 describes it, plus what the viewer needs to draw its card: the same for everyone
 * but `my_bid` (realtime broadcasts carry it with `my_bid` null, and operators read it so).
 */
export const publicDealSchema = z.object({
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
  /** A dispute's settlement split the escrow and completed the deal (rather than both dealers' marks). */
  settled: z.boolean(),
  /** Who may become its counterpart: anyone ('open') or whom its creator accepts ('approval'). */
  joinPolicy: z.enum(joinPolicies),
  /** The viewer's own bid on this deal, if any. */
  my_bid: z.object({ id: z.number().int(), price: z.number() }).nullable(),
});
export type PublicDeal = z.infer<typeof publicDealSchema>;

/** An allowed action: `true`, or left out. */
const allowed = z.literal(true).optional();

/**
 * What the viewer may do with the deal now, each flag answered by the server's own rules
 * (server/core/deal/deal-policy.ts, DESIGN.md §5): present, and `true`, when that call, made now by
 * this viewer, passes the rule it is refused by (what else a call checks — whom a request goes to,
 * whether the escrow is locked for a finished mark — the flag says); left out otherwise, so that a
 * page of 50 deals stays small (`{}`: nothing allowed). The web shows its buttons from these and
 * guesses nothing.
 *
 * Every answer that carries a deal to a signed-in viewer carries it, lists and searches included:
 * every flag needs only the deal's row, its escrow's halves and whether the viewer has a bid on it,
 * which each of those answers already reads. Realtime `deal-updated` broadcasts go to everyone and
 * carry no `can`: a client keeps the one it has and asks for the deal again.
 */
export const dealCanSchema = z.object({
  /** Join as its counterpart: an open deal, not its creator or dealmaker, no bid on it, nobody joined, not completed. */
  join: allowed,
  /**
   * Ask its creator to join as its counterpart: the same, on a deal posted with joinPolicy 'approval'
   * (whether the viewer already asked, GET /api/deals/{id}/join-requests says).
   */
  askToJoin: allowed,
  /** Change its title, description, budget or timeline: its creator, while it has no dealmaker. */
  edit: allowed,
  /** Remove its counterpart: its creator, while one has joined, no escrow half is paid and it is not completed. */
  removeCounterpart: allowed,
  /** Leave it: its counterpart, not completed, no escrow half paid. */
  leave: allowed,
  /** Delete it: its creator, no escrow half paid. */
  delete: allowed,
  /** Bid to be its dealmaker: not a dealer of it, no bid on it yet, no dealmaker yet, not completed. */
  bid: allowed,
  /** Change the price of their own bid (`my_bid`): while the deal has no dealmaker and is not completed. */
  updateBid: allowed,
  /** Withdraw their own bid (`my_bid`): while the deal has no dealmaker and is not completed. */
  deleteBid: allowed,
  /** Select or unselect a bid: a dealer, while the deal has no dealmaker and is not completed. */
  selectBid: allowed,
  /**
   * Ask someone to be its dealmaker: a dealer, while it has no dealmaker and is not completed (whom they
   * may ask is answered when they send the request).
   */
  requestDealmaker: allowed,
  /** Pay their half into escrow: a dealer who has not paid, once the deal has both dealers and a dealmaker, not completed. */
  payEscrow: allowed,
  /** Take their paid half back: a dealer who paid it, while the escrow is not locked. */
  refundEscrow: allowed,
  /**
   * Give their "finished" mark: a dealer who has not given it, once the deal has a dealmaker, until it is
   * completed (spec §6). The mark counts only on a locked escrow with no open dispute: the call checks
   * those and answers 409 with the reason.
   */
  markFinished: allowed,
  /** Add progress items and move them: its dealmaker, until it is completed. */
  addProgress: allowed,
  /** Raise a dispute: a dealer, once it has a dealmaker, until it is completed. */
  raiseDispute: allowed,
  /** Review the other participants (each once): a participant, once it is completed. */
  review: allowed,
});
export type DealCan = z.infer<typeof dealCanSchema>;

/** A deal as the API answers it to a signed-in viewer: public fields, their own bid, and what they may do. */
export const dealSchema = publicDealSchema.extend({ can: dealCanSchema });
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

/** What the dealers see of a bidder on their deal's bids: how they have done on this marketplace. */
export const bidderStatsSchema = z.object({
  /** The average of the ratings they received (1–5, one decimal), or null before any. */
  averageRating: z.number().nullable(),
  reviews: z.number().int(),
  /** Deals they were the dealmaker of that are completed. */
  completedDeals: z.number().int(),
});
export type BidderStats = z.infer<typeof bidderStatsSchema>;

export const bidSchema = z.object({
  id: z.number().int(),
  dealId: z.number().int(),
  dealmaker: z.string(),
  price: z.number(),
  timestamp: z.string(),
  /** What the bidder offers to do (null when they gave a price alone). */
  proposal: z.string().nullable(),
  /** How many days they expect to take (null when not said). */
  deliveryDays: z.number().int().nullable(),
  /** On a deal's list of bids (GET /api/bidding/deal/{dealId}): the price is above the deal's budget. */
  aboveBudget: z.boolean().optional(),
  /** On a deal's list of bids: the bidder's record. */
  bidder: bidderStatsSchema.optional(),
});
export type Bid = z.infer<typeof bidSchema>;

const bidDetails = {
  proposal: z
    .string({ error: 'Proposal must be text' })
    .trim()
    .max(limits.bid.proposal.max, `Proposal must be at most ${limits.bid.proposal.max} characters`)
    .refine(withoutNul, invalidCharacter('Proposal'))
    .nullish()
    .transform((value) => value || null),
  deliveryDays: z
    .number({ error: 'Delivery estimate must be a number of days' })
    .int('Delivery estimate must be a whole number of days')
    .min(limits.bid.deliveryDays.min, `Delivery estimate must be at least ${limits.bid.deliveryDays.min} day`)
    .max(limits.bid.deliveryDays.max, `Delivery estimate must be at most ${limits.bid.deliveryDays.max} days`)
    .nullish()
    .transform((value) => value ?? null),
};

/** A bid is a price, optionally with a proposal and a delivery estimate (spec §3 needs the price alone). */
export const createBidSchema = z.object({
  dealId: bodyDealId,
  price: moneySchema(limits.bidPriceCents.min, limits.bidPriceCents.max),
  ...bidDetails,
});
/** A new price; a proposal or estimate given replaces the old one, one left out stays. */
export const updateBidSchema = z.object({
  price: moneySchema(limits.bidPriceCents.min, limits.bidPriceCents.max),
  proposal: bidDetails.proposal.optional(),
  deliveryDays: bidDetails.deliveryDays.optional(),
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
