import { z } from 'zod';
import { bodyDealId as dealId, requiredText } from './fields';
import { limits } from './limits';
import { proposalSchema, settlementSchema } from './settlements';

/** Disputes a dealer raises and the dealmaker resolves (spec §3 Dispute, §4 Dispute). */
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
  /** In the operators' queue (a dealer asked, or nothing settled it in time); the status stays open. */
  escalated: z.boolean(),
  escalatedAt: z.string().nullable(),
  /** When an open dispute goes to the operators by itself (null once escalated or resolved). */
  escalatesAt: z.string().nullable(),
  /** Settlement proposals, newest first. */
  proposals: z.array(proposalSchema),
  /** How the escrow was split, once settled. */
  settlement: settlementSchema.nullable(),
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
