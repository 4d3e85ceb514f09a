import { z } from 'zod';
import { invalidCharacter, moneySchema, requiredText, withoutNul } from './fields';
import { limits } from './limits';
import { formatUsdCents } from './money';

/**
 * Staged escrow (milestones). A deal's escrow is paid and released in milestones: each dealer pays
 * their share of each milestone from their wallet; the dealmaker submits a funded milestone as
 * delivered; it is released to them when both dealers approve it, or by itself at `autoReleaseAt`.
 * A deal without an agreed plan has one milestone holding the whole budget — the spec's escrow.
 *
 * open (nothing or one share paid) → funded (both shares) → submitted (delivered, awaiting approval)
 * → released (paid to the dealmaker); or refunded (a settlement ended the deal before it was funded)
 * or settled (a dispute's settlement split it).
 */
export const milestoneStatuses = ['open', 'funded', 'submitted', 'released', 'refunded', 'settled'] as const;
export type MilestoneStatus = (typeof milestoneStatuses)[number];

/** What the viewer may do with a milestone now (answered by the server's rules; left out = not allowed). */
export const milestoneCanSchema = z.object({
  /** Pay their share: a dealer whose share is unpaid, every earlier milestone funded. */
  pay: z.literal(true).optional(),
  /** Take their share back: a dealer who paid it while the other share is unpaid. */
  refund: z.literal(true).optional(),
  /** Say it is delivered: the dealmaker, once it is funded. */
  submit: z.literal(true).optional(),
  /** Approve it: a dealer who has not, once it is submitted and while no dispute is open. */
  approve: z.literal(true).optional(),
});
export type MilestoneCan = z.infer<typeof milestoneCanSchema>;
/** Nothing allowed: what a broadcast milestone carries (a client asks for its own). */
export const nothingAllowed: MilestoneCan = Object.freeze({});

export const milestoneSchema = z.object({
  id: z.number().int(),
  position: z.number().int(),
  title: z.string(),
  amount: z.number(),
  creatorShare: z.number(),
  counterpartShare: z.number(),
  creatorPaid: z.boolean(),
  counterpartPaid: z.boolean(),
  status: z.enum(milestoneStatuses),
  dueDate: z.string().nullable(),
  submittedAt: z.string().nullable(),
  /** The dealmaker's word when submitting. */
  note: z.string().nullable(),
  /** Which dealers approved the submitted milestone. */
  creatorApproved: z.boolean(),
  counterpartApproved: z.boolean(),
  /** When a submitted milestone is released by itself unless a dealer disputes first (null while disputed). */
  autoReleaseAt: z.string().nullable(),
  releasedAt: z.string().nullable(),
  /** While one share waits alone for the other: when it is refunded by itself. */
  expiresAt: z.string().nullable(),
  can: milestoneCanSchema,
});
export type Milestone = z.infer<typeof milestoneSchema>;

/** The title every deal's single milestone has until a plan is agreed. */
export const wholeDealMilestoneTitle = 'Whole deal';

const planMilestoneSchema = z.object({
  title: requiredText('Title', limits.milestone.title.max).refine(withoutNul, invalidCharacter('Title')),
  amount: moneySchema(1, limits.deal.budgetCents.max),
  dueDate: z
    .string()
    .refine(
      (value) =>
        /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(value) && !Number.isNaN(Date.parse(value)),
      'Due date must be a date (YYYY-MM-DD) or a date and time (ISO 8601)',
    )
    .nullish(),
});

/** POST /api/deals/{dealId}/milestone-plans: 1–20 milestones (whether they add up to the budget, the server says). */
export const proposePlanSchema = z.object({
  milestones: z
    .array(planMilestoneSchema, { error: 'Milestones must be a list' })
    .min(1, 'A plan has at least one milestone')
    .max(limits.milestone.perPlan, `A plan has at most ${limits.milestone.perPlan} milestones`),
});
export type ProposePlanRequest = z.input<typeof proposePlanSchema>;
export type NewPlan = z.output<typeof proposePlanSchema>;

export const planStatuses = ['open', 'accepted', 'superseded', 'withdrawn'] as const;

/** A proposed plan and who has accepted it (the proposer by proposing). */
export const milestonePlanSchema = z.object({
  id: z.number().int(),
  dealId: z.number().int(),
  proposedBy: z.object({ username: z.string() }),
  milestones: z.array(
    z.object({
      position: z.number().int(),
      title: z.string(),
      amount: z.number(),
      dueDate: z.string().nullable(),
    }),
  ),
  acceptedBy: z.array(z.string()),
  status: z.enum(planStatuses),
  createdAt: z.string(),
});
export type MilestonePlan = z.infer<typeof milestonePlanSchema>;

/** GET /api/deals/{dealId}/milestones. */
export const milestonesResponseSchema = z.object({
  milestones: z.array(milestoneSchema),
  /** Whether the viewer may propose a plan (or accept the open one) now. */
  canPlan: z.boolean(),
  /** Released to the dealmaker so far. */
  released: z.number(),
  proposals: z.array(milestonePlanSchema),
});
export type MilestonesResponse = z.infer<typeof milestonesResponseSchema>;

/** POST /api/milestones/{id}/submit: an optional note (the body itself may be left out). */
export const submitMilestoneSchema = z
  .object({
    note: z
      .string()
      .trim()
      .max(limits.milestone.note.max, `Note must be at most ${limits.milestone.note.max} characters`)
      .refine(withoutNul, invalidCharacter('Note'))
      .nullish(),
  })
  .nullish()
  .transform((body) => ({ note: body?.note || null }));

/** Every milestone call answers what it did and the milestone as it is now. */
export const milestoneActionResponseSchema = z.object({ message: z.string(), milestone: milestoneSchema });
export type MilestoneActionResponse = z.infer<typeof milestoneActionResponseSchema>;

/**
 * Each milestone's shares, cent-exact over the whole plan: the creator pays ceil(budget/2) and the
 * counterpart floor(budget/2), as for a deal without a plan. The creator's share of milestone k is
 * ceil(Ck/2) − ceil(Ck−1/2), Ck being the sum of the first k amounts: each milestone is split as evenly
 * as cents allow, and the odd cents alternate so that they never add up on one side.
 */
export function splitMilestones(amountsCents: number[]) {
  let before = 0;
  return amountsCents.map((amountCents) => {
    const after = before + amountCents;
    const creatorShareCents = Math.ceil(after / 2) - Math.ceil(before / 2);
    before = after;
    return { amountCents, creatorShareCents, counterpartShareCents: amountCents - creatorShareCents };
  });
}

/** The 400 message of a plan that does not add up to the budget. */
export function planMismatchMessage(totalCents: number, budgetCents: number) {
  const difference = totalCents - budgetCents;
  return `The milestones add up to ${formatUsdCents(totalCents)}, ${formatUsdCents(Math.abs(difference))} ${
    difference > 0 ? 'more' : 'less'
  } than the budget of ${formatUsdCents(budgetCents)}.`;
}
