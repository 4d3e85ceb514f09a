import type { Dispute, NewDispute } from '../../../contract/disputes';
import type { DealAccess } from '../../core/deal/deal-access';
import {
  requireMayEscalate,
  requireMayRaiseDispute,
  requireMayResolveDispute,
} from '../../core/deal/deal-policy';
import { participantIds } from '../../core/deal/deal-roles';
import type { Db, DbOrTx, Tx } from '../../db/client';
import type { DealRow } from '../../db/schema';
import type { AfterCommit, Transact } from '../../db/transaction';
import { conflict, notFound } from '../../lib/errors';
import type { EventPublisher } from '../../lib/events';
import type { Jobs } from '../../lib/jobs';
import type { MilestonesService } from '../escrow/milestones.service';
import type { TimelineService } from '../timeline/timeline.service';
import { presentDispute } from './disputes.presenter';
import { disputesRepository } from './disputes.repository';
import { presentProposal, presentSettlement } from './settlement.presenter';
import { settlementRepository } from './settlement.repository';

const disputeNotFound = () => notFound('Dispute not found.');

/**
 * Dealers raise disputes once a dealmaker exists; the dealmaker resolves them
 * with a text (DESIGN.md §5 Disputes). A dispute nothing settles within
 * DISPUTE_ESCALATION_HOURS — or one a dealer escalates — goes to the
 * operators' queue; settling the escrow's money is SettlementService's.
 */
export class DisputesService {
  constructor(
    private readonly deps: {
      db: Db;
      transact: Transact;
      deals: DealAccess;
      /** A dispute stops the release timers of the deal's submitted milestones until it is resolved. */
      milestones: Pick<MilestonesService, 'pauseTimers' | 'resumeTimers'>;
      timeline: TimelineService;
      events: EventPublisher;
      deadlines: { jobs: Jobs; escalationMs: number };
    },
  ) {}

  raise(userId: number, input: NewDispute) {
    return this.deps.transact(async (tx, afterCommit) => {
      const deal = await this.deps.deals.lock(tx, input.dealId);
      requireMayRaiseDispute(deal, userId);
      const escalatesAt = new Date(Date.now() + this.deps.deadlines.escalationMs);
      const row = await disputesRepository.insert(tx, {
        dealId: deal.id,
        title: input.title,
        description: input.description,
        raisedById: userId,
        escalatesAt,
      });
      await this.deps.deadlines.jobs.schedule(tx, 'dispute-escalation', { disputeId: row.id }, escalatesAt);
      await this.deps.milestones.pauseTimers(tx, afterCommit, deal);
      const dispute = await this.present(tx, row.id);
      await this.deps.timeline.record(tx, afterCommit, {
        dealId: deal.id,
        actorId: userId,
        event: {
          kind: 'dispute-raised',
          message: `${dispute.raisedByUsername} raised a dispute: ${dispute.title}`,
          details: { disputeId: dispute.id },
        },
        notify: [
          {
            to: participantIds(deal),
            kind: 'dispute-raised',
            message: `${dispute.raisedByUsername} raised a dispute on "${deal.title}": ${dispute.title}`,
          },
        ],
      });
      afterCommit(() => this.publish(deal, dispute, 'created'));
      return dispute;
    });
  }

  async listOfDeal(dealId: number, viewerId: number) {
    await this.deps.deals.findAsParticipant(dealId, viewerId);
    return this.presentAll(this.deps.db, await disputesRepository.listOfDeal(this.deps.db, dealId));
  }

  async resolve(disputeId: number, userId: number, resolution: string) {
    const existing = await disputesRepository.findById(this.deps.db, disputeId);
    if (!existing) throw disputeNotFound();
    return this.deps.transact(async (tx, afterCommit) => {
      // Deal first, then dispute: marking a deal finished checks disputes under the same deal lock.
      const deal = await this.deps.deals.lock(tx, existing.dealId);
      requireMayResolveDispute(deal, userId);
      const current = (await disputesRepository.lock(tx, disputeId))!;
      if (current.status !== 'open') throw conflict('This dispute is not open.');
      await disputesRepository.resolve(tx, disputeId, { resolution, resolvedById: userId });
      // A resolved dispute can no longer be settled: its open proposal ends with it.
      await settlementRepository.closeOpen(tx, disputeId, 'superseded');
      if (!(await this.deps.deals.hasOpenDispute(deal.id, tx))) {
        await this.deps.milestones.resumeTimers(tx, afterCommit, deal);
      }
      const dispute = await this.present(tx, disputeId);
      await this.deps.timeline.record(tx, afterCommit, {
        dealId: deal.id,
        actorId: userId,
        event: {
          kind: 'dispute-resolved',
          message: `The dealmaker resolved the dispute "${dispute.title}": ${resolution}`,
          details: { disputeId },
        },
        notify: [
          {
            to: participantIds(deal),
            kind: 'dispute-resolved',
            message: `The dispute "${dispute.title}" on "${deal.title}" was resolved.`,
          },
        ],
      });
      afterCommit(() => this.publish(deal, dispute, 'updated'));
      return dispute;
    });
  }

