import {
  type MilestoneActionResponse,
  type MilestonePlan,
  type MilestonesResponse,
  type NewPlan,
  planMismatchMessage,
  splitMilestones,
} from '../../../contract/milestones';
import { centsToDollars, formatUsdCents } from '../../../contract/money';
import type { DealAccess } from '../../core/deal/deal-access';
import {
  milestoneCanOf,
  refusalOfPlanChange,
  requireMayApproveMilestone,
  requireMayChangePlan,
  requireMayPayMilestone,
  requireMayRefundMilestone,
  requireMaySubmitMilestone,
} from '../../core/deal/deal-policy';
import { type DealerSide, dealerNameOf, participantIds } from '../../core/deal/deal-roles';
import type { Db, Tx } from '../../db/client';
import type { DealRow, MilestonePlanRow, MilestoneRow } from '../../db/schema';
import type { AfterCommit, Transact } from '../../db/transaction';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import type { IdempotencyRequest } from '../../lib/idempotency';
import type { Jobs } from '../../lib/jobs';
import type { TimelineService } from '../timeline/timeline.service';
import { type EscrowService, formatHours, type LockedEscrow } from './escrow.service';
import { milestoneName } from './escrow-sum';
import { presentMilestone, presentPlan } from './milestones.presenter';
import { milestonesRepository } from './milestones.repository';

const milestoneNotFound = () => notFound('Milestone not found.');
const planNotFound = () => notFound('Milestone plan not found.');

/**
 * Staged escrow (contract/milestones.ts): agreeing a deal's milestone plan, paying and taking back a
 * milestone's shares, the dealmaker submitting a funded milestone, the dealers approving it, and its
 * release when both have (or by itself at its deadline). The money moves through EscrowService, under
 * its locks: deal → escrow → milestones → wallets.
 */
export class MilestonesService {
  constructor(
    private readonly deps: {
      db: Db;
      transact: Transact;
      deals: DealAccess;
      escrow: EscrowService;
      timeline: TimelineService;
      deadlines: { jobs: Jobs; autoReleaseMs: number };
    },
  ) {}

  /** GET /api/deals/{dealId}/milestones: the participants see the milestones and the proposals. */
  async list(dealId: number, viewerId: number): Promise<MilestonesResponse> {
    const deal = await this.deps.deals.findAsParticipant(dealId, viewerId);
    const [escrow, milestones, plans, hasOpenDispute] = await Promise.all([
      this.deps.escrow.find(dealId),
      milestonesRepository.listOfDeal(this.deps.db, dealId),
      milestonesRepository.plansOfDeal(this.deps.db, dealId),
      this.deps.deals.hasOpenDispute(dealId),
    ]);
    const usernames = await milestonesRepository.usernames(
      this.deps.db,
      plans.flatMap((plan) => [plan.proposedById, ...plan.acceptedByIds]),
    );
    return {
      milestones: milestones.map((milestone) =>
        presentMilestone(milestone, milestoneCanOf(deal, viewerId, milestones, milestone, hasOpenDispute)),
      ),
      proposals: plans.map((plan) => presentPlan(plan, usernames)),
      canPlan: refusalOfPlanChange(deal, viewerId, escrow) === null,
      released: centsToDollars(escrow?.releasedCents ?? 0),
    };
  }

  // ── The plan ──

  /** POST /api/deals/{dealId}/milestone-plans: the proposer accepts it by proposing; it supersedes the open one. */
  proposePlan(dealId: number, userId: number, plan: NewPlan): Promise<MilestonePlan> {
    return this.deps.transact(async (tx, afterCommit) => {
      const { deal, escrow } = await this.deps.escrow.lockAll(tx, dealId);
      requireMayChangePlan(deal, userId, escrow);
      const totalCents = plan.milestones.reduce((total, milestone) => total + milestone.amount, 0);
      if (totalCents !== escrow.amountCents) {
        const message = planMismatchMessage(totalCents, escrow.amountCents);
        throw badRequest(message, { milestones: [message] });
      }
      await milestonesRepository.supersedeOpen(tx, dealId);
      const row = await milestonesRepository.insertPlan(tx, {
        dealId,
        proposedById: userId,
        milestones: plan.milestones.map((milestone) => ({
          title: milestone.title,
          amountCents: milestone.amount,
          dueDate: milestone.dueDate ? new Date(milestone.dueDate).toISOString() : null,
        })),
        acceptedByIds: [userId],
      });
      const proposal = await this.presentPlan(tx, row);
      const who = proposal.proposedBy.username;
      await this.deps.timeline.record(tx, afterCommit, {
        dealId,
        actorId: userId,
        event: {
          kind: 'plan-proposed',
          message: `${who} proposed a plan of ${row.milestones.length} milestone${row.milestones.length === 1 ? '' : 's'}.`,
          details: { planId: row.id },
        },
        notify: [
          {
            to: participantIds(deal),
            kind: 'plan-proposed',
            message: `${who} proposed paying "${deal.title}" in ${row.milestones.length} milestone${row.milestones.length === 1 ? '' : 's'}: it needs everyone's acceptance.`,
          },
        ],
      });
      afterCommit(() => this.deps.escrow.publishMilestone(deal, proposal, 'plan-proposed'));
      return proposal;
    });
  }

