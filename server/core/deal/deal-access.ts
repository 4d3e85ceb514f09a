import type { Deal, PublicDeal } from '../../../contract/deals';
import type { DealChange } from '../../../contract/realtime';
import type { Db, DbOrTx, Tx } from '../../db/client';
import type { DealRow, EscrowRow } from '../../db/schema';
import { notFound } from '../../lib/errors';
import type { EventPublisher } from '../../lib/events';
import { presentDeal, presentPublicDeal, publicDeal, type SharedDeal, shareDeal } from './deal.presenter';
import { type DealChanges, dealRepository } from './deal.repository';
import { requireParticipant } from './deal-policy';
import { type DealRole, participantIds, roleOf } from './deal-roles';

function found(deal: DealRow | undefined): DealRow {
  if (!deal) throw notFound('Deal not found.');
  return deal;
}

export type DealUpdateType = 'created' | 'joined' | 'left' | 'updated' | 'finalized' | 'dealmaker-assigned';

/**
 * The deal as every feature reaches it: its row (locked or not), its wire
 * shape, and the announcement of a change to everyone. Features that work on
 * a deal (bids, escrow, messages, progress, disputes, reviews) go through
 * this, never through the deals repository; the deal's rules are in
 * deal-policy.ts.
 */
export class DealAccess {
  constructor(
    private readonly deps: {
      db: Db;
      events: EventPublisher;
    },
  ) {}

  private readonly announced: Array<(dealId: number, updateType: DealUpdateType) => void> = [];

  /** Calls `listener` on this instance after each public change to a deal is announced (not deletions). */
  whenAnnounced(listener: (dealId: number, updateType: DealUpdateType) => void) {
    this.announced.push(listener);
  }

  /** Locks the deal row for the rest of the transaction, or 404: every change to a deal starts here. */
  async lock(tx: Tx, id: number): Promise<DealRow> {
    return found(await dealRepository.lock(tx, id));
  }

  /**
   * Locks the deal, then its escrow (the lock order of every money call), in one statement, with the
   * deal's public view as it stands under those locks; 404 when there is no such deal. The usernames
   * come from the statement's snapshot: a deal's people are users who existed before it.
   */
  async lockWithEscrow(
    tx: Tx,
    id: number,
  ): Promise<{ deal: DealRow; escrow: EscrowRow | undefined; publicView: PublicDeal }> {
    const row = await dealRepository.lockWithEscrow(tx, id);
    if (!row) throw notFound('Deal not found.');
    const escrow = row.escrow ?? undefined;
    const publicView = presentPublicDeal({
      ...row,
      escrowCreatorPaid: escrow?.creatorPaid ?? null,
      escrowCounterpartPaid: escrow?.counterpartPaid ?? null,
      escrowStatus: escrow?.status ?? null,
      escrowHeldCents: escrow?.heldCents ?? null,
      escrowReleasedCents: escrow?.releasedCents ?? null,
      myBidId: null,
      myBidPriceCents: null,
    });
    return { deal: row.deal, escrow, publicView };
  }

  /** The deal locked, or nothing when it no longer exists (for the server's own work: a deleted deal is not an error there). */
  lockIfExists(tx: Tx, id: number): Promise<DealRow | undefined> {
    return dealRepository.lock(tx, id);
  }

  async find(id: number, db: DbOrTx = this.deps.db): Promise<DealRow> {
    return found(await dealRepository.findById(db, id));
  }

  /** The deal row when the user takes part in it (creator, counterpart or dealmaker); 404 / 403 otherwise. */
  async findAsParticipant(id: number, userId: number, db: DbOrTx = this.deps.db): Promise<DealRow> {
    const deal = await this.find(id, db);
    requireParticipant(deal, userId);
    return deal;
  }

  /** Ids of the deal's dealers and dealmaker; none when there is no such deal. */
  async participantIds(id: number): Promise<number[]> {
    const deal = await dealRepository.findById(this.deps.db, id);
    return deal ? participantIds(deal) : [];
  }