  /** POST /api/disputes/{id}/escalate: a dealer sends the open dispute to the operators now. */
  async escalate(disputeId: number, userId: number) {
    const existing = await disputesRepository.findById(this.deps.db, disputeId);
    if (!existing) throw disputeNotFound();
    return this.deps.transact(async (tx, afterCommit) => {
      const deal = await this.deps.deals.lock(tx, existing.dealId);
      const current = (await disputesRepository.lock(tx, disputeId))!;
      requireMayEscalate(deal, userId, current);
      return this.recordEscalation(tx, afterCommit, deal, disputeId, userId);
    });
  }

  /**
   * The escalation deadline (a job): a dispute still open and not escalated
   * goes to the operators. Does nothing otherwise; a job run a moment early
   * (clock skew) is put off to the deadline.
   */
  async escalateWhenDue(disputeId: number) {
    await this.deps.transact(async (tx, afterCommit) => {
      const existing = await disputesRepository.findById(tx, disputeId);
      const deal = existing && (await this.deps.deals.lockIfExists(tx, existing.dealId));
      const current = deal && (await disputesRepository.lock(tx, disputeId));
      if (!deal || !current || current.status !== 'open' || current.escalatedAt || !current.escalatesAt)
        return;
      const waitMs = current.escalatesAt.getTime() - Date.now();
      if (waitMs > 0) {
        if (waitMs < 60_000) {
          await this.deps.deadlines.jobs.schedule(
            tx,
            'dispute-escalation',
            { disputeId },
            current.escalatesAt,
          );
        }
        return;
      }
      await this.recordEscalation(tx, afterCommit, deal, disputeId, null);
    });
  }

  /**
   * At start: open disputes raised before escalation deadlines existed get
   * one (and its job); with several instances each is claimed by one.
   */
  async scheduleMissingDeadlines() {
    await this.deps.transact(async (tx) => {
      const claimed = await disputesRepository.claimMissingDeadlines(tx, this.deps.deadlines.escalationMs);
      for (const { id, escalatesAt } of claimed) {
        await this.deps.deadlines.jobs.schedule(tx, 'dispute-escalation', { disputeId: id }, escalatesAt!);
      }
    });
  }

  /** The dispute as the API shows it, with its proposals and settlement. */
  async present(db: DbOrTx, disputeId: number): Promise<Dispute> {
    const view = await disputesRepository.view(db, disputeId);
    if (!view) throw disputeNotFound();
    const [dispute] = await this.presentAll(db, [view]);
    return dispute!;
  }

  /** The operators' queue (GET /api/admin/disputes). */
  async list(options: {
    status: 'open' | 'resolved' | 'all';
    escalated?: boolean;
    before?: number;
    limit: number;
  }) {
    const views = await disputesRepository.list(this.deps.db, { ...options, beforeId: options.before });
    return this.presentAll(this.deps.db, views);
  }

  /** 'dispute-updated' to the deal's participants (their user rooms). */
  publish(deal: DealRow, dispute: Dispute, updateType: 'created' | 'updated') {
    this.deps.events.publish({ users: participantIds(deal) }, 'dispute-updated', {
      dealId: deal.id,
      data: dispute,
      updateType,
    });
  }

  private async recordEscalation(
    tx: Tx,
    afterCommit: AfterCommit,
    deal: DealRow,
    disputeId: number,
    actorId: number | null,
  ) {
    await disputesRepository.update(tx, disputeId, { escalatedAt: new Date() });
    const dispute = await this.present(tx, disputeId);
    const why = actorId === null ? 'nothing settled it in time' : 'a dealer asked';
    await this.deps.timeline.record(tx, afterCommit, {
      dealId: deal.id,
      actorId,
      event: {
        kind: 'dispute-escalated',
        message: `The dispute "${dispute.title}" went to the operators (${why}).`,
        details: { disputeId },
      },
      notify: [
        {
          to: participantIds(deal),
          kind: 'dispute-escalated',
          message: `The dispute "${dispute.title}" on "${deal.title}" went to the operators (${why}).`,
        },
      ],
    });
    afterCommit(() => this.publish(deal, dispute, 'updated'));
    return dispute;
  }

  private async presentAll(
    db: DbOrTx,
    views: Awaited<ReturnType<typeof disputesRepository.listOfDeal>>,
  ): Promise<Dispute[]> {
    const ids = views.map((view) => view.dispute.id);
    const proposals = await settlementRepository.proposalsOf(db, ids);
    const settlements = new Map(
      (await settlementRepository.settlementsOf(db, ids)).map((row) => [row.disputeId, row]),
    );
    return views.map((view) => {
      const settlement = settlements.get(view.dispute.id);
      return presentDispute(view, {
        proposals: proposals
          .filter((proposal) => proposal.proposal.disputeId === view.dispute.id)
          .map(presentProposal),
        settlement: settlement ? presentSettlement(settlement) : null,
      });
    });
  }
}