  /**
   * POST /api/deals/{dealId}/milestone-plans/{planId}/accept: when all three participants have, the
   * plan becomes the deal's milestones (none was paid: a plan changes only before any money).
   */
  acceptPlan(dealId: number, planId: number, userId: number): Promise<MilestonePlan> {
    return this.deps.transact(async (tx, afterCommit) => {
      const { deal, escrow } = await this.deps.escrow.lockAll(tx, dealId);
      requireMayChangePlan(deal, userId, escrow);
      const plan = await this.lockOpenPlan(tx, dealId, planId);
      if (plan.acceptedByIds.includes(userId)) throw conflict('You have already accepted this plan.');
      const acceptedByIds = [...plan.acceptedByIds, userId];
      const agreed = participantIds(deal).every((id) => id !== null && acceptedByIds.includes(id));
      const row = await milestonesRepository.updatePlan(tx, planId, {
        acceptedByIds,
        ...(agreed ? { status: 'accepted' } : {}),
      });
      if (agreed) await this.replaceMilestones(tx, deal, row);
      const proposal = await this.presentPlan(tx, row);
      const who = proposal.acceptedBy.at(-1)!;
      await this.deps.timeline.record(tx, afterCommit, {
        dealId,
        actorId: userId,
        event: agreed
          ? {
              kind: 'plan-agreed',
              message: `Everyone accepted the plan: "${deal.title}" is paid in ${row.milestones.length} milestone${row.milestones.length === 1 ? '' : 's'}.`,
              details: { planId },
            }
          : { kind: 'plan-accepted', message: `${who} accepted the milestone plan.`, details: { planId } },
        notify: agreed
          ? [
              {
                to: participantIds(deal),
                kind: 'plan-agreed',
                message: `Everyone accepted the milestone plan of "${deal.title}": each milestone is paid and released on its own.`,
              },
            ]
          : [],
      });
      afterCommit(() =>
        this.deps.escrow.publishMilestone(deal, proposal, agreed ? 'plan-agreed' : 'plan-accepted'),
      );
      return proposal;
    });
  }

  /** POST /api/deals/{dealId}/milestone-plans/{planId}/withdraw: its proposer, while it is open. */
  withdrawPlan(dealId: number, planId: number, userId: number): Promise<MilestonePlan> {
    return this.deps.transact(async (tx, afterCommit) => {
      const { deal, escrow } = await this.deps.escrow.lockAll(tx, dealId);
      requireMayChangePlan(deal, userId, escrow);
      const plan = await this.lockOpenPlan(tx, dealId, planId);
      if (plan.proposedById !== userId) throw forbidden('Only its proposer can withdraw this plan.');
      const row = await milestonesRepository.updatePlan(tx, planId, { status: 'withdrawn' });
      const proposal = await this.presentPlan(tx, row);
      await this.deps.timeline.record(tx, afterCommit, {
        dealId,
        actorId: userId,
        event: {
          kind: 'plan-withdrawn',
          message: `${proposal.proposedBy.username} withdrew their milestone plan.`,
          details: { planId },
        },
        notify: [
          {
            to: participantIds(deal),
            kind: 'plan-withdrawn',
            message: `${proposal.proposedBy.username} withdrew their milestone plan for "${deal.title}".`,
          },
        ],
      });
      afterCommit(() => this.deps.escrow.publishMilestone(deal, proposal, 'plan-withdrawn'));
      return proposal;
    });
  }

