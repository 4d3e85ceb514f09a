import type { PublicDeal } from '../../../contract/deals';
import {
  type EscrowActionResponse,
  type EscrowStatusResponse,
  escrowMessages,
  splitEscrow,
} from '../../../contract/escrow';
import { formatUsdCents } from '../../../contract/money';
import type { DealAccess } from '../../core/deal/deal-access';
import { isProtected, requireMayPayEscrow, requireMayRefundEscrow } from '../../core/deal/deal-policy';
import { type DealerSide, dealerNameOf, otherDealerOf, participantIds } from '../../core/deal/deal-roles';
import type { Db, DbOrTx, Tx } from '../../db/client';
import type { DealRow, EscrowRow } from '../../db/schema';
import type { AfterCommit, Transact } from '../../db/transaction';
import type { EventPublisher } from '../../lib/events';
import { type Answer, type IdempotencyRequest, idempotent, type Outcome } from '../../lib/idempotency';
import type { Jobs } from '../../lib/jobs';
import type { TimelineService } from '../timeline/timeline.service';
import { presentWallet } from '../wallet/wallet.presenter';
import type { WalletService } from '../wallet/wallet.service';
import { presentEscrow } from './escrow.presenter';
import { escrowRepository } from './escrow.repository';

const shareOf = (escrow: EscrowRow, side: DealerSide) =>
  side === 'creator' ? escrow.creatorShareCents : escrow.counterpartShareCents;
const paidBy = (escrow: EscrowRow, side: DealerSide) =>
  side === 'creator' ? escrow.creatorPaid : escrow.counterpartPaid;

