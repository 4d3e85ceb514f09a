import type { Message } from '../../../contract/messages';
import type { MessageView } from './messages.repository';

export function presentMessage(view: MessageView): Message {
  return {
    id: view.id,
    dealId: view.dealId,
    content: view.content,
    createdAt: view.createdAt,
    senderId: view.senderId,
    sender: { id: view.senderId, username: view.username, full_name: view.fullName },
    senderUsername: view.username,
    clientId: view.clientId,
  };
}
