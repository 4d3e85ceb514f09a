import type { MessageReads } from '../../../contract/messages';
import { type ChatLine, isConfirmedMessage } from './message-list';

/**
 * How far people have read a deal's chat, free of React: where the "New messages" divider goes, which
 * message says "Seen by …", and up to which message the viewer's own mark should move.
 */

export type ReadMark = MessageReads['reads'][number];

/** How far the viewer has read (0 when they never opened the chat). */
export function ownReadMark(reads: readonly ReadMark[], viewerId: number | undefined): number {
  return reads.find((mark) => mark.userId === viewerId)?.lastReadId ?? 0;
}

/**
 * The first message from someone else after the viewer's read mark: the "New messages" divider goes
 * before it. Undefined when everything shown is read.
 */
export function firstUnreadId(
  lines: readonly ChatLine[],
  lastReadId: number,
  viewerId: number | undefined,
): number | undefined {
  const first = lines.find(
    (line) => isConfirmedMessage(line) && line.senderId !== viewerId && line.id > lastReadId,
  );
  return first && isConfirmedMessage(first) ? first.id : undefined;
}

/**
 * "Seen by": under the last of the viewer's messages that someone else has read, the others who read
 * up to it (or further). Null when nobody has read any of the viewer's messages.
 */
export function seenBy(
  lines: readonly ChatLine[],
  reads: readonly ReadMark[],
  viewerId: number | undefined,
): { messageId: number; names: string[] } | null {
  const others = reads.filter((mark) => mark.userId !== viewerId && mark.lastReadId > 0);
  if (others.length === 0) return null;
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index]!;
    if (!isConfirmedMessage(line) || line.senderId !== viewerId) continue;
    const names = others.filter((mark) => mark.lastReadId >= line.id).map((mark) => mark.username);
    if (names.length > 0) return { messageId: line.id, names: names.sort() };
  }
  return null;
}

export const seenByText = (names: readonly string[]) => `Seen by ${names.join(', ')}`;

/**
 * The id to mark the chat read up to: the newest message shown, when a message from someone else
 * came after the viewer's mark. Undefined when there is nothing new to read.
 */
export function markReadTarget(
  lines: readonly ChatLine[],
  lastReadId: number,
  viewerId: number | undefined,
): number | undefined {
  let newest: number | undefined;
  let unreadFromOthers = false;
  for (const line of lines) {
    if (!isConfirmedMessage(line)) continue;
    if (newest === undefined || line.id > newest) newest = line.id;
    if (line.senderId !== viewerId && line.id > lastReadId) unreadFromOthers = true;
  }
  return unreadFromOthers ? newest : undefined;
}

/** The reads after a messages-read event: the reader's mark moved forward (never back). */
export function applyReadEvent(
  reads: ReadMark[],
  event: { userId: number; username: string; lastReadId: number },
): ReadMark[] {
  const current = reads.find((mark) => mark.userId === event.userId);
  if (current && current.lastReadId >= event.lastReadId) return reads;
  const mark = { userId: event.userId, username: event.username, lastReadId: event.lastReadId };
  return current ? reads.map((other) => (other.userId === event.userId ? mark : other)) : [...reads, mark];
}
