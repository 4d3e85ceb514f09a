import type { Dispute, NewDispute } from '../../../contract/collaboration';
import type { Db, DbOrTx } from '../../db/client';
import { conflict, forbidden, notFound } from '../../lib/errors';
import type { EventPublisher } from '../../realtime/publisher';
import { isDealer, participantIds } from '../deals/deal-roles';
import type { DealRow } from '../deals/deals.repository';
import type { DealsService } from '../deals/deals.service';
import { presentDispute } from './disputes.presenter';
import { disputesRepository } from './disputes.repository';

/** Dealers raise disputes once a dealmaker exists; the dealmaker resolves them (DESIGN.md §5 Disputes). */
export class DisputesService {
  constructor(
    private readonly db: Db,
    private readonly deals: DealsService,
    private readonly events: EventPublisher,
  ) {}

  async raise(userId: number, input: NewDispute) {
    const { deal, dispute } = await this.db.transaction(async (tx) => {
      const deal = await this.deals.lock(tx, input.dealId);
      if (!isDealer(deal, userId)) throw forbidden('Only the dealers of this deal can raise a dispute.');
      if (deal.dealmakerId === null) throw conflict('A dispute can be raised once the deal has a dealmaker.');
      if (deal.isCompleted) throw conflict('This deal is already completed.');
      const row = await disputesRepository.insert(tx, {
        dealId: deal.id,
        title: input.title,
        description: input.description,
        raisedById: userId,
      });
      return { deal, dispute: presentDispute((await disputesRepository.view(tx, row.id))!) };
    });
    this.publish(deal, dispute, 'created');
    this.events.notify(
      participantIds(deal).filter((id) => id !== userId),
      {
        kind: 'dispute-raised',
        dealId: deal.id,
        message: `${dispute.raisedByUsername} raised a dispute on "${deal.title}": ${dispute.title}`,
      },
    );
    return dispute;
  }

  async listOfDeal(dealId: number, viewerId: number) {
    await this.deals.requireParticipant(this.db, dealId, viewerId);
    return (await disputesRepository.listOfDeal(this.db, dealId)).map(presentDispute);
  }

  async resolve(disputeId: number, userId: number, resolution: string) {
    const existing = await disputesRepository.findById(this.db, disputeId);
    if (!existing) throw notFound('Dispute not found.');
    const { deal, dispute } = await this.db.transaction(async (tx) => {
      // Deal first, then dispute: marking a deal finished checks disputes under the same deal lock.
      const deal = await this.deals.lock(tx, existing.dealId);
      if (deal.dealmakerId !== userId)
        throw forbidden('Only the dealmaker of this deal can resolve its disputes.');
      const current = (await disputesRepository.lock(tx, disputeId))!;
      if (current.status !== 'open') throw conflict('This dispute is not open.');
      await disputesRepository.resolve(tx, disputeId, { resolution, resolvedById: userId });
      return { deal, dispute: presentDispute((await disputesRepository.view(tx, disputeId))!) };
    });
    this.publish(deal, dispute, 'updated');
    this.events.notify([deal.creatorId, deal.counterpartId], {
      kind: 'dispute-resolved',
      dealId: deal.id,
      message: `The dispute "${dispute.title}" on "${deal.title}" was resolved.`,
    });
    return dispute;
  }

  /** Whether the deal has an open dispute: a deal cannot be marked finished while it does. */
  async hasOpenDispute(tx: DbOrTx, dealId: number): Promise<boolean> {
    return disputesRepository.hasOpen(tx, dealId);
  }

  private publish(deal: DealRow, dispute: Dispute, updateType: 'created' | 'updated') {
    this.events.publish({ users: participantIds(deal) }, 'dispute-updated', {
      dealId: deal.id,
      data: dispute,
      updateType,
    });
  }
}