/** 72 hours, 1.5 hours, 36 seconds: a deadline as people read it. */
function formatHours(ms: number) {
  const hours = ms / 3_600_000;
  if (hours >= 1) return `${Number(hours.toFixed(2))} hour${hours === 1 ? '' : 's'}`;
  const seconds = Math.round(ms / 1000);
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

/**
 * The escrow of each deal that has a dealmaker (DESIGN.md §5 Escrow): it is
 * opened in the transaction that assigns the dealmaker; each dealer pays their
 * half from their wallet, may take it back while the escrow is not locked, and
 * the whole amount goes to the dealmaker when the deal completes (see
 * CompletionService).
 *
 * Every movement runs in one transaction that locks, in this order, the
 * idempotency key, the deal, the escrow and the wallet; events go out after
 * the commit.
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

  /**
   * Opens the escrow of a deal that has just been given its dealmaker, in the
   * same transaction: its amount is the budget at that moment, which no longer
   * changes once a dealmaker is assigned.
   */
  open(tx: Tx, dealId: number, amountCents: number): Promise<EscrowRow> {
    return escrowRepository.insert(tx, { dealId, amountCents, ...splitEscrow(amountCents) });
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

  /** POST /wallet/escrow/{dealId}/lock: the caller pays their own half from their wallet. */
  pay(dealId: number, userId: number, idempotency?: IdempotencyRequest) {
    return this.halfMovement(dealId, userId, idempotency, async (tx, afterCommit, { deal, escrow, view }) => {
      const side = requireMayPayEscrow(deal, userId, escrow);
      if (!escrow) throw new Error(`deal ${dealId} has a dealmaker but no escrow`);
      const share = shareOf(escrow, side);
      const locked = paidBy(escrow, side === 'creator' ? 'counterpart' : 'creator');
      // A half that waits alone is refunded by itself unless the other comes in time.
      const loneHalfExpiresAt = locked ? null : new Date(Date.now() + this.deps.deadlines.halfTimeoutMs);
      const updated = await escrowRepository.setHalves(tx, dealId, {
        creatorPaid: side === 'creator' || escrow.creatorPaid,
        counterpartPaid: side === 'counterpart' || escrow.counterpartPaid,
        status: locked ? 'locked' : 'pending',
        loneHalfExpiresAt,
      });
      if (loneHalfExpiresAt) {
        await this.deps.deadlines.jobs.schedule(tx, 'escrow-half-expiry', { dealId }, loneHalfExpiresAt);
      }
      const dealer = dealerNameOf(view, side);
      await this.deps.timeline.record(tx, afterCommit, {
        dealId,
        actorId: userId,
        event: {
          kind: 'half-paid',
          message: `${dealer} paid their half (${formatUsdCents(share)}) into escrow.`,
          details: { amountCents: share },
        },
        notify: locked
          ? []
          : [
              {
                to: [otherDealerOf(deal, side)],
                kind: 'escrow-paid',
                message: `${dealer} paid their half (${formatUsdCents(share)}) into the escrow of "${deal.title}": yours is awaited.`,
              },
            ],
      });
      if (locked) {
        const amount = formatUsdCents(updated.amountCents);
        await this.deps.timeline.record(tx, afterCommit, {
          dealId,
          actorId: userId,
          event: {
            kind: 'locked',
            message: `Both halves are paid: ${amount} is locked in escrow until the deal is completed.`,
            details: { amountCents: updated.amountCents },
          },
          notify: [
            {
              to: participantIds(deal),
              kind: 'escrow-locked',
              message: `Both halves are paid: ${amount} is locked in escrow for "${deal.title}" until the deal is completed.`,
            },
          ],
        });
      }
      // The wallet last: its row is the most contended lock, held from here to the commit.
      const wallet = await this.deps.wallets.moveToEscrow(tx, {
        userId,
        dealId,
        amountCents: share,
        description: `Escrow payment for "${deal.title}"`,
      });
      const answer = {
        statusCode: 200,
        body: {
          message: locked
            ? escrowMessages.locked
            : `Your half (${formatUsdCents(share)}) has been paid successfully. Waiting for the other party.`,
          escrow: presentEscrow(updated),
          wallet: presentWallet(wallet),
        },
      };
      return { answer, escrow: updated };
    });
  }

  /** POST /wallet/escrow/{dealId}/refund: the caller takes their half back while the escrow is not locked. */
  refund(dealId: number, userId: number, idempotency?: IdempotencyRequest) {
    return this.halfMovement(dealId, userId, idempotency, async (tx, afterCommit, { deal, escrow, view }) => {
      const side = requireMayRefundEscrow(deal, userId, escrow);
      if (!escrow) throw new Error(`deal ${dealId}: a refund was allowed without an escrow`);
      const share = shareOf(escrow, side);
      const updated = await escrowRepository.setHalves(tx, dealId, {
        creatorPaid: side !== 'creator' && escrow.creatorPaid,
        counterpartPaid: side !== 'counterpart' && escrow.counterpartPaid,
        status: escrow.status,
        loneHalfExpiresAt: null,
      });
      const dealer = dealerNameOf(view, side);
      await this.deps.timeline.record(tx, afterCommit, {
        dealId,
        actorId: userId,
        event: {
          kind: 'half-refunded',
          message: `${dealer} took their half (${formatUsdCents(share)}) back from escrow.`,
          details: { amountCents: share },
        },
        notify: [
          {
            to: [otherDealerOf(deal, side)],
            kind: 'escrow-refunded',
            message: `${dealer} took their half (${formatUsdCents(share)}) back from the escrow of "${deal.title}".`,
          },
        ],
      });
      // The wallet last: its row is the most contended lock, held from here to the commit.
      const wallet = await this.deps.wallets.moveFromEscrow(tx, 'escrow_refund', {
        userId,
        dealId,
        amountCents: share,
        description: `Escrow refund for "${deal.title}"`,
      });
      const answer = {
        statusCode: 200,
        body: {
          message: `Your half (${formatUsdCents(share)}) has been refunded to your wallet.`,
          escrow: presentEscrow(updated),
          wallet: presentWallet(wallet),
        },
      };
      return { answer, escrow: updated };
    });
  }

  /**
   * A dealer's half going in or out: one transaction, at most once per
   * Idempotency-Key, with the deal and then its escrow locked (the lock order
   * of every money call) by one statement that also reads the deal's public
   * view. After the commit the escrow goes to the participants and the deal
   * to everyone, since whether a half is paid shows on every deal card
   * (protected or not).
   */
  private halfMovement(
    dealId: number,
    userId: number,
    idempotency: IdempotencyRequest | undefined,
    work: (
      tx: Tx,
      afterCommit: AfterCommit,
      locked: { deal: DealRow; escrow: EscrowRow | undefined; view: PublicDeal },
    ) => Promise<{ answer: Answer<EscrowActionResponse>; escrow: EscrowRow }>,
  ): Promise<Outcome<EscrowActionResponse>> {
    return this.deps.transact((tx, afterCommit) =>
      idempotent(tx, userId, idempotency, async () => {
        const { deal, escrow, publicView } = await this.deps.deals.lockWithEscrow(tx, dealId);
        const changed: { escrow?: EscrowRow } = {};
        afterCommit(() => {
          this.publish(deal, changed.escrow!);
          this.deps.deals.announce({ ...publicView, escrow_paid: isProtected(changed.escrow) }, 'updated');
        });
        const result = await work(tx, afterCommit, { deal, escrow, view: publicView });
        changed.escrow = result.escrow;
        return result.answer;
      }),
    );
  }

  /**
   * The deadline of a lone half (a job): refunds it to its payer when the
   * other half has not come in time. Does nothing when the deadline no longer
   * holds (the other half came, the half was taken back, or paid again later
   * with a deadline of its own); a job that runs a moment early is put off to
   * the deadline.
   */
  async expireLoneHalf(dealId: number) {
    await this.deps.transact(async (tx, afterCommit) => {
      const deal = await this.deps.deals.lockIfExists(tx, dealId);
      const escrow = deal && (await this.lock(tx, dealId));
      if (!deal || !escrow?.loneHalfExpiresAt || escrow.status !== 'pending') return;
      const waitMs = escrow.loneHalfExpiresAt.getTime() - Date.now();
      if (waitMs > 0) {
        // A later payment's deadline has a job of its own; only a job run early by clock skew reschedules.
        if (waitMs < 60_000) {
          await this.deps.deadlines.jobs.schedule(
            tx,
            'escrow-half-expiry',
            { dealId },
            escrow.loneHalfExpiresAt,
          );
        }
        return;
      }
      const side: DealerSide = escrow.creatorPaid ? 'creator' : 'counterpart';
      const payerId = side === 'creator' ? deal.creatorId : deal.counterpartId;
      if (payerId === null || !paidBy(escrow, side)) return;
      const share = shareOf(escrow, side);
      const hours = formatHours(this.deps.deadlines.halfTimeoutMs);
      const updated = await escrowRepository.setHalves(tx, dealId, {
        creatorPaid: side !== 'creator' && escrow.creatorPaid,
        counterpartPaid: side !== 'counterpart' && escrow.counterpartPaid,
        status: escrow.status,
        loneHalfExpiresAt: null,
      });
      await this.deps.wallets.moveFromEscrow(tx, 'escrow_refund', {
        userId: payerId,
        dealId,
        amountCents: share,
        description: `Escrow half refunded for "${deal.title}": the other dealer did not pay within ${hours}`,
      });
      const view = await this.deps.deals.present(dealId, 0, tx);
      const amount = `${formatUsdCents(share)}`;
      await this.deps.timeline.record(tx, afterCommit, {
        dealId,
        actorId: null,
        event: {
          kind: 'half-expired',
          message: `${dealerNameOf(view, side)}'s half (${amount}) waited ${hours} for the other and was refunded.`,
          details: { amountCents: share },
        },
        notify: [
          {
            to: [payerId],
            kind: 'escrow-expired',
            message: `Your half (${amount}) of the escrow of "${deal.title}" was refunded to your wallet: the other dealer did not pay within ${hours}.`,
          },
          {
            to: [otherDealerOf(deal, side)],
            kind: 'escrow-expired',
            message: `The other dealer's half (${amount}) of the escrow of "${deal.title}" was refunded: yours did not come within ${hours}.`,
          },
        ],
      });
      afterCommit(() => {
        this.publish(deal, updated);
        this.deps.deals.announce({ ...view, escrow_paid: false }, 'updated');
      });
    });
  }

  /**
   * Pays a locked escrow out as a settlement says — to the dealmaker
   * (payment_received) and back to each dealer (escrow_refund) — and marks it
   * settled. The caller holds the deal and escrow locks and has checked the
   * rules; the wallets are moved in ascending user id (the lock order).
   */
  async settle(
    tx: Tx,
    deal: DealRow,
    escrow: EscrowRow,
    split: { toDealmakerCents: number; refundToCreatorCents: number; refundToCounterpartCents: number },
  ): Promise<EscrowRow> {
    if (escrow.status !== 'locked' || deal.dealmakerId === null || deal.counterpartId === null) {
      throw new Error(`escrow of deal ${deal.id} is not ready for a settlement`);
    }
    if (
      split.toDealmakerCents + split.refundToCreatorCents + split.refundToCounterpartCents !==
      escrow.amountCents
    ) {
      throw new Error(`settlement of deal ${deal.id} does not add up to its escrow`);
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
        amountCents: movement.amountCents,
        description:
          movement.kind === 'escrow_release'
            ? `Payment received for "${deal.title}" (settlement)`
            : `Escrow settlement refund for "${deal.title}"`,
      });
    }
    return escrowRepository.update(tx, deal.id, { status: 'settled', releasedAt: new Date() });
  }

  /**
   * Releases a locked escrow to the deal's dealmaker: one transfer
   * escrow → dealmaker's wallet (payment_received), escrow `completed`.
   * The caller holds the deal and escrow locks and has checked the rules.
   */
  async release(tx: Tx, deal: DealRow, escrow: EscrowRow): Promise<EscrowRow> {
    if (escrow.status !== 'locked' || deal.dealmakerId === null) {
      throw new Error(`escrow of deal ${deal.id} is not ready for release`);
    }
    await this.deps.wallets.moveFromEscrow(tx, 'escrow_release', {
      userId: deal.dealmakerId,
      dealId: deal.id,
      amountCents: escrow.amountCents,
      description: `Payment received for "${deal.title}"`,
    });
    return escrowRepository.update(tx, deal.id, { status: 'completed', releasedAt: new Date() });
  }

  /** 'escrow-updated' to the deal's participants (their user rooms). */
  publish(deal: DealRow, escrow: EscrowRow) {
    this.deps.events.publish({ users: participantIds(deal) }, 'escrow-updated', {
      dealId: deal.id,
      data: presentEscrow(escrow),
      updateType: 'updated',
    });
  }
}
