import type { PublicDeal } from '../../../contract/deals';
import {
  type EscrowActionResponse,
  type EscrowStatusResponse,
  escrowMessages,
  splitEscrow,
} from '../../../contract/escrow';
import { type MilestonePlan, nothingAllowed, wholeDealMilestoneTitle } from '../../../contract/milestones';
import { formatUsdCents } from '../../../contract/money';
import type { MilestoneUpdateType } from '../../../contract/realtime';
import type { DealAccess } from '../../core/deal/deal-access';
import { isProtected, requireMayPayEscrow, requireMayRefundEscrow } from '../../core/deal/deal-policy';
import { type DealerSide, dealerNameOf, otherDealerOf, participantIds } from '../../core/deal/deal-roles';
import type { Db, DbOrTx, Tx } from '../../db/client';
import type { DealRow, EscrowRow, MilestoneRow, WalletRow } from '../../db/schema';
import type { AfterCommit, Transact } from '../../db/transaction';
import { conflict } from '../../lib/errors';
import type { EventPublisher } from '../../lib/events';
import { type Answer, type IdempotencyRequest, idempotent, type Outcome } from '../../lib/idempotency';
import type { Jobs } from '../../lib/jobs';
import type { TimelineService } from '../timeline/timeline.service';
import { presentWallet } from '../wallet/wallet.presenter';
import type { WalletService } from '../wallet/wallet.service';
import { presentEscrow } from './escrow.presenter';
import { escrowRepository } from './escrow.repository';
import { currentMilestone, escrowSumOf, isHeld, milestoneName, paidBy, shareOf } from './escrow-sum';
import { presentMilestone } from './milestones.presenter';
import { milestonesRepository } from './milestones.repository';

