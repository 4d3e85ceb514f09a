import type { Dispute } from '../../../contract/disputes';
import { splitSettlement } from '../../../contract/escrow';
import { formatUsdCents } from '../../../contract/money';
import type { Proposal } from '../../../contract/settlements';
import type { DealAccess } from '../../core/deal/deal-access';
import { requireMaySettle, requireOperatorMaySettle } from '../../core/deal/deal-policy';
import { participantIds } from '../../core/deal/deal-roles';
import type { Db, Tx } from '../../db/client';
import type { DealRow, DisputeRow, EscrowRow, SettlementProposalRow } from '../../db/schema';
import type { AfterCommit, Transact } from '../../db/transaction';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import type { AuditService } from '../audit/audit.service';
import type { EscrowService } from '../escrow/escrow.service';
import type { TimelineService } from '../timeline/timeline.service';
import type { UsersService } from '../users/users.service';
import { disputesRepository } from './disputes.repository';
import type { DisputesService } from './disputes.service';
import { presentProposal } from './settlement.presenter';
import { settlementRepository } from './settlement.repository';

type Split = { toDealmakerCents: number; refundToCreatorCents: number; refundToCounterpartCents: number };
/** What one settlement call holds locked, in the lock order: deal → escrow → dispute. */
type Locked = { deal: DealRow; escrow: EscrowRow | undefined; dispute: DisputeRow };

const proposalNotFound = () => notFound('Proposal not found.');
const money = formatUsdCents;

/**
 * Settling a locked escrow while a dispute is open (contract/settlements.ts):
 * any participant proposes how much goes to the dealmaker, the rest goes back
 * to the dealers in proportion to what each paid; when all three have
 * accepted the same proposal — or an operator decides — the escrow is paid
 * out that way, the deal completes and its open disputes are resolved, all in
 * one transaction. The deal's lock makes it happen once however many accept
 * at the same moment; the settlements table's key (the deal) would refuse a
 * second one anyway.
 */
export class SettlementService {
  constructor(
    private readonly deps: {
      db: Db;
      transact: Transact;
      deals: DealAccess;
      escrow: EscrowService;
      disputes: DisputesService;
      users: UsersService;
      timeline: TimelineService;
      audit: AuditService;
    },
  ) {}

  /** POST /api/disputes/{id}/proposals: the proposer has accepted it by proposing; it supersedes the open one. */
  propose(disputeId: number, userId: number, toDealmakerCents: number): Promise<Proposal> {
    return this.withLocks(disputeId, async (tx, afterCommit, { deal, escrow, dispute }) => {
      requireMaySettle(deal, userId, escrow, dispute);
      const split = this.splitOf(escrow!, toDealmakerCents);
      const row = await settlementRepository.propose(tx, {
        disputeId,
        dealId: deal.id,
        proposedById: userId,
        ...split,
      });
      const proposer = await this.deps.users.getById(userId);
      await this.deps.timeline.record(tx, afterCommit, {
        dealId: deal.id,
        actorId: userId,
        event: {
          kind: 'settlement-proposed',
          message: `${proposer.username} proposed a settlement: ${await this.describe(deal, split)}.`,
          details: { disputeId, proposalId: row.id, ...split },
        },
        notify: [
          {
            to: participantIds(deal),
            kind: 'settlement-proposed',
            message: `${proposer.username} proposed a settlement of "${deal.title}": ${money(split.toDealmakerCents)} to the dealmaker, the rest back to the dealers. It needs everyone's acceptance.`,
          },
        ],
      });
      await this.announce(tx, afterCommit, deal, [disputeId]);
      return this.presentProposal(tx, disputeId, row.id);
    });
  }

  /** POST /api/disputes/{id}/proposals/{proposalId}/accept: the third acceptance settles. */
  accept(disputeId: number, proposalId: number, userId: number): Promise<Proposal> {
    return this.withLocks(disputeId, async (tx, afterCommit, locked) => {
      const { deal, escrow, dispute } = locked;
      requireMaySettle(deal, userId, escrow, dispute);
      const proposal = await this.lockProposal(tx, disputeId, proposalId);
      if (proposal.status !== 'open') throw conflict('This proposal is no longer open.');
      const acceptedBy = await settlementRepository.accept(tx, proposalId, userId);
      const everyone = participantIds(deal);
      if (everyone.every((id) => acceptedBy.includes(id))) {
        await settlementRepository.setStatus(tx, proposalId, 'accepted');
        const split = splitOfRow(proposal);
        await this.settle(tx, afterCommit, locked, split, {
          actorId: userId,
          proposalId,
          operatorId: null,
          resolution: `Settled by agreement: ${await this.describe(deal, split)}.`,
        });
      } else {
        const accepter = await this.deps.users.getById(userId);
        await this.deps.timeline.record(tx, afterCommit, {
          dealId: deal.id,
          actorId: userId,
          event: {
            kind: 'settlement-accepted',
            message: `${accepter.username} accepted the settlement proposal (${acceptedBy.length} of ${everyone.length}).`,
            details: { disputeId, proposalId },
          },
          notify: [
            {
              to: everyone.filter((id) => !acceptedBy.includes(id)),
              kind: 'settlement-accepted',
              message: `${accepter.username} accepted the settlement proposal on "${deal.title}": yours is awaited.`,
            },
          ],
        });
        await this.announce(tx, afterCommit, deal, [disputeId]);
      }
      return this.presentProposal(tx, disputeId, proposalId);
    });
  }

