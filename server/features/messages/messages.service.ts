import type { FastifyBaseLogger } from 'fastify';
import type { NewMessage, UnreadMessages } from '../../../contract/messages';
import type { DealAccess } from '../../core/deal/deal-access';
import { requireParticipant } from '../../core/deal/deal-policy';
import { participantIds } from '../../core/deal/deal-roles';
import type { Db } from '../../db/client';
import type { DealRow } from '../../db/schema';
import { runCommittedEffects, type Transact } from '../../db/transaction';
import type { EventPublisher } from '../../lib/events';
import type { NotificationsService } from '../notifications/notifications.service';
import { ChatSends } from './chat-sends';
import { presentMessage } from './messages.presenter';
import { messagesRepository } from './messages.repository';

/** How many (deal, sender) pairs `send` remembers. */
const rememberedDeals = 10_000;

/**
 * Deal chat (DESIGN.md §5 Messages): participants only; history oldest-first
 * by pages; each participant's read mark, from which come unread counts and
 * the others' "Seen by".
 */
export class MessagesService {
  constructor(
    private readonly deps: {
      db: Db;
      transact: Transact;
      deals: DealAccess;
      notifications: NotificationsService;
      events: EventPublisher;
      log: FastifyBaseLogger;
    },
  ) {
    this.sends = new ChatSends(deps);
  }

  /** A sender's messages on a deal that come while one of theirs is being stored go together. */
  private readonly sends: ChatSends;

  /**
   * Stores the message and its chat notifications in one statement, committed on its own (with those of
   * the sender's messages on the deal that came while another was being stored: `ChatSends`), then
   * publishes the message to the participants and delivers the notifications that are news.
   *
   * Only the deal's participants may send (deal-policy `requireParticipant`). The statement stores the
   * message only while the deal still has the participants and title the policy was asked about, and
   * holds them until it commits (messages.repository `send`); when they changed meanwhile, the deal is
   * read again and the policy asked again. A sender's deal is remembered once the policy let them send
   * (`sendersDeals`): their next message costs the statement alone, and a remembered deal that has
   * changed since stores nothing.
   */
  async send(sender: { id: number; username: string }, input: NewMessage) {
    const key = `${input.dealId}:${sender.id}`;
    const clientId = input.clientId ?? null;
    let deal = this.sendersDeals.get(key);
    // Ends: the deal changed between the policy's answer and the statement, which takes someone's act each time.
    for (;;) {
      deal ??= await this.deps.deals.find(input.dealId);
      requireParticipant(deal, sender.id);
      const outcome = await this.sends.add({ deal, sender, message: { content: input.content, clientId } });
      if (outcome.status === 'changed') {
        this.sendersDeals.delete(key);
        deal = undefined;
        continue;
      }
      this.remember(key, deal);
      // A retry of a message already stored is answered with it and announces nothing new.
      if (!outcome.message) {
        return presentMessage(
          (await messagesRepository.findByClientId(this.deps.db, deal.id, sender.id, clientId!))!,
        );
      }
      const message = presentMessage(outcome.message);
      const recipients = participantIds(deal);
      const afterStored = runCommittedEffects(this.deps.log);
      // To each participant's own room: only people on the deal ever receive its messages.
      afterStored(() =>
        this.deps.events.publish({ users: recipients }, 'message-updated', {
          dealId: input.dealId,
          messageData: message,
          updateType: 'sent',
        }),
      );
      afterStored(() =>
        this.deps.notifications.deliverChatBurst(
          { dealId: input.dealId, senderId: sender.id },
          outcome.notices,
        ),
      );
      return message;
    }
  }

  /** Deals senders were let send on, by `dealId:senderId`: at most `rememberedDeals`, the oldest forgotten first. */
  private readonly sendersDeals = new Map<string, DealRow>();

  private remember(key: string, deal: DealRow) {
    if (this.sendersDeals.has(key)) return;
    if (this.sendersDeals.size >= rememberedDeals) {
      this.sendersDeals.delete(this.sendersDeals.keys().next().value!);
    }
    this.sendersDeals.set(key, deal);
  }

  /**
   * One page of history, oldest first: the latest page by default, older ones
   * with `before`, or those after an id with `after` (a client catching up).
   * Participants only: the page's statement answers nothing to anyone else,
   * and an empty answer is then checked against the deal (404 when it does not
   * exist, 403 for a non-participant, else a page with no message).
   */
  async history(
    dealId: number,
    viewerId: number,
    options: { limit: number; before?: number; after?: number },
  ) {
    const rows = await messagesRepository.page(this.deps.db, { dealId, viewerId, ...options });
    if (rows.length === 0) await this.deps.deals.findAsParticipant(dealId, viewerId);
    return rows.map(presentMessage);
  }

  /**
   * Moves the reader's mark forward (never back), reads the deal's chat
   * notifications, and tells the deal's other participants how far the
   * reader has read.
   */
  async markRead(dealId: number, reader: { id: number; username: string }, lastReadId: number) {
    const deal = await this.deps.deals.findAsParticipant(dealId, reader.id);
    const mark = await this.deps.transact(async (tx, afterCommit) => {
      const mark = await messagesRepository.markRead(tx, dealId, reader.id, lastReadId);
      await this.deps.notifications.markChatRead(tx, reader.id, dealId);
      if (mark.moved) {
        afterCommit(() =>
          this.deps.events.publish(
            { users: participantIds(deal).filter((id) => id !== reader.id) },
            'messages-read',
            { dealId, userId: reader.id, username: reader.username, lastReadId: mark.lastReadId },
          ),
        );
      }
      return mark;
    });
    return { unread: await messagesRepository.unreadCount(this.deps.db, dealId, reader.id, mark.lastReadId) };
  }

  /** GET /api/messages/deal/{dealId}/reads: participants only; only the deal's participants' marks. */
  async readMarks(dealId: number, viewerId: number) {
    const deal = await this.deps.deals.findAsParticipant(dealId, viewerId);
    const participants = new Set(participantIds(deal));
    const marks = await messagesRepository.readMarks(this.deps.db, dealId);
    // Someone who left the deal keeps a row, but is no longer shown as a reader.
    return { reads: marks.filter((mark) => participants.has(mark.userId)) };
  }

  /** GET /api/messages/unread: the caller's deals with messages from others they have not read. */
  async unread(userId: number): Promise<UnreadMessages> {
    const rows = await messagesRepository.unreadByDeal(this.deps.db, userId);
    return {
      deals: rows.map((row) => ({ ...row, lastMessageAt: row.lastMessageAt.toISOString() })),
    };
  }
}
