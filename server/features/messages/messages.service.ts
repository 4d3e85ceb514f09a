import type { NewMessage } from '../../../contract/messages';
import type { Db } from '../../db/client';
import { forbidden } from '../../lib/errors';
import type { EventPublisher } from '../../realtime/publisher';
import { isParticipant, participantIds } from '../deals/deal-roles';
import type { DealsService } from '../deals/deals.service';
import { presentMessage } from './messages.presenter';
import { messagesRepository } from './messages.repository';

/** Deal chat (DESIGN.md §5 Messages): participants only; history oldest-first by pages. */
export class MessagesService {
  constructor(
    private readonly db: Db,
    private readonly deals: DealsService,
    private readonly events: EventPublisher,
  ) {}

  async send(senderId: number, input: NewMessage) {
    // A shared lock on the deal until the message is stored: a concurrent delete or leave (which lock
    // it exclusively) waits, instead of the insert failing on a vanished deal or a leaver's message
    // slipping in; sends on the same deal still run side by side.
    const { deal, message, isNew } = await this.db.transaction(async (tx) => {
      const deal = await this.deals.lockShared(tx, input.dealId);
      if (!isParticipant(deal, senderId)) throw forbidden('Only the participants of this deal can do this.');
      const inserted = await messagesRepository.insert(tx, {
        dealId: input.dealId,
        senderId,
        content: input.content,
        clientId: input.clientId ?? null,
      });
      // No row: a retry of a message already stored. Answer with it, announce nothing new.
      const view = inserted
        ? await messagesRepository.view(tx, inserted.id)
        : await messagesRepository.findByClientId(tx, input.dealId, senderId, input.clientId!);
      return { deal, message: presentMessage(view!), isNew: Boolean(inserted) };
    });
    if (isNew) {
      // To each participant's own room: only people on the deal ever receive its messages.
      this.events.publish({ users: participantIds(deal) }, 'message-updated', {
        dealId: deal.id,
        messageData: message,
        updateType: 'sent',
      });
    }
    return message;
  }

  /** One page of history, oldest first: the latest page by default, older ones with `before`. */
  async history(dealId: number, viewerId: number, options: { limit: number; before?: number }) {
    await this.deals.requireParticipant(this.db, dealId, viewerId);
    const rows = await messagesRepository.latest(this.db, dealId, {
      limit: options.limit,
      beforeId: options.before,
    });
    return rows.reverse().map(presentMessage);
  }
}