  /** POST /api/disputes/{id}/proposals/{proposalId}/withdraw: its proposer takes an open proposal back. */
  withdraw(disputeId: number, proposalId: number, userId: number): Promise<Proposal> {
    return this.withLocks(disputeId, async (tx, afterCommit, { deal }) => {
      const proposal = await this.lockProposal(tx, disputeId, proposalId);
      if (proposal.proposedById !== userId) throw forbidden('Only the proposer can withdraw this proposal.');
      if (proposal.status !== 'open') throw conflict('This proposal is no longer open.');
      await settlementRepository.setStatus(tx, proposalId, 'withdrawn');
      const proposer = await this.deps.users.getById(userId);
      await this.deps.timeline.record(tx, afterCommit, {
        dealId: deal.id,
        actorId: userId,
        event: {
          kind: 'settlement-withdrawn',
          message: `${proposer.username} withdrew their settlement proposal.`,
          details: { disputeId, proposalId },
        },
        notify: [
          {
            to: participantIds(deal),
            kind: 'settlement-withdrawn',
            message: `${proposer.username} withdrew their settlement proposal on "${deal.title}".`,
          },
        ],
      });
      await this.announce(tx, afterCommit, deal, [disputeId]);
      return this.presentProposal(tx, disputeId, proposalId);
    });
  }

  /**
   * POST /api/admin/disputes/{id}/settle: an operator settles an escalated dispute of a deal they take no
   * part in, as an agreed proposal would, with their text. A refusal moves nothing, but the attempt is
   * audited: an operator trying to decide their own deal is what the log is there to show.
   */
  async settleByOperator(
    disputeId: number,
    operator: { id: number; username: string },
    input: { toDealmaker: number; resolution: string },
  ) {
    const attempt: { dealId?: number } = {};
    try {
      return await this.settleLockedByOperator(disputeId, operator, input, attempt);
    } catch (error) {
      const refused = error instanceof AppError && (error.statusCode === 403 || error.statusCode === 409);
      if (refused && attempt.dealId !== undefined) {
        await this.deps.audit.record({
          action: 'operator.settle-refused',
          dealId: attempt.dealId,
          subject: `disputes:${disputeId}`,
          after: { toDealmakerCents: input.toDealmaker, refusal: error.message },
        });
      }
      throw error;
    }
  }

  private settleLockedByOperator(
    disputeId: number,
    operator: { id: number; username: string },
    input: { toDealmaker: number; resolution: string },
    attempt: { dealId?: number },
  ) {
    return this.withLocks(disputeId, async (tx, afterCommit, locked) => {
      attempt.dealId = locked.deal.id;
      requireOperatorMaySettle(locked.deal, operator.id, locked.escrow, locked.dispute);
      const split = this.splitOf(locked.escrow!, input.toDealmaker);
      await settlementRepository.closeOpen(tx, disputeId, 'superseded');
      await this.settle(tx, afterCommit, locked, split, {
        actorId: operator.id,
        proposalId: null,
        operatorId: operator.id,
        resolution: input.resolution,
      });
      await this.deps.audit.record(
        {
          action: 'operator.settle',
          dealId: locked.deal.id,
          subject: `disputes:${disputeId}`,
          before: { escrowStatus: locked.escrow!.status, disputeStatus: locked.dispute.status },
          after: { ...split, resolution: input.resolution },
        },
        tx,
      );
      return this.deps.disputes.present(tx, disputeId);
    });
  }

