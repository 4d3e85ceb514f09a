import type { DealEventKind, TimelineItem } from '../../../contract/timeline';
import type { DealAccess } from '../../core/deal/deal-access';
import type { Db, Tx } from '../../db/client';
import type { AfterCommit } from '../../db/transaction';
import type { Notice, NotificationsService } from '../notifications/notifications.service';
import { presentTimelineRow } from './timeline.presenter';
import { timelineRepository } from './timeline.repository';

/** A change to a deal as its services report it, inside the transaction that makes it. */
export type DealChange = {
  dealId: number;
  /** Who made it (null for the server itself, e.g. a timer). */
  actorId: number | null;
  /** The deal's timeline entry; none for changes the timeline does not show. */
  event?: { kind: DealEventKind; message: string; details?: Record<string, unknown> };
  /** Who is told (never the actor). */
  notify?: Notice[];
};

/**
 * The deal's timeline — its system entries, written in the transaction of the
 * change they record, and its chat, in one list — and the one place services
 * report a change to: the entry, and the notifications of the people it concerns.
 */
export class TimelineService {
  constructor(
    private readonly deps: {
      db: Db;
      deals: DealAccess;
      notifications: NotificationsService;
    },
  ) {}

  /** Writes the change's entry and notifications: one statement for both. */
  async record(tx: Tx, afterCommit: AfterCommit, change: DealChange) {
    const entry = change.event && {
      dealId: change.dealId,
      kind: change.event.kind,
      actorId: change.actorId,
      message: change.event.message,
      details: change.event.details,
    };
    if (change.notify?.length) {
      await this.deps.notifications.store(
        tx,
        afterCommit,
        { dealId: change.dealId, actorId: change.actorId, notices: change.notify },
        entry && timelineRepository.insertAlongside(entry),
      );
    } else if (entry) {
      await timelineRepository.insert(tx, entry);
    }
  }

  /** One page of the deal's timeline, newest first (or, with `after`, the entries after an id, oldest first): participants only. */
  async page(
    dealId: number,
    viewerId: number,
    options: { limit: number; before?: number; after?: number },
  ): Promise<TimelineItem[]> {
    await this.deps.deals.findAsParticipant(dealId, viewerId);
    return this.pageOf(dealId, options);
  }

  /** The same page for a caller that has checked access itself (an operator's audited read of the evidence). */
  async pageOf(
    dealId: number,
    options: { limit: number; before?: number; after?: number },
  ): Promise<TimelineItem[]> {
    if (options.after !== undefined) {
      const rows = await timelineRepository.after(this.deps.db, dealId, {
        afterId: options.after,
        limit: options.limit,
      });
      return rows.map((row) => presentTimelineRow(dealId, row));
    }
    return this.latest(dealId, options);
  }

  /** The deal's latest system entries without its chat, newest first (the operators' queue: reading the chat is audited). */
  async latestEvents(dealId: number, limit: number): Promise<TimelineItem[]> {
    const rows = await timelineRepository.events(this.deps.db, dealId, limit);
    return rows.map((row) => presentTimelineRow(dealId, row));
  }

  /** One page of the deal's timeline, for a caller that has checked access. */
  async latest(dealId: number, options: { limit: number; before?: number }): Promise<TimelineItem[]> {
    const rows = await timelineRepository.page(this.deps.db, dealId, {
      beforeId: options.before,
      limit: options.limit,
    });
    return rows.map((row) => presentTimelineRow(dealId, row));
  }
}
