import type { InfiniteData } from '@tanstack/react-query';
import type { Message } from '../../../contract/messages';
import type { ServerEvents } from '../../../contract/realtime';

/**
 * The chat's list logic (spec §4 Messages), free of React and sockets: history pages as the query
 * cache holds them, the user's own messages still on their way, and what an incoming event adds.
 */

/** One page of GET /messages/deal/{dealId}: oldest first, as the server answers. */
export type MessagePage = {
  messages: Message[];
  /** The server had more: an older page may follow. Kept from the fetch, whatever arrives live later. */
  hasMore: boolean;
};
/** The history in the cache: [latest page, older page, …]. */
export type MessagePages = InfiniteData<MessagePage, number | undefined>;

/** A message of this user not yet confirmed by the server: shown dimmed, with 'Sending...'. */
export type TemporaryMessage = Omit<Message, 'id'> & { id: string; isTemporary: true; clientId: string };
export type ChatMessage = (Message & { isTemporary?: false }) | TemporaryMessage;

const timeOf = (message: Pick<Message, 'createdAt'>) => {
  const time = Date.parse(message.createdAt);
  return Number.isNaN(time) ? 0 : time;
};

/** By createdAt; messages of the same instant by id (the server's order). */
export function compareMessages(a: Message, b: Message): number {
  return timeOf(a) - timeOf(b) || a.id - b.id;
}

/** The messages of all loaded pages, each once (by id), sorted by createdAt. */
export function confirmedMessages(pages: Pick<MessagePages, 'pages'> | undefined): Message[] {
  if (!pages) return [];
  const byId = new Map<number, Message>();
  for (const page of pages.pages) for (const message of page.messages) byId.set(message.id, message);
  return [...byId.values()].sort(compareMessages);
}

/**
 * What the panel shows: the confirmed messages, then this user's messages still being sent. A
 * temporary message whose server copy is already there (same clientId) is gone: the copy replaced it.
 */
export function mergeMessages(confirmed: Message[], pending: TemporaryMessage[]): ChatMessage[] {
  if (pending.length === 0) return confirmed;
  const arrived = new Set(confirmed.map((message) => message.clientId).filter(Boolean));
  return [...confirmed, ...pending.filter((message) => !arrived.has(message.clientId))];
}

/**
 * The history with one more message, in the latest page. Unchanged (the same object) when it holds
 * that message already, or when there is no history yet.
 */
export function insertMessage(pages: MessagePages | undefined, message: Message): MessagePages | undefined {
  if (!pages || pages.pages.length === 0) return pages;
  if (pages.pages.some((page) => page.messages.some((other) => other.id === message.id))) return pages;
  const [latest, ...older] = pages.pages;
  const messages = [...latest!.messages, message].sort(compareMessages);
  return { ...pages, pages: [{ ...latest!, messages }, ...older] };
}

/**
 * Whether an incoming message-updated event adds a message to the deal's history: only a 'sent'
 * message of that deal, and not the user's own (this tab shows those as it sends them).
 */
export function isIncomingMessage(
  event: ServerEvents['message-updated'],
  context: { dealId: number; viewerId: number | null | undefined },
): boolean {
  return (
    event.updateType === 'sent' &&
    event.dealId === context.dealId &&
    event.messageData.dealId === context.dealId &&
    event.messageData.senderId !== context.viewerId
  );
}

/** The history after an incoming event: the new message added, or unchanged if it does not count or is there already. */
export function applyIncomingMessage(
  pages: MessagePages | undefined,
  event: ServerEvents['message-updated'],
  context: { dealId: number; viewerId: number | null | undefined },
): MessagePages | undefined {
  return isIncomingMessage(event, context) ? insertMessage(pages, event.messageData) : pages;
}

/** A message of this user shown at once while the server stores it. */
export function createTemporaryMessage(input: {
  dealId: number;
  content: string;
  clientId: string;
  sender: Message['sender'];
  now?: Date;
}): TemporaryMessage {
  return {
    id: `temp-${input.clientId}`,
    isTemporary: true,
    clientId: input.clientId,
    dealId: input.dealId,
    content: input.content,
    createdAt: (input.now ?? new Date()).toISOString(),
    senderId: input.sender.id,
    sender: input.sender,
    senderUsername: input.sender.username,
  };
}

/** The pending messages without the one sent with `clientId` (confirmed, or failed). */
export function withoutTemporary(pending: TemporaryMessage[], clientId: string): TemporaryMessage[] {
  return pending.filter((message) => message.clientId !== clientId);
}

/** A random id for a message being sent (1–64 letters, digits, dash or underscore, as the server asks). */
export function newClientId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