  /** The agreed plan's milestones in place of the deal's (unpaid) ones, with cent-exact shares. */
  private async replaceMilestones(tx: Tx, deal: DealRow, plan: MilestonePlanRow) {
    await milestonesRepository.deleteOfDeal(tx, deal.id);
    const shares = splitMilestones(plan.milestones.map((milestone) => milestone.amountCents));
    await milestonesRepository.insertMany(
      tx,
      plan.milestones.map((milestone, index) => ({
        dealId: deal.id,
        position: index + 1,
        title: milestone.title,
        dueDate: milestone.dueDate ? new Date(milestone.dueDate) : null,
        ...shares[index]!,
      })),
    );
  }

  private async lockOpenPlan(tx: Tx, dealId: number, planId: number) {
    const plan = await milestonesRepository.lockPlan(tx, planId);
    if (!plan || plan.dealId !== dealId) throw planNotFound();
    if (plan.status !== 'open') throw conflict(`This plan is no longer open: it was ${plan.status}.`);
    return plan;
  }

  private async presentPlan(tx: Tx, row: MilestonePlanRow) {
    const usernames = await milestonesRepository.usernames(tx, [row.proposedById, ...row.acceptedByIds]);
    return presentPlan(row, usernames);
  }

  // ── Money of one milestone ──

  /** POST /api/milestones/{id}/pay: the caller pays their share of it from their wallet. */
  async pay(milestoneId: number, userId: number, idempotency?: IdempotencyRequest) {
    const dealId = await this.dealIdOf(milestoneId);
    return this.deps.escrow.moveMoney<MilestoneActionResponse>(
      dealId,
      userId,
      idempotency,
      async (tx, afterCommit, locked) => {
        const target = this.milestoneIn(locked, milestoneId);
        const side = requireMayPayMilestone(locked.deal, userId, locked.milestones, target);
        const moved = await this.deps.escrow.payShare(tx, afterCommit, locked, target, side, userId);
        return {
          answer: {
            statusCode: 200,
            body: {
              message: moved.message,
              milestone: await this.present(tx, locked, moved.milestone, userId),
            },
          },
          escrow: moved.escrow,
          milestones: [moved.milestone],
        };
      },
    );
  }

  /** POST /api/milestones/{id}/refund: the caller takes their share back while the other is unpaid. */
  async refund(milestoneId: number, userId: number, idempotency?: IdempotencyRequest) {
    const dealId = await this.dealIdOf(milestoneId);
    return this.deps.escrow.moveMoney<MilestoneActionResponse>(
      dealId,
      userId,
      idempotency,
      async (tx, afterCommit, locked) => {
        const target = this.milestoneIn(locked, milestoneId);
        const side = requireMayRefundMilestone(locked.deal, userId, target);
        const moved = await this.deps.escrow.refundShare(tx, afterCommit, locked, target, side, userId);
        return {
          answer: {
            statusCode: 200,
            body: {
              message: moved.message,
              milestone: await this.present(tx, locked, moved.milestone, userId),
            },
          },
          escrow: moved.escrow,
          milestones: [moved.milestone],
        };
      },
    );
  }

  // ── Delivery and release ──

  /** POST /api/milestones/{id}/submit: the dealmaker says a funded milestone is delivered; its timer starts. */
  async submit(milestoneId: number, userId: number, note: string | null): Promise<MilestoneActionResponse> {
    const dealId = await this.dealIdOf(milestoneId);
    return this.deps.transact(async (tx, afterCommit) => {
      const locked = await this.deps.escrow.lockAll(tx, dealId);
      const target = this.milestoneIn(locked, milestoneId);
      requireMaySubmitMilestone(locked.deal, userId, target);
      // A dispute open meanwhile holds the timer until it is resolved.
      const disputed = await this.deps.deals.hasOpenDispute(dealId, tx);
      const autoReleaseAt = disputed ? null : new Date(Date.now() + this.deps.deadlines.autoReleaseMs);
      const milestone = await milestonesRepository.update(tx, milestoneId, {
        status: 'submitted',
        submittedAt: new Date(),
        note,
        autoReleaseAt,
        creatorApproved: false,
        counterpartApproved: false,
      });
      if (autoReleaseAt) {
        await this.deps.deadlines.jobs.schedule(tx, 'milestone-auto-release', { milestoneId }, autoReleaseAt);
      }
      const name = this.nameOf(locked, milestone);
      const hours = formatHours(this.deps.deadlines.autoReleaseMs);
      await this.deps.timeline.record(tx, afterCommit, {
        dealId,
        actorId: userId,
        event: {
          kind: 'milestone-submitted',
          message: `${locked.view.dealmaker} submitted ${name} for approval${note ? `: ${note}` : '.'}`,
          details: { milestoneId },
        },
        notify: [
          {
            to: [locked.deal.creatorId, locked.deal.counterpartId],
            kind: 'milestone-submitted',
            message: `${locked.view.dealmaker} delivered ${name} of "${locked.deal.title}". Approve it, or raise a dispute; ${
              autoReleaseAt ? `it is released by itself in ${hours}` : 'its timer waits for the open dispute'
            }.`,
          },
        ],
      });
      afterCommit(() => this.deps.escrow.publishMilestone(locked.deal, milestone, 'submitted'));
      const message = autoReleaseAt
        ? `Submitted for approval: ${name} is released to you when both dealers approve it, or by itself on ${autoReleaseAt.toISOString()}.`
        : `Submitted for approval: ${name} is released to you when both dealers approve it; its timer starts once the open dispute is resolved.`;
      return { message, milestone: await this.present(tx, locked, milestone, userId) };
    });
  }

