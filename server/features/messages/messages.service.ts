import type { FastifyBaseLogger } from 'fastify';
import type { NewMessage, UnreadMessages } from '../../../contract/messages';
import type { DealAccess } from '../../core/deal/deal-access';
import { participantIds } from '../../core/deal/deal-roles';
import type { Db } from '../../db/client';
import { runCommittedEffects, type Transact } from '../../db/transaction';
import { forbidden, notFound } from '../../lib/errors';
import type { EventPublisher } from '../../lib/events';
import type { NotificationsService } from '../notifications/notifications.service';
import { presentMessage } from './messages.presenter';
import { messagesRepository } from './messages.repository';

/** A chat notification's text: the sender's username, then the deal's title. */
const chatNoticeFormat = '%s sent you a message on "%s".';

/**
 * Deal chat (DESIGN.md §5 Messages): participants only; history oldest-first
 * by pages; each participant's read mark, from which come unread counts and
 * the others' "Seen by".
 */
export class MessagesService {
  constructor(
    private readonly db: Db,
    private readonly transact: Transact,
    private readonly deals: DealAccess,
    private readonly notifications: NotificationsService,
    private readonly events: EventPublisher,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Stores the message and its chat notifications in one statement, committed on its own, then
   * publishes the message to the participants and delivers the notifications that are news.
   */
  async send(senderId: number, input: NewMessage) {
    const outcome = await messagesRepository.send(this.db, {
      dealId: input.dealId,
      senderId,
      content: input.content,
      clientId: input.clientId ?? null,
      noticeFormat: chatNoticeFormat,
    });
    if (outcome.status === 'no-deal') throw notFound('Deal not found.');
    if (outcome.status === 'not-participant')
      throw forbidden('Only the participants of this deal can do this.');
    const message = presentMessage(outcome.message!);
    // A retry of a message already stored is answered with it and announces nothing new.
    if (outcome.status !== 'sent') return message;
    const afterStored = runCommittedEffects(this.log);
    // To each participant's own room: only people on the deal ever receive its messages.
    afterStored(() =>
      this.events.publish({ users: outcome.participantIds }, 'message-updated', {
        dealId: input.dealId,
        messageData: message,
        updateType: 'sent',
      }),
    );
    afterStored(() =>
      this.notifications.deliverStored(
        outcome.notices.map(({ unreadCount, ...notice }) => ({
          row: { ...notice, kind: 'message', dealId: input.dealId, actorId: senderId, readAt: null },
          unreadCount,
        })),
      ),
    );
    return message;
  }

  /**
   * One page of history, oldest first: the latest page by default, older ones
   * with `before`, or those after an id with `after` (a client catching up).
   */
  async history(
    dealId: number,
    viewerId: number,
    options: { limit: number; before?: number; after?: number },
  ) {
    await this.deals.findAsParticipant(dealId, viewerId);
    if (options.after !== undefined) {
      const rows = await messagesRepository.after(this.db, dealId, {
        limit: options.limit,
        afterId: options.after,
      });
      return rows.map(presentMessage);
    }
    const rows = await messagesRepository.latest(this.db, dealId, {
      limit: options.limit,
      beforeId: options.before,
    });
    return rows.reverse().map(presentMessage);
  }

  /**
   * Moves the reader's mark forward (never back), reads the deal's chat
   * notifications, and tells the deal's other participants how far the
   * reader has read.
   */
  async markRead(dealId: number, reader: { id: number; username: string }, lastReadId: number) {
    const deal = await this.deals.findAsParticipant(dealId, reader.id);
    const mark = await this.transact(async (tx, afterCommit) => {
      const mark = await messagesRepository.markRead(tx, dealId, reader.id, lastReadId);
      await this.notifications.markChatRead(tx, reader.id, dealId);
      if (mark.moved) {
        afterCommit(() =>
          this.events.publish(
            { users: participantIds(deal).filter((id) => id !== reader.id) },
            'messages-read',
            { dealId, userId: reader.id, username: reader.username, lastReadId: mark.lastReadId },
          ),
        );
      }
      return mark;
    });
    return { unread: await messagesRepository.unreadCount(this.db, dealId, reader.id, mark.lastReadId) };
  }

  /** GET /api/messages/deal/{dealId}/reads: participants only; only the deal's participants' marks. */
  async readMarks(dealId: number, viewerId: number) {
    const deal = await this.deals.findAsParticipant(dealId, viewerId);
    const participants = new Set(participantIds(deal));
    const marks = await messagesRepository.readMarks(this.db, dealId);
    // Someone who left the deal keeps a row, but is no longer shown as a reader.
    return { reads: marks.filter((mark) => participants.has(mark.userId)) };
  }

  /** GET /api/messages/unread: the caller's deals with messages from others they have not read. */
  async unread(userId: number): Promise<UnreadMessages> {
    const rows = await messagesRepository.unreadByDeal(this.db, userId);
    return {
      deals: rows.map((row) => ({ ...row, lastMessageAt: row.lastMessageAt.toISOString() })),
    };
  }
}
