import type { OperatorDispute } from '../../../contract/operator';
import type { TimelineItem } from '../../../contract/timeline';
import type { DealAccess } from '../../core/deal/deal-access';
import type { AuditService } from '../audit/audit.service';
import type { DisputesService } from '../disputes/disputes.service';
import type { SettlementService } from '../disputes/settlement.service';
import { presentEscrow } from '../escrow/escrow.presenter';
import type { EscrowService } from '../escrow/escrow.service';
import type { TimelineService } from '../timeline/timeline.service';
import type { WalletService } from '../wallet/wallet.service';

/** How many of each deal's system entries the operators' queue shows. */
const timelineEntries = 50;

/**
 * The operators' console (/api/admin/…): the disputes queue with everything
 * needed to decide, the deal's messages and timeline as evidence, settling
 * as an agreed proposal would, the ledger check and the audit log. Every
 * action an operator takes, and every read of a deal's chat, is itself audited.
 */
export class OperatorService {
  constructor(
    private readonly deps: {
      deals: DealAccess;
      disputes: DisputesService;
      settlements: SettlementService;
      escrow: EscrowService;
      timeline: TimelineService;
      wallet: WalletService;
      audit: AuditService;
    },
  ) {}

  async disputeQueue(query: {
    status: 'open' | 'resolved' | 'all';
    escalated?: 'true' | 'false';
    before?: number;
    limit: number;
  }): Promise<{ disputes: OperatorDispute[] }> {
    const disputes = await this.deps.disputes.list({
      status: query.status,
      escalated: query.escalated === undefined ? undefined : query.escalated === 'true',
      before: query.before,
      limit: query.limit,
    });
    const entries: OperatorDispute[] = [];
    for (const dispute of disputes) {
      const deal = await this.deps.deals.present(dispute.dealId, 0);
      const escrow = await this.deps.escrow.find(dispute.dealId);
      entries.push({
        dispute,
        deal,
        escrow: escrow ? presentEscrow(escrow) : null,
        participants: {
          creator: deal.dealer_creator,
          counterpart: deal.dealer_joined,
          dealmaker: deal.dealmaker,
        },
        // System entries only: the chat is private to the participants, and an operator reads it through
        // dealTimeline, where each read is audited.
        timeline: await this.deps.timeline.latestEvents(dispute.dealId, timelineEntries),
      });
    }
    return { disputes: entries };
  }

  /**
   * GET /api/admin/deals/{dealId}/timeline: the deal's timeline with its chat, paged as the participants'
   * own, read-only; each read leaves an `operator.read-deal` entry before anything is answered.
   */
  async dealTimeline(
    dealId: number,
    query: { limit: number; before?: number; after?: number },
  ): Promise<{ items: TimelineItem[] }> {
    await this.deps.deals.find(dealId);
    const items = await this.deps.timeline.pageOf(dealId, query);
    await this.deps.audit.record({
      action: 'operator.read-deal',
      dealId,
      subject: `deals:${dealId}`,
      after: {
        limit: query.limit,
        before: query.before ?? null,
        after: query.after ?? null,
        entries: items.length,
        messages: items.filter((item) => item.type === 'message').length,
      },
    });
    return { items };
  }

  settle(
    disputeId: number,
    operator: { id: number; username: string },
    input: { toDealmaker: number; resolution: string },
  ) {
    return this.deps.settlements.settleByOperator(disputeId, operator, input);
  }

  async ledgerCheck() {
    const result = await this.deps.wallet.checkLedger();
    await this.deps.audit.record({
      action: 'operator.ledger-check',
      subject: 'ledger',
      after: {
        ok: result.ok,
        failed: result.checks.filter((check) => !check.ok).map((check) => check.name),
      },
    });
    return result;
  }

  auditLog(query: { limit: number; before?: number; dealId?: number; username?: string }) {
    return this.deps.audit.list(query);
  }
}