  /** POST /api/milestones/{id}/approve: when both dealers have, its money goes to the dealmaker. */
  async approve(milestoneId: number, userId: number): Promise<MilestoneActionResponse> {
    const dealId = await this.dealIdOf(milestoneId);
    return this.deps.transact(async (tx, afterCommit) => {
      const locked = await this.deps.escrow.lockAll(tx, dealId);
      const target = this.milestoneIn(locked, milestoneId);
      const side = requireMayApproveMilestone(
        locked.deal,
        userId,
        target,
        await this.deps.deals.hasOpenDispute(dealId, tx),
      );
      const approved = await milestonesRepository.update(
        tx,
        milestoneId,
        side === 'creator' ? { creatorApproved: true } : { counterpartApproved: true },
      );
      locked.milestones.splice(locked.milestones.indexOf(target), 1, approved);
      const name = this.nameOf(locked, approved);
      const dealer = dealerNameOf(locked.view, side);
      const both = approved.creatorApproved && approved.counterpartApproved;
      await this.deps.timeline.record(tx, afterCommit, {
        dealId,
        actorId: userId,
        event: {
          kind: 'milestone-approved',
          message: `${dealer} approved ${name}.`,
          details: { milestoneId },
        },
        notify: both
          ? []
          : [
              {
                to: [otherDealer(locked.deal, side), locked.deal.dealmakerId],
                kind: 'milestone-approved',
                message: `${dealer} approved ${name} of "${locked.deal.title}"; it is released once both dealers have.`,
              },
            ],
      });
      if (!both) {
        afterCommit(() => this.deps.escrow.publishMilestone(locked.deal, approved, 'approved'));
        return {
          message: `You approved ${name}. It is released once the other dealer approves it too.`,
          milestone: await this.present(tx, locked, approved, userId),
        };
      }
      const released = await this.release(tx, afterCommit, locked, approved, userId, 'Both dealers approved');
      return {
        message: `Both dealers approved: ${name} (${formatUsdCents(released.amountCents)}) was released to the dealmaker.`,
        milestone: await this.present(tx, locked, released, userId),
      };
    });
  }

  /**
   * The auto-release deadline (a job): a submitted milestone nobody approved or disputed in time is
   * released to the dealmaker. Does nothing when the deadline no longer holds (released, settled, a
   * dispute stopped its timer, or submitted again with a deadline of its own); a job that runs a
   * moment early is put off to the deadline.
   */
  async releaseWhenDue(milestoneId: number) {
    await this.deps.transact(async (tx, afterCommit) => {
      const dealId = await milestonesRepository.dealIdOf(tx, milestoneId);
      const deal = dealId !== undefined && (await this.deps.deals.lockIfExists(tx, dealId));
      if (!deal) return;
      const locked = await this.deps.escrow.lockAll(tx, deal.id);
      const target = locked.milestones.find((milestone) => milestone.id === milestoneId);
      if (target?.status !== 'submitted' || !target.autoReleaseAt) return;
      if (await this.deps.deals.hasOpenDispute(deal.id, tx)) return;
      const waitMs = target.autoReleaseAt.getTime() - Date.now();
      if (waitMs > 0) {
        if (waitMs < 60_000) {
          await this.deps.deadlines.jobs.schedule(
            tx,
            'milestone-auto-release',
            { milestoneId },
            target.autoReleaseAt,
          );
        }
        return;
      }
      await this.release(tx, afterCommit, locked, target, null, 'Nobody approved or disputed it in time');
    });
  }

