import { z } from 'zod';
import { decimalId, moneySchema, requiredText } from './fields';
import { limits } from './limits';

/**
 * Settling a locked escrow while a dispute is open: a participant proposes
 * how much goes to the dealmaker, the rest goes back to the dealers in
 * proportion to what each paid (contract/escrow.ts splitSettlement); when all
 * three have accepted the same proposal — or an operator decides — the
 * escrow is paid out that way and the deal is completed.
 */
export const proposalStatuses = ['open', 'accepted', 'superseded', 'withdrawn'] as const;
export type ProposalStatus = (typeof proposalStatuses)[number];

export const proposalSchema = z.object({
  id: z.number().int(),
  disputeId: z.number().int(),
  proposedBy: z.object({ username: z.string() }),
  toDealmaker: z.number(),
  refundToCreator: z.number(),
  refundToCounterpart: z.number(),
  /** Usernames, in the order they accepted (the proposer first). */
  acceptedBy: z.array(z.string()),
  status: z.enum(proposalStatuses),
  createdAt: z.string(),
});
export type Proposal = z.infer<typeof proposalSchema>;

export const settlementSchema = z.object({
  toDealmaker: z.number(),
  refundToCreator: z.number(),
  refundToCounterpart: z.number(),
  /** 'agreement': all three accepted a proposal; 'operator': an operator decided. */
  by: z.enum(['agreement', 'operator']),
  proposalId: z.number().int().nullable(),
  settledAt: z.string(),
});
export type Settlement = z.infer<typeof settlementSchema>;

/** POST /api/disputes/{id}/proposals */
export const proposeSettlementSchema = z.object({
  toDealmaker: moneySchema(0, limits.deal.budgetCents.max),
});

/** POST /api/admin/disputes/{id}/settle */
export const operatorSettlementSchema = z.object({
  toDealmaker: moneySchema(0, limits.deal.budgetCents.max),
  resolution: requiredText('Resolution', limits.dispute.resolution.max),
});

/** /api/disputes/{id}/proposals/{proposalId}/… */
export const proposalParamsSchema = z.object({ id: decimalId(), proposalId: decimalId() });
