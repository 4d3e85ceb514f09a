import type { FastifyBaseLogger } from 'fastify';
import type { Deal } from '../../../contract/deals';
import { formatCents } from '../../../contract/money';
import { type CompletionResponse, escrowMessages } from '../../../contract/wallet';
import type { Db } from '../../db/client';
import { conflict, forbidden } from '../../lib/errors';
import type { EventPublisher } from '../../realtime/publisher';
import type { DealRow } from '../deals/deals.repository';
import type { DealsService } from '../deals/deals.service';
import type { DisputesService } from '../disputes/disputes.service';
import type { EscrowRow } from './escrow.repository';
import { type DealerSide, dealerSideOf, type EscrowService } from './escrow.service';
import { publishAfterCommit, runTransaction } from './run-transaction';

/**
 * Marking a deal finished (DESIGN.md §5 Completion). It lives with the wallet
 * because its one consequence that matters is money: the second dealer's mark
 * completes the deal and releases the escrow to the dealmaker, in the same
 * transaction and under the same locks (deal → escrow → wallet) as payments.
 */
export class CompletionService {
  constructor(
    private readonly db: Db,
    private readonly deals: DealsService,
    private readonly escrow: EscrowService,
    private readonly disputes: DisputesService,
    private readonly events: EventPublisher,
    private readonly log: FastifyBaseLogger,
  ) {}

  async markFinished(dealId: number, userId: number): Promise<CompletionResponse> {
    const outcome = await runTransaction(this.db, async (tx) => {
      const deal = await this.deals.lock(tx, dealId);
      const side = dealerSideOf(deal, userId);
      if (!side) throw forbidden('Only the dealers of this deal can mark it as finished.');
      const present = () => this.deals.present(tx, dealId, userId);

      // Marking again changes nothing and is not an error (a double click, a retry).
      if (deal.isCompleted) {
        return { change: null, message: 'This deal is already completed.', deal: await present() };
      }
      if (side === 'creator' ? deal.completedByCreator : deal.completedByCounterpart) {
        return {
          change: null,
          message: 'You have already marked this deal as finished. Waiting for the other party.',
          deal: await present(),
        };
      }

      if (deal.dealmakerId === null) {
        throw conflict('This deal has no dealmaker yet, so it cannot be marked as finished.');
      }
      const escrow = await this.escrow.lock(tx, dealId);
      if (escrow?.status !== 'locked') {
        throw conflict(
          'Both dealers must pay their half into escrow before the deal can be marked as finished.',
        );
      }
      if (await this.disputes.hasOpenDispute(tx, dealId)) {
        throw conflict('Resolve the open dispute before marking the deal as finished.');
      }

      const completes = side === 'creator' ? deal.completedByCounterpart : deal.completedByCreator;
      await this.deals.recordFinished(tx, dealId, side, completes);
      const released = completes ? await this.escrow.release(tx, deal, escrow) : null;
      return {
        change: { before: deal, side, released },
        message: completes
          ? escrowMessages.released
          : 'You marked this deal as finished. Waiting for the other party to mark it too.',
        deal: await present(),
      };
    });

    const { change, message, deal } = outcome;
    if (change) publishAfterCommit(this.log, () => this.publish(dealId, deal, change));
    return { message, deal, isCompleted: deal.is_completed };
  }

  /** After the commit: the deal to everyone, the escrow to its participants, and a word to the people concerned. */
  private publish(
    dealId: number,
    deal: Deal,
    change: { before: DealRow; side: DealerSide; released: EscrowRow | null },
  ) {
    const { before, side, released } = change;
    this.deals.announce(deal, 'updated');
    if (released) {
      this.escrow.publish(before, released);
      this.events.notify([before.creatorId, before.counterpartId], {
        kind: 'escrow-released',
        dealId,
        message: `"${deal.title}" is completed: the escrow of $${formatCents(released.amountCents)} was released to the dealmaker.`,
      });
      this.events.notify([before.dealmakerId], {
        kind: 'payment-received',
        dealId,
        message: `You received $${formatCents(released.amountCents)} for "${deal.title}".`,
      });
    } else {
      this.events.notify([side === 'creator' ? before.counterpartId : before.creatorId], {
        kind: 'deal-marked-finished',
        dealId,
        message: `The other dealer marked "${deal.title}" as finished. Mark it too to release the escrow.`,
      });
    }
  }
}