  /**
   * Pays the escrow out as `split` says, completes the deal, resolves its
   * open disputes (this one with `resolution`), supersedes their other open
   * proposals, records the settlement, and tells everyone.
   */
  private async settle(
    tx: Tx,
    afterCommit: AfterCommit,
    { deal, escrow, dispute }: Locked,
    split: Split,
    how: { actorId: number; proposalId: number | null; operatorId: number | null; resolution: string },
  ) {
    const settled = await this.deps.escrow.settle(tx, deal, escrow!, split);
    await this.deps.deals.recordCompleted(tx, deal.id);
    await settlementRepository.insertSettlement(tx, {
      dealId: deal.id,
      disputeId: dispute.id,
      proposalId: how.proposalId,
      operatorId: how.operatorId,
      ...split,
    });
    const open = await disputesRepository.openOfDeal(tx, deal.id);
    for (const other of open) {
      await disputesRepository.resolve(tx, other.id, {
        resolvedById: how.actorId,
        resolution:
          other.id === dispute.id
            ? how.resolution
            : `Closed by the settlement of the dispute "${dispute.title}": ${how.resolution}`,
      });
      await settlementRepository.closeOpen(tx, other.id, 'superseded');
    }
    const description = await this.describe(deal, split);
    await this.deps.timeline.record(tx, afterCommit, {
      dealId: deal.id,
      actorId: how.actorId,
      event: {
        kind: 'settled',
        message: `${how.operatorId ? 'An operator settled' : 'Everyone agreed:'} the escrow: ${description}. The deal is completed.`,
        details: { disputeId: dispute.id, proposalId: how.proposalId, ...split },
      },
      notify: [
        {
          to: participantIds(deal),
          kind: 'deal-settled',
          message: `"${deal.title}" was settled: ${description}.`,
        },
      ],
    });
    const view = await this.deps.deals.present(deal.id, 0, tx);
    afterCommit(() => {
      this.deps.escrow.publish(deal, settled.escrow, settled.milestones);
      this.deps.deals.announce(view, 'updated');
    });
    await this.announce(
      tx,
      afterCommit,
      deal,
      open.map((other) => other.id),
    );
  }

  /** Locks the dispute's deal, its escrow and the dispute, in the lock order, and runs `work` in that transaction. */
  private async withLocks<T>(
    disputeId: number,
    work: (tx: Tx, afterCommit: AfterCommit, locked: Locked) => Promise<T>,
  ): Promise<T> {
    const existing = await disputesRepository.findById(this.deps.db, disputeId);
    if (!existing) throw notFound('Dispute not found.');
    return this.deps.transact(async (tx, afterCommit) => {
      const deal = await this.deps.deals.lock(tx, existing.dealId);
      const escrow = await this.deps.escrow.lock(tx, deal.id);
      const dispute = (await disputesRepository.lock(tx, disputeId))!;
      return work(tx, afterCommit, { deal, escrow, dispute });
    });
  }

  private async lockProposal(tx: Tx, disputeId: number, proposalId: number) {
    const proposal = await settlementRepository.lock(tx, proposalId);
    if (!proposal || proposal.disputeId !== disputeId) throw proposalNotFound();
    return proposal;
  }

  /** The split of the escrow's held money (its funded milestones not released; with one milestone, all of it). */
  private splitOf(escrow: EscrowRow, toDealmakerCents: number): Split {
    if (toDealmakerCents > escrow.heldCents) {
      const message = `toDealmaker can be at most ${money(escrow.heldCents)}, the whole escrow.`;
      throw badRequest(message, { toDealmaker: [message] });
    }
    return splitSettlement(
      { amountCents: escrow.heldCents, creatorShareCents: escrow.heldCreatorShareCents },
      toDealmakerCents,
    );
  }

  /** "$600.00 to the dealmaker (mia), $200.00 back to alice, $200.00 back to bob". */
  private async describe(deal: DealRow, split: Split) {
    const [creator, counterpart, dealmaker] = await Promise.all(
      [deal.creatorId, deal.counterpartId!, deal.dealmakerId!].map((id) => this.deps.users.getById(id)),
    );
    return (
      `${money(split.toDealmakerCents)} to the dealmaker (${dealmaker!.username}), ` +
      `${money(split.refundToCreatorCents)} back to ${creator!.username}, ` +
      `${money(split.refundToCounterpartCents)} back to ${counterpart!.username}`
    );
  }

  private async presentProposal(tx: Tx, disputeId: number, proposalId: number) {
    const views = await settlementRepository.proposalsOf(tx, [disputeId]);
    return presentProposal(views.find((view) => view.proposal.id === proposalId)!);
  }

  /** After the commit: the changed disputes to the deal's participants. */
  private async announce(tx: Tx, afterCommit: AfterCommit, deal: DealRow, disputeIds: number[]) {
    const changed: Dispute[] = [];
    for (const id of disputeIds) changed.push(await this.deps.disputes.present(tx, id));
    afterCommit(() => {
      for (const dispute of changed) this.deps.disputes.publish(deal, dispute, 'updated');
    });
  }
}

const splitOfRow = (row: SettlementProposalRow): Split => ({
  toDealmakerCents: row.toDealmakerCents,
  refundToCreatorCents: row.refundToCreatorCents,
  refundToCounterpartCents: row.refundToCounterpartCents,
});
