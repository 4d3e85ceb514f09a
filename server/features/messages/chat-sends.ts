import { participantIds } from '../../core/deal/deal-roles';
import type { DbOrTx } from '../../db/client';
import type { DealRow } from '../../db/schema';
import { GroupCommit, type Pending } from '../../lib/group-commit';
import type { NotificationsService } from '../notifications/notifications.service';
import { type MessageView, messagesRepository, type NewChatMessage } from './messages.repository';

/** A message to store, with its sender and the deal as their policy check saw it. */
export type ChatSend = { deal: DealRow; sender: { id: number; username: string }; message: NewChatMessage };

/** A chat notification stored with a message (the first of a burst), to deliver once it has committed. */
type StoredNotice = Parameters<NotificationsService['deliverChatBurst']>[1][number];

export type ChatSendOutcome =
  /** The deal is gone, or its people or title are no longer those the sender's check saw: nothing stored. */
  | { status: 'changed' }
  /**
   * Committed: the message as stored, or null when its clientId was already used by its sender on the
   * deal (nothing stored); the chat notifications stored with it (those of its statement go with the
   * first message it stored).
   */
  | { status: 'stored'; message: MessageView | null; notices: StoredNotice[] };

/** Whether two sends saw the deal alike: one statement checks one view of it. */
const sameView = (a: ChatSend, b: ChatSend) =>
  a.deal.id === b.deal.id &&
  a.deal.creatorId === b.deal.creatorId &&
  a.deal.counterpartId === b.deal.counterpartId &&
  a.deal.dealmakerId === b.deal.dealmakerId &&
  a.deal.title === b.deal.title;

/**
 * A sender's messages on one deal, gathered (a group commit, lib/group-commit.ts, as wallet/deposits.ts
 * does for deposits into one wallet). A message that finds none of its sender's on the deal being
 * stored is stored at once, alone. Those that arrive meanwhile are then stored together by the next
 * statement (messages.repository `send`), in their order, each with its own row, clientId check and
 * answer; the chat notifications of the statement are stored once. Many messages at once then take the
 * deal's share lock, a round trip and a commit once per statement instead of once each. Each is
 * answered once its statement has committed, and a failed statement fails only the messages it carried.
 *
 * Per process: each instance gathers its own. A person may send 120 messages a minute
 * (contract/limits.ts), so theirs seldom overlap: this changes what a flood of one chat costs (the
 * benchmark's), not the wait of a single message.
 */
export class ChatSends {
  private readonly gathered: GroupCommit<ChatSend, ChatSendOutcome>;

  constructor(private readonly deps: { db: DbOrTx; notifications: NotificationsService }) {
    this.gathered = new GroupCommit({
      maxTogether: 100,
      together: sameView,
      write: (batch) => this.writeTogether(batch),
    });
  }

  add(send: ChatSend): Promise<ChatSendOutcome> {
    return this.gathered.add(`${send.deal.id}:${send.sender.id}`, send);
  }

  private async writeTogether(batch: Array<Pending<ChatSend, ChatSendOutcome>>) {
    const { deal, sender } = batch[0]!.item;
    const outcome = await messagesRepository.send(
      this.deps.db,
      { deal, senderId: sender.id, messages: batch.map((pending) => pending.item.message) },
      this.deps.notifications.chatBurst({
        dealId: deal.id,
        senderId: sender.id,
        to: participantIds(deal),
        text: `${sender.username} sent you a message on "${deal.title}".`,
      }),
    );
    if (outcome.status === 'changed') {
      for (const pending of batch) pending.resolve(outcome);
      return;
    }
    let notices = outcome.notices;
    for (const [i, pending] of batch.entries()) {
      const message = outcome.messages[i] ?? null;
      pending.resolve({ status: 'stored', message, notices: message ? notices : [] });
      if (message) notices = [];
    }
  }
}
