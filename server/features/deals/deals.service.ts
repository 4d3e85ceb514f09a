import type { ActivityEntry, Deal, NewDeal } from '../../../contract/deals';
import { limits } from '../../../contract/limits';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { conflict, forbidden, notFound } from '../../lib/errors';
import type { EventPublisher } from '../../realtime/publisher';
import type { EscrowService } from '../wallet/escrow.service';
import { bidsRepository } from './bids.repository';
import { isParticipant, participantIds, roleOf } from './deal-roles';
import { presentDeal, publicDeal } from './deals.presenter';
import { type DealRow, dealsRepository } from './deals.repository';

const dealNotFound = () => notFound('Deal not found.');

/** Deals: posting, browsing, joining, leaving and deleting (DESIGN.md §5 Deals). */
export class DealsService {
  constructor(
    private readonly db: Db,
    private readonly escrow: EscrowService,
    private readonly events: EventPublisher,
  ) {}

  async create(creatorId: number, input: NewDeal) {
    const { title, description, budget, timeline } = input;
    const row = await dealsRepository.insert(this.db, {
      title,
      description,
      budgetCents: budget,
      timeline,
      creatorId,
    });
    const deal = await this.present(this.db, row.id, creatorId);
    this.events.publish({ everyone: true }, 'deal-updated', {
      dealId: deal.id,
      data: publicDeal(deal),
      updateType: 'created',
    });
    return deal;
  }

  async list(viewerId: number, options: { keyword?: string; limit?: number; before?: number }) {
    const rows = await dealsRepository.list(this.db, viewerId, {
      keyword: options.keyword,
      beforeId: options.before,
      limit: Math.min(options.limit ?? limits.page.defaultLimit, limits.page.maxLimit),
    });
    return rows.map(presentDeal);
  }

  async myDeals(userId: number) {
    return (await dealsRepository.listOfDealer(this.db, userId)).map(presentDeal);
  }

  async dealmakerDeals(userId: number) {
    return (await dealsRepository.listOfDealmaker(this.db, userId)).map(presentDeal);
  }

  /** Deals where the user is creator, counterpart or dealmaker, with that role, as seen by the viewer. */
  async activityOf(userId: number, viewerId: number): Promise<ActivityEntry[]> {
    const rows = await dealsRepository.listOfParticipant(this.db, userId, viewerId);
    return rows.map((view) => ({ ...presentDeal(view), role: roleOf(view.deal, userId)! }));
  }

  async get(id: number, viewerId: number) {
    return this.present(this.db, id, viewerId);
  }

  async join(id: number, userId: number) {
    const deal = await this.db.transaction(async (tx) => {
      const row = await this.lock(tx, id);
      if (row.creatorId === userId)
        throw conflict('You created this deal, so you cannot join it as its counterpart.');
      if (row.dealmakerId === userId)
        throw conflict('You are the dealmaker of this deal, so you cannot join it as a dealer.');
      if (row.isCompleted) throw conflict('This deal is already completed.');
      if (row.counterpartId !== null) throw conflict('Someone has already joined this deal.');
      if (await bidsRepository.findByDealAndBidder(tx, id, userId)) {
        throw conflict('You have a bid on this deal. Delete your bid before joining it as a dealer.');
      }
      await dealsRepository.update(tx, id, { counterpartId: userId });
      return this.present(tx, id, userId);
    });
    this.announce(deal, 'joined');
    this.events.notify([await this.creatorIdOf(id)], {
      kind: 'deal-joined',
      dealId: id,
      message: `${deal.dealer_joined} joined your deal "${deal.title}".`,
    });
    return deal;
  }

