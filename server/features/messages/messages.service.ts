import type { NewMessage } from '../../../contract/messages';
import type { Db } from '../../db/client';
import type { EventPublisher } from '../../realtime/publisher';
import { participantIds } from '../deals/deal-roles';
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
    const deal = await this.deals.requireParticipant(this.db, input.dealId, senderId);
    const inserted = await messagesRepository.insert(this.db, {
      dealId: input.dealId,
      senderId,
      content: input.content,
      clientId: input.clientId ?? null,
    });
    if (!inserted) {
      // A retry of a message already stored: answer with it, announce nothing new.
      return presentMessage(
        (await messagesRepository.findByClientId(this.db, input.dealId, senderId, input.clientId!))!,
      );
    }
    const message = presentMessage((await messagesRepository.view(this.db, inserted.id))!);
    // To each participant's own room: only people on the deal ever receive its messages.
    this.events.publish({ users: participantIds(deal) }, 'message-updated', {
      dealId: deal.id,
      messageData: message,
      updateType: 'sent',
    });
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
