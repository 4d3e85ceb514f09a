import {
  type NewProgressItem,
  type ProgressItem,
  type ProgressStatus,
  progressTransitions,
} from '../../../contract/collaboration';
import type { Db } from '../../db/client';
import { conflict, forbidden, notFound } from '../../lib/errors';
import type { EventPublisher } from '../../realtime/publisher';
import { participantIds } from '../deals/deal-roles';
import type { DealRow } from '../deals/deals.repository';
import type { DealsService } from '../deals/deals.service';
import { presentProgressItem } from './progress.presenter';
import { progressRepository } from './progress.repository';

const statusWords: Record<ProgressStatus, string> = {
  pending: 'pending',
  in_progress: 'in progress',
  completed: 'completed',
};

function requireDealmakerOfOpenDeal(deal: DealRow, userId: number) {
  if (deal.dealmakerId !== userId)
    throw forbidden('Only the dealmaker of this deal can manage its progress.');
  if (deal.isCompleted) throw conflict('This deal is completed; its progress can no longer change.');
}

/** The dealmaker's milestones on a deal (DESIGN.md §5 Progress). */
export class ProgressService {
  constructor(
    private readonly db: Db,
    private readonly deals: DealsService,
    private readonly events: EventPublisher,
  ) {}

  async create(userId: number, input: NewProgressItem) {
    const { item, deal } = await this.db.transaction(async (tx) => {
      const deal = await this.deals.lock(tx, input.dealId);
      requireDealmakerOfOpenDeal(deal, userId);
      const row = await progressRepository.append(tx, {
        dealId: deal.id,
        title: input.title,
        description: input.description,
      });
      return { deal, item: presentProgressItem((await progressRepository.view(tx, row.id))!) };
    });
    this.publish(deal, item, 'created');
    return item;
  }

  async listOfDeal(dealId: number, viewerId: number) {
    await this.deals.requireParticipant(this.db, dealId, viewerId);
    return (await progressRepository.listOfDeal(this.db, dealId)).map(presentProgressItem);
  }

  async changeStatus(itemId: number, userId: number, status: ProgressStatus) {
    const existing = await progressRepository.findById(this.db, itemId);
    if (!existing) throw notFound('Progress item not found.');
    const { item, deal } = await this.db.transaction(async (tx) => {
      const deal = await this.deals.lock(tx, existing.dealId);
      requireDealmakerOfOpenDeal(deal, userId);
      const current = (await progressRepository.lock(tx, itemId))!;
      const from = current.status as ProgressStatus;
      if (!progressTransitions[from].includes(status)) {
        throw conflict(`A ${statusWords[from]} item cannot be moved to ${statusWords[status]}.`);
      }
      const done = status === 'completed';
      await progressRepository.update(tx, itemId, {
        status,
        completedAt: done ? new Date() : null,
        completedById: done ? userId : null,
      });
      return { deal, item: presentProgressItem((await progressRepository.view(tx, itemId))!) };
    });
    this.publish(deal, item, 'updated');
    if (status === 'completed') {
      this.events.notify([deal.creatorId, deal.counterpartId], {
        kind: 'progress-completed',
        dealId: deal.id,
        message: `Step ${item.position} "${item.title}" of "${deal.title}" is completed.`,
      });
    }
    return item;
  }

  private publish(deal: DealRow, item: ProgressItem, updateType: 'created' | 'updated') {
    this.events.publish({ users: participantIds(deal) }, 'progress-updated', {
      dealId: deal.id,
      data: item,
      updateType,
    });
  }
}