  async leave(id: number, userId: number) {
    const deal = await this.db.transaction(async (tx) => {
      const row = await this.lock(tx, id);
      if (row.counterpartId !== userId) throw forbidden('Only the joined counterpart can leave this deal.');
      if (row.isCompleted) throw conflict('This deal is completed and cannot be left.');
      if (await this.escrow.anyHalfPaid(tx, id)) throw conflict('Cannot leave - escrow payment made');
      // Leaving takes the counterpart's choices with them.
      await dealsRepository.update(tx, id, {
        counterpartId: null,
        selectedBidByCounterpart: null,
        completedByCounterpart: false,
      });
      return this.present(tx, id, userId);
    });
    this.announce(deal, 'left');
    this.events.leaveDeal(userId, id);
    this.events.notify([await this.creatorIdOf(id)], {
      kind: 'deal-left',
      dealId: id,
      message: `The counterpart left your deal "${deal.title}".`,
    });
    return deal;
  }

  async delete(id: number, userId: number) {
    const removed = await this.db.transaction(async (tx) => {
      const row = await this.lock(tx, id);
      if (row.creatorId !== userId) throw forbidden('Only the creator can delete this deal.');
      if (await this.escrow.anyHalfPaid(tx, id)) throw conflict('Deal is protected - escrow payment made');
      const bidderIds = await bidsRepository.bidderIds(tx, id);
      // Bids, requests, messages, progress, disputes and the escrow go with it (ON DELETE CASCADE).
      await dealsRepository.delete(tx, id);
      return { row, bidderIds };
    });
    this.events.publish({ everyone: true }, 'deal-updated', {
      dealId: id,
      data: { id },
      updateType: 'deleted',
    });
    this.events.notify(
      [...participantIds(removed.row), ...removed.bidderIds].filter((uid) => uid !== userId),
      {
        kind: 'deal-deleted',
        dealId: id,
        message: `The deal "${removed.row.title}" was deleted by its creator.`,
      },
    );
    return { message: 'Deal deleted successfully!' };
  }

  /**
   * Records a dealer's "finished" mark on a deal locked by the caller; with
   * `complete` the deal becomes completed now. The rules (escrow locked, no
   * open dispute) belong to the completion service that calls this.
   */
  async recordFinished(tx: Tx, id: number, side: 'creator' | 'counterpart', complete: boolean) {
    await dealsRepository.update(tx, id, {
      ...(side === 'creator' ? { completedByCreator: true } : { completedByCounterpart: true }),
      ...(complete ? { isCompleted: true, completionDate: new Date() } : {}),
    });
  }

  /** Locks the deal row for the rest of the transaction, or 404. */
  async lock(tx: Tx, id: number): Promise<DealRow> {
    const row = await dealsRepository.lock(tx, id);
    if (!row) throw dealNotFound();
    return row;
  }

  /** Holds the deal unchanged for the rest of the transaction without blocking other readers, or 404. */
  async lockShared(tx: Tx, id: number): Promise<DealRow> {
    const row = await dealsRepository.lockShared(tx, id);
    if (!row) throw dealNotFound();
    return row;
  }

  async findRow(db: DbOrTx, id: number): Promise<DealRow> {
    const row = await dealsRepository.findById(db, id);
    if (!row) throw dealNotFound();
    return row;
  }

  /** The deal row when the user takes part in it (creator, counterpart or dealmaker); 404 / 403 otherwise. */
  async requireParticipant(db: DbOrTx, id: number, userId: number): Promise<DealRow> {
    const row = await this.findRow(db, id);
    if (!isParticipant(row, userId)) throw forbidden('Only the participants of this deal can do this.');
    return row;
  }

  async participantIds(id: number): Promise<number[]> {
    const row = await dealsRepository.findById(this.db, id);
    return row ? participantIds(row) : [];
  }

  async present(db: DbOrTx, id: number, viewerId: number) {
    const view = await dealsRepository.view(db, id, viewerId);
    if (!view) throw dealNotFound();
    return presentDeal(view);
  }

  private async creatorIdOf(id: number) {
    return (await dealsRepository.findById(this.db, id))?.creatorId;
  }

  /** A changed deal goes to every signed-in socket, with public fields only. */
  announce(deal: Deal, updateType: 'joined' | 'left' | 'updated' | 'finalized' | 'dealmaker-assigned') {
    this.events.publish({ everyone: true }, 'deal-updated', {
      dealId: deal.id,
      data: publicDeal(deal),
      updateType,
    });
  }
}
