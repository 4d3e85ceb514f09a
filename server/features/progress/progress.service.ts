import type { PublicDeal } from '../../../contract/deals';
import {
  type NewProgressItem,
  type ProgressItem,
  type ProgressStatus,
  progressTransitions,
} from '../../../contract/progress';
import type { DealAccess } from '../../core/deal/deal-access';
import { requireMayManageProgress } from '../../core/deal/deal-policy';
import { participantIds } from '../../core/deal/deal-roles';
import type { Db } from '../../db/client';
import type { DealRow } from '../../db/schema';
import type { Transact } from '../../db/transaction';
import { conflict, notFound } from '../../lib/errors';
import type { EventPublisher } from '../../lib/events';
import type { TimelineService } from '../timeline/timeline.service';
import { presentProgressItem } from './progress.presenter';
import { progressRepository } from './progress.repository';

const statusWords: Record<ProgressStatus, string> = {
  pending: 'pending',
  in_progress: 'in progress',
  completed: 'completed',
};

/** The dealmaker's progress steps on a deal (DESIGN.md §5 Progress). */
export class ProgressService {
  constructor(
    private readonly deps: {
      db: Db;
      transact: Transact;
      deals: DealAccess;
      timeline: TimelineService;
      events: EventPublisher;
    },
  ) {}

  create(userId: number, input: NewProgressItem) {
    return this.deps.transact(async (tx, afterCommit) => {
      const deal = await this.deps.deals.lock(tx, input.dealId);
      requireMayManageProgress(deal, userId);
      const row = await progressRepository.append(tx, {
        dealId: deal.id,
        title: input.title,
        description: input.description,
      });
      const item = presentProgressItem((await progressRepository.view(tx, row.id))!);
      await this.deps.timeline.record(tx, afterCommit, {
        dealId: deal.id,
        actorId: userId,
        event: {
          kind: 'progress-added',
          message: `The dealmaker added step ${item.position} "${item.title}".`,
          details: { itemId: item.id },
        },
        notify: [
          {
            to: [deal.creatorId, deal.counterpartId],
            kind: 'progress-added',
            message: `The dealmaker added step ${item.position} "${item.title}" to "${deal.title}".`,
          },
        ],
      });
      const view = await this.deps.deals.publicView(deal.id, tx);
      afterCommit(() => this.publish(deal, view, item, 'created'));
      return item;
    });
  }

  async listOfDeal(dealId: number, viewerId: number) {
    await this.deps.deals.findAsParticipant(dealId, viewerId);
    return (await progressRepository.listOfDeal(this.deps.db, dealId)).map(presentProgressItem);
  }

  async changeStatus(itemId: number, userId: number, status: ProgressStatus) {
    const existing = await progressRepository.findById(this.deps.db, itemId);
    if (!existing) throw notFound('Progress item not found.');
    return this.deps.transact(async (tx, afterCommit) => {
      const deal = await this.deps.deals.lock(tx, existing.dealId);
      requireMayManageProgress(deal, userId);
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
      const item = presentProgressItem((await progressRepository.view(tx, itemId))!);
      const step = `Step ${item.position} "${item.title}"`;
      await this.deps.timeline.record(tx, afterCommit, {
        dealId: deal.id,
        actorId: userId,
        event: {
          kind: 'progress-moved',
          message: `${step} moved from ${statusWords[from]} to ${statusWords[status]}.`,
          details: { itemId, from, to: status },
        },
        notify: [
          {
            to: [deal.creatorId, deal.counterpartId],
            kind: done ? 'progress-completed' : 'progress-moved',
            message: done
              ? `${step} of "${deal.title}" is completed.`
              : `${step} of "${deal.title}" is now ${statusWords[status]}.`,
          },
        ],
      });
      const view = await this.deps.deals.publicView(deal.id, tx);
      afterCommit(() => this.publish(deal, view, item, 'updated'));
      return item;
    });
  }

  /** The item under `data`, and the deal under `progressData` for the original client (contract/realtime.ts). */
  private publish(deal: DealRow, view: PublicDeal, item: ProgressItem, updateType: 'created' | 'updated') {
    this.deps.events.publish({ users: participantIds(deal) }, 'progress-updated', {
      dealId: deal.id,
      data: item,
      updateType,
      progressData: view,
    });
  }
}