  /**
   * A dispute was raised (DisputesService, in its transaction, under the deal's lock): the timers of the
   * deal's submitted milestones stop until it is resolved.
   */
  async pauseTimers(tx: Tx, afterCommit: AfterCommit, deal: DealRow) {
    const paused = await milestonesRepository.pauseAutoRelease(tx, deal.id);
    if (paused.length === 0) return;
    await this.deps.timeline.record(tx, afterCommit, {
      dealId: deal.id,
      actorId: null,
      event: {
        kind: 'milestone-timer-stopped',
        message: `The dispute stops the release timer of ${paused.length === 1 ? 'the submitted milestone' : `${paused.length} submitted milestones`} until it is resolved.`,
      },
    });
    afterCommit(() => {
      for (const milestone of paused) this.deps.escrow.publishMilestone(deal, milestone, 'updated');
    });
  }

  /** The deal's last open dispute was resolved: the submitted milestones' timers start again. */
  async resumeTimers(tx: Tx, afterCommit: AfterCommit, deal: DealRow) {
    const at = new Date(Date.now() + this.deps.deadlines.autoReleaseMs);
    const resumed = await milestonesRepository.resumeAutoRelease(tx, deal.id, at);
    for (const milestone of resumed) {
      await this.deps.deadlines.jobs.schedule(
        tx,
        'milestone-auto-release',
        { milestoneId: milestone.id },
        at,
      );
    }
    afterCommit(() => {
      for (const milestone of resumed) this.deps.escrow.publishMilestone(deal, milestone, 'updated');
    });
  }

  /** Pays the milestone out and records it; with the last milestone the deal completes. */
  private async release(
    tx: Tx,
    afterCommit: AfterCommit,
    locked: LockedEscrow,
    target: MilestoneRow,
    actorId: number | null,
    why: string,
  ) {
    const { deal } = locked;
    const name = this.nameOf(locked, target);
    const amount = formatUsdCents(target.amountCents);
    // Recorded first: the payout locks the dealmaker's wallet row until the commit.
    await this.deps.timeline.record(tx, afterCommit, {
      dealId: deal.id,
      actorId,
      event: {
        kind: 'milestone-released',
        message: `${why}: ${name} (${amount}) was released to ${locked.view.dealmaker}.`,
        details: { milestoneId: target.id, amountCents: target.amountCents },
      },
      notify: [
        {
          to: [deal.creatorId, deal.counterpartId],
          kind: 'milestone-released',
          message: `${capitalized(name)} of "${deal.title}" (${amount}) was released to the dealmaker.`,
        },
        {
          to: [deal.dealmakerId],
          kind: 'payment-received',
          message: `You received ${amount} for ${name} of "${deal.title}".`,
        },
      ],
    });
    const released = await this.deps.escrow.releaseMilestone(tx, locked, target);
    if (released.dealCompleted) {
      await this.deps.timeline.record(tx, afterCommit, {
        dealId: deal.id,
        actorId,
        event: { kind: 'completed', message: 'Every milestone is released: the deal is completed.' },
      });
    }
    const view = released.dealCompleted ? await this.deps.deals.present(deal.id, 0, tx) : null;
    afterCommit(() => {
      this.deps.escrow.publish(deal, released.escrow, [released.milestone]);
      if (view) this.deps.deals.announce(view, 'updated');
    });
    return released.milestone;
  }

  private async dealIdOf(milestoneId: number) {
    const dealId = await milestonesRepository.dealIdOf(this.deps.db, milestoneId);
    if (dealId === undefined) throw milestoneNotFound();
    return dealId;
  }

  /** The milestone among the locked ones; a participant check first, so that outsiders learn nothing. */
  private milestoneIn(locked: LockedEscrow, milestoneId: number) {
    const target = locked.milestones.find((milestone) => milestone.id === milestoneId);
    if (!target) throw milestoneNotFound();
    return target;
  }

  private nameOf(locked: LockedEscrow, milestone: MilestoneRow) {
    return milestoneName(milestone, locked.milestones.length) ?? 'the whole deal';
  }

  private async present(tx: Tx, locked: LockedEscrow, milestone: MilestoneRow, viewerId: number) {
    const milestones = locked.milestones.map((each) => (each.id === milestone.id ? milestone : each));
    const deal = await this.deps.deals.lock(tx, locked.deal.id);
    const can = milestoneCanOf(
      deal,
      viewerId,
      milestones,
      milestone,
      await this.deps.deals.hasOpenDispute(deal.id, tx),
    );
    return presentMilestone(milestone, can);
  }
}

const otherDealer = (deal: DealRow, side: DealerSide) =>
  side === 'creator' ? deal.counterpartId : deal.creatorId;
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
