import type { InfiniteData } from '@tanstack/react-query';
import type { Message } from '../../../contract/messages';
import type { ServerEvents } from '../../../contract/realtime';
import { newRandomId } from '../../lib/random-id';
import { isTimelineEntry, type TimelineEntry } from '../timeline';

/**
 * The chat's list logic (spec §4 Messages), free of React and sockets: history pages as the query
 * cache holds them, the user's own messages still on their way, and what an incoming event adds.
 */

/**
 * A chat item: what the chat's history holds, a chat message or a timeline entry of the deal (shown
 * apart from the messages); ids from one sequence.
 */
export type ChatItem = Message | TimelineEntry;

/** One page of the deal's timeline (GET /deals/{dealId}/timeline) as the chat holds it, oldest first. */
export type MessagePage = {
  messages: ChatItem[];
  /** The server had more: an older page may follow. Kept from the fetch, whatever arrives live later. */
  hasMore: boolean;
};
/** The history in the cache: [latest page, older page, …]. */
export type MessagePages = InfiniteData<MessagePage, number | undefined>;

/** A message of this user not yet confirmed by the server: shown dimmed, with 'Sending...'. */
export type TemporaryMessage = Omit<Message, 'id'> & { id: string; isTemporary: true; clientId: string };
export type ChatMessage = (Message & { isTemporary?: false }) | TemporaryMessage;
/** One line of the chat panel: a message (confirmed or on its way) or a timeline entry. */
export type ChatLine = ChatMessage | TimelineEntry;

/** A message the server has stored (not a timeline entry, not one still being sent). */
export const isConfirmedMessage = (line: ChatLine | ChatItem): line is Message =>
  !isTimelineEntry(line) && !(line as ChatMessage).isTemporary;

const timeOf = (message: Pick<Message, 'createdAt'>) => {
  const time = Date.parse(message.createdAt);
  return Number.isNaN(time) ? 0 : time;
};

/** By createdAt; messages of the same instant by id (the server's order). */
export function compareMessages(a: Pick<Message, 'createdAt' | 'id'>, b: Pick<Message, 'createdAt' | 'id'>) {
  return timeOf(a) - timeOf(b) || a.id - b.id;
}

/** The messages and timeline entries of all loaded pages, each once (by id), sorted by createdAt. */
export function confirmedMessages(pages: Pick<MessagePages, 'pages'> | undefined): ChatItem[] {
  if (!pages) return [];
  const byId = new Map<number, ChatItem>();
  for (const page of pages.pages) for (const message of page.messages) byId.set(message.id, message);
  return [...byId.values()].sort(compareMessages);
}

/**
 * What the panel shows: the confirmed messages, then this user's messages still being sent. A
 * temporary message whose server copy is already there (same clientId) is gone: the copy replaced it.
 */
export function mergeMessages(confirmed: ChatItem[], pending: TemporaryMessage[]): ChatLine[] {
  if (pending.length === 0) return confirmed;
  const arrived = new Set(
    confirmed.flatMap((item) => (isTimelineEntry(item) || !item.clientId ? [] : [item.clientId])),
  );
  return [...confirmed, ...pending.filter((message) => !arrived.has(message.clientId))];
}

/**
 * The history with more items (messages or timeline entries) in the latest page, each once: those it
 * holds already, in any page, are left out. Unchanged (the same object) when nothing is new, or when
 * there is no history yet.
 */
export function insertItems(
  pages: MessagePages | undefined,
  items: readonly ChatItem[],
): MessagePages | undefined {
  if (!pages || pages.pages.length === 0) return pages;
  const known = new Set(pages.pages.flatMap((page) => page.messages.map((item) => item.id)));
  const added = new Map<number, ChatItem>();
  for (const item of items) if (!known.has(item.id)) added.set(item.id, item);
  if (added.size === 0) return pages;
  const [latest, ...older] = pages.pages;
  const messages = [...latest!.messages, ...added.values()].sort(compareMessages);
  return { ...pages, pages: [{ ...latest!, messages }, ...older] };
}

/** The history with one more message, in the latest page (unchanged when it holds it already). */
export const insertMessage = (pages: MessagePages | undefined, message: ChatItem) =>
  insertItems(pages, [message]);

/**
 * The highest id in the history, message or timeline entry (both take their ids from one sequence):
 * catching up asks for the timeline after it.
 */
export function lastItemId(pages: Pick<MessagePages, 'pages'> | undefined): number | undefined {
  let last: number | undefined;
  for (const page of pages?.pages ?? []) {
    for (const item of page.messages) {
      if (last === undefined || item.id > last) last = item.id;
    }
  }
  return last;
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
export const newClientId = newRandomId;
