import { z } from 'zod';
import { publicDealSchema } from './deals';
import { disputeSchema } from './disputes';
import { escrowSchema } from './escrow';
import { decimalId } from './fields';
import { limits } from './limits';
import { timelineItemSchema } from './timeline';

/** The operators' calls (/api/admin/…): operators only, granted by a command on the server. */

/** GET /api/admin/disputes?escalated=&status=&limit=&before= */
export const operatorDisputesQuerySchema = z.object({
  escalated: z.enum(['true', 'false']).optional(),
  status: z.enum(['open', 'resolved', 'all']).default('open'),
  limit: z.coerce.number().int().min(1).max(limits.page.maxLimit).default(limits.page.defaultLimit),
  before: decimalId().optional(),
});

/** One dispute of the queue with everything an operator needs to decide. */
export const operatorDisputeSchema = z.object({
  dispute: disputeSchema,
  /** The deal's public fields: an operator settles through their own console, not the deal's buttons (no `can`). */
  deal: publicDealSchema,
  escrow: escrowSchema.nullable(),
  participants: z.object({
    creator: z.string(),
    counterpart: z.string().nullable(),
    dealmaker: z.string().nullable(),
  }),
  /**
   * The deal's latest system entries, newest first, without its chat: an operator reads the chat through
   * GET /api/admin/deals/{dealId}/timeline, where every read is audited.
   */
  timeline: z.array(timelineItemSchema),
});

/**
 * GET /api/admin/deals/{dealId}/timeline?limit=&before=&after=: the deal's chat and system entries,
 * paged as the participants' own timeline (contract/timeline.ts `timelineQuerySchema`, `timelineSchema`),
 * read-only; each read is audited as `operator.read-deal`.
 */
export {
  timelineQuerySchema as adminDealTimelineQuerySchema,
  timelineSchema as adminDealTimelineSchema,
} from './timeline';
export const operatorDisputeListSchema = z.object({ disputes: z.array(operatorDisputeSchema) });
export type OperatorDispute = z.infer<typeof operatorDisputeSchema>;

/** GET /api/admin/ledger/check: every money invariant, its verdict and what breaks it. */
export const ledgerCheckSchema = z.object({
  ok: z.boolean(),
  checkedAt: z.string(),
  counts: z.object({
    transfers: z.number().int(),
    wallets: z.number().int(),
    escrows: z.number().int(),
    walletTransactions: z.number().int(),
  }),
  checks: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      ok: z.boolean(),
      violations: z.array(z.record(z.string(), z.unknown())),
    }),
  ),
});
export type LedgerCheck = z.infer<typeof ledgerCheckSchema>;

/** GET /api/admin/audit?limit=&before=&dealId=&username= */
export const auditQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(limits.page.maxLimit).default(limits.page.defaultLimit),
  before: decimalId(Number.MAX_SAFE_INTEGER).optional(),
  dealId: decimalId().optional(),
  username: z.string().trim().min(1).max(limits.username.max).optional(),
});

export const auditEntrySchema = z.object({
  id: z.number().int(),
  createdAt: z.string(),
  actor: z.object({ id: z.number().int(), username: z.string() }).nullable(),
  action: z.string(),
  dealId: z.number().int().nullable(),
  subject: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  address: z.string().nullable(),
});
export const auditListSchema = z.object({ entries: z.array(auditEntrySchema) });
export type AuditEntry = z.infer<typeof auditEntrySchema>;