/** 72 hours, 1.5 hours, 36 seconds: a deadline as people read it. */
export function formatHours(ms: number) {
  const hours = ms / 3_600_000;
  if (hours >= 1) return `${Number(hours.toFixed(2))} hour${hours === 1 ? '' : 's'}`;
  const seconds = Math.round(ms / 1000);
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

/** What a money call holds locked, in the lock order: the deal, its escrow, its milestones (then a wallet). */
export type LockedEscrow = {
  deal: DealRow;
  escrow: EscrowRow;
  milestones: MilestoneRow[];
  /** The deal's public view under those locks. */
  view: PublicDeal;
};

/** A share paid or taken back: the rows after it and the payer's wallet. */
export type ShareMoved = { escrow: EscrowRow; milestone: MilestoneRow; wallet: WalletRow; message: string };

/**
 * The escrow of each deal that has a dealmaker (DESIGN.md §5 Escrow), kept in milestones
 * (contract/milestones.ts): it is opened, with one milestone holding the whole budget, in the
 * transaction that assigns the dealmaker; each dealer pays their share of each milestone from their
 * wallet and may take it back while the other share is unpaid; a milestone's money goes to the
 * dealmaker when it is released (both dealers approve it, its timer runs out, or both mark the deal
 * finished: CompletionService), or is split by a dispute's settlement. The escrow row is the sum of its
 * milestones, as the spec's escrow calls show it (escrow-sum.ts).
 *
 * Every movement runs in one transaction that locks, in this order, the idempotency key, the deal, the
 * escrow, its milestones and the wallet; events go out after the commit.
 */
export class EscrowService {
  constructor(
    private readonly deps: {
      db: Db;
      transact: Transact;
      deals: DealAccess;
      wallets: WalletService;
      timeline: TimelineService;
      events: EventPublisher;
      deadlines: { jobs: Jobs; halfTimeoutMs: number };
    },
  ) {}

  /** The deal's escrow, if it has one (it decides whether the deal is protected). */
  find(dealId: number, db: DbOrTx = this.deps.db): Promise<EscrowRow | undefined> {
    return escrowRepository.findByDealId(db, dealId);
  }

  /** The deal's escrow, locked for the rest of the transaction (the deal must be locked already). */
  lock(tx: Tx, dealId: number): Promise<EscrowRow | undefined> {
    return escrowRepository.lockByDealId(tx, dealId);
  }

  /** The deal's milestones in order, locked (the deal and its escrow must be locked already). */
  lockMilestones(tx: Tx, dealId: number): Promise<MilestoneRow[]> {
    return milestonesRepository.lockOfDeal(tx, dealId);
  }

  /**
   * Opens the escrow of a deal that has just been given its dealmaker, in the same transaction, with
   * one milestone holding the whole budget: its amount is the budget at that moment, which no longer
   * changes once a dealmaker is assigned.
   */
  async open(tx: Tx, dealId: number, amountCents: number): Promise<EscrowRow> {
    const split = splitEscrow(amountCents);
    const escrow = await escrowRepository.insert(tx, { dealId, amountCents, ...split });
    await milestonesRepository.insertMany(tx, [
      { dealId, position: 1, title: wholeDealMilestoneTitle, amountCents, ...split },
    ]);
    return escrow;
  }

  /** GET /wallet/escrow/{dealId}: participants only. */
  async status(dealId: number, viewerId: number): Promise<EscrowStatusResponse> {
    await this.deps.deals.findAsParticipant(dealId, viewerId);
    const escrow = await this.find(dealId);
    return {
      escrowExists: !!escrow,
      escrow: escrow ? presentEscrow(escrow) : null,
      deal: await this.deps.deals.present(dealId, viewerId),
      expiresAt: escrow?.loneHalfExpiresAt?.toISOString() ?? null,
    };
  }

  /** POST /wallet/escrow/{dealId}/lock: the caller pays their share of the first milestone not funded. */
  pay(dealId: number, userId: number, idempotency?: IdempotencyRequest) {
    return this.moveMoney<EscrowActionResponse>(
      dealId,
      userId,
      idempotency,
      async (tx, afterCommit, locked) => {
        const side = requireMayPayEscrow(locked.deal, userId, locked.escrow);
        const target = currentMilestone(locked.milestones);
        if (!target) throw new Error(`deal ${dealId}: a payment was allowed with every milestone funded`);
        const moved = await this.payShare(tx, afterCommit, locked, target, side, userId);
        const body = {
          message: moved.message,
          escrow: presentEscrow(moved.escrow),
          wallet: presentWallet(moved.wallet),
        };
        return { answer: { statusCode: 200, body }, escrow: moved.escrow, milestones: [moved.milestone] };
      },
    );
  }

  /** POST /wallet/escrow/{dealId}/refund: the caller takes their share of the milestone being funded back. */
  refund(dealId: number, userId: number, idempotency?: IdempotencyRequest) {
    return this.moveMoney<EscrowActionResponse>(
      dealId,
      userId,
      idempotency,
      async (tx, afterCommit, locked) => {
        const side = requireMayRefundEscrow(locked.deal, userId, locked.escrow);
        const target = currentMilestone(locked.milestones);
        if (!target) throw new Error(`deal ${dealId}: a refund was allowed with every milestone funded`);
        const moved = await this.refundShare(tx, afterCommit, locked, target, side, userId);
        const body = {
          message: moved.message,
          escrow: presentEscrow(moved.escrow),
          wallet: presentWallet(moved.wallet),
        };
        return { answer: { statusCode: 200, body }, escrow: moved.escrow, milestones: [moved.milestone] };
      },
    );
  }

  /**
   * A money call on a deal's escrow: one transaction, at most once per Idempotency-Key, with the
   * deal, its escrow and its milestones locked (the lock order of every money call). After the commit
   * the escrow and the changed milestones go to the participants, and the deal to everyone, since
   * whether money is paid shows on every deal card (protected or not).
   */
  moveMoney<Body>(
    dealId: number,
    userId: number,
    idempotency: IdempotencyRequest | undefined,
    work: (
      tx: Tx,
      afterCommit: AfterCommit,
      locked: LockedEscrow,
    ) => Promise<{ answer: Answer<Body>; escrow: EscrowRow; milestones: MilestoneRow[] }>,
  ): Promise<Outcome<Body>> {
    return this.deps.transact((tx, afterCommit) =>
      idempotent(tx, userId, idempotency, async () => {
        const locked = await this.lockAll(tx, dealId);
        const changed: { escrow?: EscrowRow; milestones?: MilestoneRow[] } = {};
        afterCommit(() => {
          this.publish(locked.deal, changed.escrow!, changed.milestones);
          this.deps.deals.announce({ ...locked.view, escrow_paid: isProtected(changed.escrow) }, 'updated');
        });
        const result = await work(tx, afterCommit, locked);
        changed.escrow = result.escrow;
        changed.milestones = result.milestones;
        return result.answer;
      }),
    );
  }

  /** The deal, its escrow and its milestones, locked in that order; 409 before the deal has a dealmaker. */
  async lockAll(tx: Tx, dealId: number): Promise<LockedEscrow> {
    const { deal, escrow, publicView } = await this.deps.deals.lockWithEscrow(tx, dealId);
    const milestones = escrow ? await this.lockMilestones(tx, dealId) : [];
    return { deal, escrow: escrow as EscrowRow, milestones, view: publicView };
  }

  /**
   * The caller's share of a milestone into escrow from their wallet (the rules are the caller's):
   * the milestone is funded when the other share is in; a share that waits alone is refunded by itself
   * unless the other comes in time.
   */
  async payShare(
    tx: Tx,
    afterCommit: AfterCommit,
    locked: LockedEscrow,
    target: MilestoneRow,
    side: DealerSide,
    userId: number,
  ): Promise<ShareMoved> {
    const { deal, view } = locked;
    const share = shareOf(target, side);
    const funded = paidBy(target, side === 'creator' ? 'counterpart' : 'creator');
    const loneHalfExpiresAt = funded ? null : new Date(Date.now() + this.deps.deadlines.halfTimeoutMs);
    const milestone = await milestonesRepository.update(tx, target.id, {
      ...(side === 'creator' ? { creatorPaid: true } : { counterpartPaid: true }),
      status: funded ? 'funded' : 'open',
      loneHalfExpiresAt,
    });
    const escrow = await this.sync(tx, locked, milestone);
    if (loneHalfExpiresAt) {
      await this.deps.deadlines.jobs.schedule(
        tx,
        'escrow-half-expiry',
        { dealId: deal.id },
        loneHalfExpiresAt,
      );
    }
    const name = milestoneName(milestone, locked.milestones.length);
    const dealer = dealerNameOf(view, side);
    const amount = formatUsdCents(share);
    await this.deps.timeline.record(tx, afterCommit, {
      dealId: deal.id,
      actorId: userId,
      event: {
        kind: 'half-paid',
        message: name
          ? `${dealer} paid their share (${amount}) of ${name} into escrow.`
          : `${dealer} paid their half (${amount}) into escrow.`,
        details: { amountCents: share, milestoneId: milestone.id },
      },
      notify: funded
        ? []
        : [
            {
              to: [otherDealerOf(deal, side)],
              kind: 'escrow-paid',
              message: name
                ? `${dealer} paid their share (${amount}) of ${name} of "${deal.title}": yours is awaited.`
                : `${dealer} paid their half (${amount}) into the escrow of "${deal.title}": yours is awaited.`,
            },
          ],
    });
    if (funded) await this.recordFunded(tx, afterCommit, locked, milestone, escrow, userId);
    // The wallet last: its row is the most contended lock, held from here to the commit.
    const wallet = await this.deps.wallets.moveToEscrow(tx, {
      userId,
      dealId: deal.id,
      milestoneId: milestone.id,
      amountCents: share,
      description: name
        ? `Escrow payment for "${deal.title}": ${name}`
        : `Escrow payment for "${deal.title}"`,
    });
    const message = !funded
      ? name
        ? `Your share (${amount}) of ${name} has been paid successfully. Waiting for the other party.`
        : `Your half (${amount}) has been paid successfully. Waiting for the other party.`
      : escrow.status === 'locked'
        ? escrowMessages.locked
        : `Both shares of ${name} are paid: it is funded.`;
    return { escrow, milestone, wallet, message };
  }

  /** A milestone funded (and, with the last one, the whole escrow locked): on the timeline and to the three. */
  private async recordFunded(
    tx: Tx,
    afterCommit: AfterCommit,
    locked: LockedEscrow,
    milestone: MilestoneRow,
    escrow: EscrowRow,
    userId: number,
  ) {
    const { deal } = locked;
    const name = milestoneName(milestone, locked.milestones.length);
    if (name) {
      const amount = formatUsdCents(milestone.amountCents);
      await this.deps.timeline.record(tx, afterCommit, {
        dealId: deal.id,
        actorId: userId,
        event: {
          kind: 'milestone-funded',
          message: `Both shares of ${name} are paid: ${amount} is held in escrow for it.`,
          details: { amountCents: milestone.amountCents, milestoneId: milestone.id },
        },
        notify: [
          {
            to: participantIds(deal),
            kind: 'milestone-funded',
            message: `${capitalized(name)} of "${deal.title}" is funded: ${amount} is held in escrow until it is released.`,
          },
        ],
      });
    }
    if (escrow.status !== 'locked') return;
    const amount = formatUsdCents(escrow.amountCents);
    await this.deps.timeline.record(tx, afterCommit, {
      dealId: deal.id,
      actorId: userId,
      event: {
        kind: 'locked',
        message: `Both halves are paid: ${amount} is locked in escrow until the deal is completed.`,
        details: { amountCents: escrow.amountCents },
      },
      notify: name
        ? []
        : [
            {
              to: participantIds(deal),
              kind: 'escrow-locked',
              message: `Both halves are paid: ${amount} is locked in escrow for "${deal.title}" until the deal is completed.`,
            },
          ],
    });
  }

  /** The caller's share of a milestone back to their wallet (the rules are the caller's). */
  async refundShare(
    tx: Tx,
    afterCommit: AfterCommit,
    locked: LockedEscrow,
    target: MilestoneRow,
    side: DealerSide,
    userId: number,
  ): Promise<ShareMoved> {
    const { deal, view } = locked;
    const share = shareOf(target, side);
    const milestone = await milestonesRepository.update(tx, target.id, {
      ...(side === 'creator' ? { creatorPaid: false } : { counterpartPaid: false }),
      loneHalfExpiresAt: null,
    });
    const escrow = await this.sync(tx, locked, milestone);
    const name = milestoneName(milestone, locked.milestones.length);
    const dealer = dealerNameOf(view, side);
    const amount = formatUsdCents(share);
    await this.deps.timeline.record(tx, afterCommit, {
      dealId: deal.id,
      actorId: userId,
      event: {
        kind: 'half-refunded',
        message: name
          ? `${dealer} took their share (${amount}) of ${name} back from escrow.`
          : `${dealer} took their half (${amount}) back from escrow.`,
        details: { amountCents: share, milestoneId: milestone.id },
      },
      notify: [
        {
          to: [otherDealerOf(deal, side)],
          kind: 'escrow-refunded',
          message: name
            ? `${dealer} took their share (${amount}) of ${name} of "${deal.title}" back.`
            : `${dealer} took their half (${amount}) back from the escrow of "${deal.title}".`,
        },
      ],
    });
    // The wallet last: its row is the most contended lock, held from here to the commit.
    const wallet = await this.deps.wallets.moveFromEscrow(tx, 'escrow_refund', {
      userId,
      dealId: deal.id,
      milestoneId: milestone.id,
      amountCents: share,
      description: name ? `Escrow refund for "${deal.title}": ${name}` : `Escrow refund for "${deal.title}"`,
    });
    const message = name
      ? `Your share (${amount}) of ${name} has been refunded to your wallet.`
      : `Your half (${amount}) has been refunded to your wallet.`;
    return { escrow, milestone, wallet, message };
  }

  /**
   * The deadline of a lone share (a job): refunds it to its payer when the other share has not come in
   * time. Only the milestone being funded can hold one. Does nothing when the deadline no longer holds
   * (the other share came, the share was taken back, or paid again later with a deadline of its own);
   * a job that runs a moment early is put off to the deadline.
   */
  async expireLoneHalf(dealId: number) {
    await this.deps.transact(async (tx, afterCommit) => {
      const deal = await this.deps.deals.lockIfExists(tx, dealId);
      const escrow = deal && (await this.lock(tx, dealId));
      if (!deal || !escrow || escrow.status !== 'pending') return;
      const milestones = await this.lockMilestones(tx, dealId);
      const target = currentMilestone(milestones);
      if (!target?.loneHalfExpiresAt) return;
      const waitMs = target.loneHalfExpiresAt.getTime() - Date.now();
      if (waitMs > 0) {
        // A later payment's deadline has a job of its own; only a job run early by clock skew reschedules.
        if (waitMs < 60_000) {
          await this.deps.deadlines.jobs.schedule(
            tx,
            'escrow-half-expiry',
            { dealId },
            target.loneHalfExpiresAt,
          );
        }
        return;
      }
      const side: DealerSide = target.creatorPaid ? 'creator' : 'counterpart';
      const payerId = side === 'creator' ? deal.creatorId : deal.counterpartId;
      if (payerId === null || !paidBy(target, side)) return;
      const share = shareOf(target, side);
      const hours = formatHours(this.deps.deadlines.halfTimeoutMs);
      const view = await this.deps.deals.publicView(dealId, tx);
      const locked = { deal, escrow, milestones, view };
      const milestone = await milestonesRepository.update(tx, target.id, {
        ...(side === 'creator' ? { creatorPaid: false } : { counterpartPaid: false }),
        loneHalfExpiresAt: null,
      });
      const updated = await this.sync(tx, locked, milestone);
      const name = milestoneName(milestone, milestones.length);
      await this.deps.wallets.moveFromEscrow(tx, 'escrow_refund', {
        userId: payerId,
        dealId,
        milestoneId: milestone.id,
        amountCents: share,
        description: `Escrow half refunded for "${deal.title}"${name ? ` (${name})` : ''}: the other dealer did not pay within ${hours}`,
      });
      const amount = `${formatUsdCents(share)}`;
      const part = name ? `share (${amount}) of ${name}` : `half (${amount})`;
      await this.deps.timeline.record(tx, afterCommit, {
        dealId,
        actorId: null,
        event: {
          kind: 'half-expired',
          message: `${dealerNameOf(view, side)}'s ${part} waited ${hours} for the other and was refunded.`,
          details: { amountCents: share, milestoneId: milestone.id },
        },
        notify: [
          {
            to: [payerId],
            kind: 'escrow-expired',
            message: name
              ? `Your share (${amount}) of ${name} of "${deal.title}" was refunded to your wallet: the other dealer did not pay within ${hours}.`
              : `Your half (${amount}) of the escrow of "${deal.title}" was refunded to your wallet: the other dealer did not pay within ${hours}.`,
          },
          {
            to: [otherDealerOf(deal, side)],
            kind: 'escrow-expired',
            message: name
              ? `The other dealer's share (${amount}) of ${name} of "${deal.title}" was refunded: yours did not come within ${hours}.`
              : `The other dealer's half (${amount}) of the escrow of "${deal.title}" was refunded: yours did not come within ${hours}.`,
          },
        ],
      });
      afterCommit(() => {
        this.publish(deal, updated, [milestone]);
        this.deps.deals.announce({ ...view, escrow_paid: isProtected(updated) }, 'updated');
      });
    });
  }

  /**
   * Pays a funded milestone to the dealmaker (payment_received naming it) and marks it released; the
   * caller holds the locks and has checked the rules. When it was the last one, the escrow is
   * completed and so is the deal (unless `completeDeal` is false: the caller records it). Answers the
   * rows after it.
   */
  async releaseMilestone(
    tx: Tx,
    locked: LockedEscrow,
    target: MilestoneRow,
    options: { completeDeal: boolean } = { completeDeal: true },
  ): Promise<{ escrow: EscrowRow; milestone: MilestoneRow; dealCompleted: boolean }> {
    const { deal } = locked;
    if (!isHeld(target) || deal.dealmakerId === null) {
      throw new Error(`milestone ${target.id} of deal ${deal.id} is not ready for release`);
    }
    const name = milestoneName(target, locked.milestones.length);
    const milestone = await milestonesRepository.update(tx, target.id, {
      status: 'released',
      releasedAt: new Date(),
      autoReleaseAt: null,
    });
    const escrow = await this.sync(tx, locked, milestone);
    const dealCompleted = escrow.status === 'completed';
    if (dealCompleted && options.completeDeal) await this.deps.deals.recordCompleted(tx, deal.id);
    await this.deps.wallets.moveFromEscrow(tx, 'escrow_release', {
      userId: deal.dealmakerId,
      dealId: deal.id,
      milestoneId: milestone.id,
      amountCents: milestone.amountCents,
      description: name
        ? `Payment received for "${deal.title}": ${name}`
        : `Payment received for "${deal.title}"`,
    });
    return { escrow, milestone, dealCompleted };
  }

  /**
   * Releases every funded milestone not released yet to the dealmaker (the second "finished" mark: the
   * caller holds the deal and escrow locks and has checked that every milestone is funded) and
   * completes the escrow. Answers the escrow after it and how much was released now.
   */
  async releaseAll(
    tx: Tx,
    deal: DealRow,
    escrow: EscrowRow,
  ): Promise<{ escrow: EscrowRow; releasedCents: number }> {
    if (escrow.status !== 'locked' || deal.dealmakerId === null) {
      throw new Error(`escrow of deal ${deal.id} is not ready for release`);
    }
    const milestones = await this.lockMilestones(tx, deal.id);
    const view = await this.deps.deals.publicView(deal.id, tx);
    let locked: LockedEscrow = { deal, escrow, milestones, view };
    let releasedCents = 0;
    for (const milestone of milestones.filter(isHeld)) {
      // The caller records the completion with the dealers' marks.
      const released = await this.releaseMilestone(tx, locked, milestone, { completeDeal: false });
      releasedCents += milestone.amountCents;
      locked = {
        ...locked,
        escrow: released.escrow,
        milestones: locked.milestones.map((each) => (each.id === milestone.id ? released.milestone : each)),
      };
    }
    return { escrow: locked.escrow, releasedCents };
  }

  /**
   * Pays the escrow's held money (its funded milestones not released) out as a settlement says — to the
   * dealmaker (payment_received) and back to each dealer (escrow_refund) — and marks it settled: the
   * held milestones settled, the others refunded (a share waiting alone goes back to its payer). The
   * caller holds the deal and escrow locks and has checked the rules; the wallets are moved in ascending
   * user id (the lock order). 409 when the held money changed since the split was proposed.
   */
  async settle(
    tx: Tx,
    deal: DealRow,
    escrow: EscrowRow,
    split: { toDealmakerCents: number; refundToCreatorCents: number; refundToCounterpartCents: number },
  ): Promise<{ escrow: EscrowRow; milestones: MilestoneRow[] }> {
    if (escrow.heldCents === 0 || deal.dealmakerId === null || deal.counterpartId === null) {
      throw new Error(`escrow of deal ${deal.id} is not ready for a settlement`);
    }
    if (
      split.toDealmakerCents + split.refundToCreatorCents + split.refundToCounterpartCents !==
      escrow.heldCents
    ) {
      throw conflict(
        `The escrow now holds ${formatUsdCents(escrow.heldCents)}, not what this settlement splits: propose it again.`,
      );
    }
    const milestones = await this.lockMilestones(tx, deal.id);
    const changed: MilestoneRow[] = [];
    for (const milestone of milestones) {
      if (milestone.status === 'open' && (milestone.creatorPaid || milestone.counterpartPaid)) {
        // A share waiting alone for the other goes back to its payer: it was never funded.
        const side: DealerSide = milestone.creatorPaid ? 'creator' : 'counterpart';
        await this.deps.wallets.moveFromEscrow(tx, 'escrow_refund', {
          userId: side === 'creator' ? deal.creatorId : deal.counterpartId,
          dealId: deal.id,
          milestoneId: milestone.id,
          amountCents: shareOf(milestone, side),
          description: `Escrow refund for "${deal.title}": the deal was settled before ${
            milestoneName(milestone, milestones.length) ?? 'the escrow'
          } was funded`,
        });
      }
      if (milestone.status !== 'released') {
        const row = await milestonesRepository.update(tx, milestone.id, {
          status: isHeld(milestone) ? 'settled' : 'refunded',
          ...(isHeld(milestone) ? {} : { creatorPaid: false, counterpartPaid: false }),
          loneHalfExpiresAt: null,
          autoReleaseAt: null,
        });
        changed.push(row);
      }
    }
    const movements = [
      { userId: deal.dealmakerId, kind: 'escrow_release' as const, amountCents: split.toDealmakerCents },
      { userId: deal.creatorId, kind: 'escrow_refund' as const, amountCents: split.refundToCreatorCents },
      {
        userId: deal.counterpartId,
        kind: 'escrow_refund' as const,
        amountCents: split.refundToCounterpartCents,
      },
    ].sort((a, b) => a.userId - b.userId);
    for (const movement of movements) {
      await this.deps.wallets.moveFromEscrow(tx, movement.kind, {
        userId: movement.userId,
        dealId: deal.id,
        milestoneId: null,
        amountCents: movement.amountCents,
        description:
          movement.kind === 'escrow_release'
            ? `Payment received for "${deal.title}" (settlement)`
            : `Escrow settlement refund for "${deal.title}"`,
      });
    }
    const settled = await escrowRepository.update(tx, deal.id, {
      status: 'settled',
      releasedAt: new Date(),
      creatorPaid: true,
      counterpartPaid: true,
      loneHalfExpiresAt: null,
      heldCents: 0,
      heldCreatorShareCents: 0,
    });
    return { escrow: settled, milestones: changed };
  }

  /** Writes the escrow row as the sum of its milestones, `changed` replacing its old row. */
  async sync(tx: Tx, locked: Pick<LockedEscrow, 'deal' | 'escrow' | 'milestones'>, changed: MilestoneRow) {
    const milestones = locked.milestones.map((milestone) =>
      milestone.id === changed.id ? changed : milestone,
    );
    locked.milestones.splice(0, locked.milestones.length, ...milestones);
    const escrow = await escrowRepository.setSum(tx, locked.deal.id, escrowSumOf(locked.escrow, milestones));
    locked.escrow = escrow;
    return escrow;
  }

  /** 'escrow-updated' to the deal's participants (their user rooms), and the changed milestones. */
  publish(deal: DealRow, escrow: EscrowRow, milestones: MilestoneRow[] = []) {
    this.deps.events.publish({ users: participantIds(deal) }, 'escrow-updated', {
      dealId: deal.id,
      data: presentEscrow(escrow),
      updateType: 'updated',
    });
    for (const milestone of milestones) this.publishMilestone(deal, milestone, 'updated');
  }

  /**
   * 'milestone-updated' to the deal's room: the milestone's public fields (its `can` is each viewer's:
   * a client asks GET /api/deals/{dealId}/milestones again) or a plan proposal.
   */
  publishMilestone(deal: DealRow, data: MilestoneRow | MilestonePlan, updateType: MilestoneUpdateType) {
    this.deps.events.publish({ deals: [deal.id] }, 'milestone-updated', {
      dealId: deal.id,
      data: 'position' in data ? presentMilestone(data, nothingAllowed) : data,
      updateType,
    });
  }
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