  /** The deal's wire shape as the viewer sees it (their own bid and what they may do now included). */
  async present(id: number, viewerId: number, db: DbOrTx = this.deps.db): Promise<Deal> {
    const view = await dealRepository.view(db, id, viewerId);
    if (!view) throw notFound('Deal not found.');
    return presentDeal(view, viewerId);
  }

  /** The deal's public fields, as broadcasts carry it (no viewer's bid, no `can`). */
  async publicView(id: number, db: DbOrTx = this.deps.db): Promise<PublicDeal> {
    return publicDeal(await this.present(id, 0, db));
  }

  /** Changes the deal's row; the caller has locked the deal and asked deal-policy.ts first. */
  update(tx: Tx, id: number, changes: DealChanges): Promise<DealRow> {
    return dealRepository.update(tx, id, changes);
  }

  /** Whether the deal has an open dispute (a deal cannot be marked finished while it does). */
  hasOpenDispute(id: number, db: DbOrTx = this.deps.db): Promise<boolean> {
    return dealRepository.hasOpenDispute(db, id);
  }

  /**
   * These deals as every viewer may get them (a page of the deals list, which viewers share), in the
   * order of `ids`: each answers a viewer with their own bid and what they may do (deal.presenter.ts `SharedDeal`).
   */
  async share(ids: number[], db: DbOrTx = this.deps.db): Promise<SharedDeal[]> {
    const views = await dealRepository.viewsByIds(db, ids, 0);
    // In the order of `ids` (a sorted or ranked page); a deal deleted meanwhile is left out.
    const byId = new Map(views.map((view) => [view.deal.id, view]));
    return ids.flatMap((id) => {
      const view = byId.get(id);
      return view ? [shareDeal(view)] : [];
    });
  }

  /**
   * The deals a user takes part in, newest first, as the viewer sees them, each with the user's role:
   * as a dealer (creator or counterpart), as the dealmaker, or in any role.
   */
  async dealsOf(
    userId: number,
    part: 'dealer' | 'dealmaker' | 'participant',
    viewerId = userId,
  ): Promise<Array<{ deal: Deal; role: DealRole }>> {
    const views =
      part === 'dealer'
        ? await dealRepository.listOfDealer(this.deps.db, userId)
        : part === 'dealmaker'
          ? await dealRepository.listOfDealmaker(this.deps.db, userId)
          : await dealRepository.listOfParticipant(this.deps.db, userId, viewerId);
    return views.map((view) => ({ deal: presentDeal(view, viewerId), role: roleOf(view.deal, userId)! }));
  }

  /**
   * Records a dealer's "finished" mark on a deal the caller has locked; with
   * `complete` the deal becomes completed now. The rules are the caller's.
   */
  async recordFinished(tx: Tx, id: number, side: 'creator' | 'counterpart', complete: boolean) {
    await dealRepository.update(tx, id, {
      ...(side === 'creator' ? { completedByCreator: true } : { completedByCounterpart: true }),
      ...(complete ? { isCompleted: true, completionDate: new Date() } : {}),
    });
  }

  /**
   * The deal completes without the dealers' marks: a settlement paid its escrow out, or its last
   * milestone was released.
   */
  async recordCompleted(tx: Tx, id: number) {
    await dealRepository.update(tx, id, { isCompleted: true, completionDate: new Date() });
  }

  /**
   * A changed deal, with public fields only: every instance forgets its cached pages of the deals list and
   * tells its deals feed; the deal's watchers and the original client's sockets hear it at once.
   */
  announce(deal: Deal | PublicDeal, updateType: DealUpdateType) {
    for (const listener of this.announced) listener(deal.id, updateType);
    this.tell({ dealId: deal.id, data: publicDeal(deal), updateType });
  }

  announceDeleted(dealId: number) {
    this.tell({ dealId, data: { id: dealId }, updateType: 'deleted' });
  }

  private tell(change: DealChange) {
    this.deps.events.signal('deals-changed', change);
    this.deps.events.publish(
      { dealWatchers: [change.dealId], originalClients: true },
      'deal-updated',
      change,
    );
  }
}
