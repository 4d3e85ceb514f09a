import type { Deal } from '../../../contract/deals';
import { type CompletionResponse, escrowMessages } from '../../../contract/escrow';
import { formatUsdCents } from '../../../contract/money';
import type { DealAccess } from '../../core/deal/deal-access';
import { markedFinishedBy, requireFinishable, requireMayMarkFinished } from '../../core/deal/deal-policy';
import { type DealerSide, dealerNameOf, otherDealerOf } from '../../core/deal/deal-roles';
import type { Tx } from '../../db/client';
import type { DealRow } from '../../db/schema';
import type { AfterCommit, Transact } from '../../db/transaction';
import type { TimelineService } from '../timeline/timeline.service';
import type { EscrowService } from './escrow.service';

/**
 * Marking a deal finished (DESIGN.md §5 Completion). It lives with the escrow
 * because its one consequence that matters is money: the second dealer's mark
 * completes the deal and releases the escrow to the dealmaker, in the same
 * transaction and under the same locks (deal → escrow → wallet) as payments.
 */
export class CompletionService {
  constructor(
    private readonly deps: {
      transact: Transact;
      deals: DealAccess;
      escrow: EscrowService;
      timeline: TimelineService;
    },
  ) {}

  async markFinished(dealId: number, userId: number): Promise<CompletionResponse> {
    const { message, deal } = await this.deps.transact(async (tx, afterCommit) => {
      const before = await this.deps.deals.lock(tx, dealId);
      const side = requireMayMarkFinished(before, userId);
      const present = () => this.deps.deals.present(dealId, userId, tx);

      // Marking again changes nothing and is not an error (a double click, a retry).
      if (before.isCompleted) {
        return { message: 'This deal is already completed.', deal: await present() };
      }
      if (markedFinishedBy(before, side)) {
        return {
          message: 'You have already marked this deal as finished. Waiting for the other party.',
          deal: await present(),
        };
      }

      const escrow = await this.deps.escrow.lock(tx, dealId);
      requireFinishable(before, escrow, await this.deps.deals.hasOpenDispute(dealId, tx));
      const completes = side === 'creator' ? before.completedByCounterpart : before.completedByCreator;
      await this.deps.deals.recordFinished(tx, dealId, side, completes);
      const deal = await present();
      const releasedCents = completes ? escrow!.heldCents : null;
      await this.record(tx, afterCommit, { deal, before, side, userId, releasedCents });
      // The payout last: the dealmaker's wallet row is locked from here to the commit.
      const released = completes ? (await this.deps.escrow.releaseAll(tx, before, escrow!)).escrow : null;
      afterCommit(() => {
        this.deps.deals.announce(deal, 'updated');
        if (released) this.deps.escrow.publish(before, released);
      });
      return {
        message: completes
          ? escrowMessages.released
          : 'You marked this deal as finished. Waiting for the other party to mark it too.',
        deal,
      };
    });
    return { message, deal, isCompleted: deal.is_completed };
  }

  /** The mark (and the completion and payment it may make) on the timeline, and the word to the people concerned. */
  private async record(
    tx: Tx,
    afterCommit: AfterCommit,
    change: { deal: Deal; before: DealRow; side: DealerSide; userId: number; releasedCents: number | null },
  ) {
    const { deal, before, side, userId, releasedCents } = change;
    const dealer = dealerNameOf(deal, side);
    await this.deps.timeline.record(tx, afterCommit, {
      dealId: deal.id,
      actorId: userId,
      event: { kind: 'marked-finished', message: `${dealer} marked the deal as finished.` },
      notify:
        releasedCents !== null
          ? []
          : [
              {
                to: [otherDealerOf(before, side)],
                kind: 'deal-marked-finished',
                message: `${dealer} marked "${deal.title}" as finished. Mark it too to release the escrow.`,
              },
            ],
    });
    if (releasedCents === null) return;
    const amount = formatUsdCents(releasedCents);
    await this.deps.timeline.record(tx, afterCommit, {
      dealId: deal.id,
      actorId: userId,
      event: { kind: 'completed', message: 'Both dealers marked the deal as finished: it is completed.' },
      notify: [
        {
          to: [before.creatorId, before.counterpartId],
          kind: 'escrow-released',
          message: `"${deal.title}" is completed: the escrow of ${amount} was released to the dealmaker.`,
        },
        {
          to: [before.dealmakerId],
          kind: 'payment-received',
          message: `You received ${amount} for "${deal.title}".`,
        },
      ],
    });
    await this.deps.timeline.record(tx, afterCommit, {
      dealId: deal.id,
      actorId: null,
      event: {
        kind: 'paid-out',
        message: `The escrow of ${amount} was released to ${deal.dealmaker}.`,
        details: { amountCents: releasedCents },
      },
    });
  }
}
