import type { Message } from '../../../contract/messages';
import type { MessageView } from './messages.repository';

export function presentMessage(view: MessageView): Message {
  const { message } = view;
  return {
    id: message.id,
    dealId: message.dealId,
    content: message.content,
    createdAt: message.createdAt.toISOString(),
    senderId: message.senderId,
    sender: { id: message.senderId, username: view.username, full_name: view.fullName },
    senderUsername: view.username,
    clientId: message.clientId,
  };
}
