import { describe, expect, it } from 'vitest';
import type { Message } from '../../../contract/messages';
import type { ServerEvents } from '../../../contract/realtime';
import { alice, makeMessage, makeTimelineEntry } from '../../test/message-fixtures';
import { isTimelineEntry } from '../timeline';
import {
  applyIncomingMessage,
  type ChatItem,
  confirmedMessages,
  createTemporaryMessage,
  insertItems,
  insertMessage,
  isConfirmedMessage,
  isIncomingMessage,
  lastItemId,
  type MessagePages,
  mergeMessages,
  newClientId,
  withoutTemporary,
} from './message-list';

const message = makeMessage;
const entry = makeTimelineEntry;

const pagesOf = (...pages: ChatItem[][]): MessagePages => ({
  pages: pages.map((messages) => ({ messages, hasMore: false })),
  pageParams: pages.map((_, index) => (index === 0 ? undefined : index)),
});
const ids = (list: Array<{ id: number | string }>) => list.map((item) => item.id);
const event = (
  data: Message,
  overrides: Partial<ServerEvents['message-updated']> = {},
): ServerEvents['message-updated'] => ({
  dealId: data.dealId,
  messageData: data,
  updateType: 'sent',
  ...overrides,
});

describe('confirmedMessages', () => {
  it('flattens the pages, sorted by createdAt, each message once', () => {
    const latest = [message(4), message(5), message(6)];
    const older = [message(1), message(2), message(4)];
    expect(ids(confirmedMessages(pagesOf(latest, older)))).toEqual([1, 2, 4, 5, 6]);
  });

  it('orders by createdAt, not by id, and messages of the same instant by id', () => {
    const early = message(9, { createdAt: '2025-01-01T10:00:00.000Z' });
    const late = message(3, { createdAt: '2025-01-01T11:00:00.000Z' });
    const sameA = message(5, { createdAt: '2025-01-01T10:30:00.000Z' });
    const sameB = message(4, { createdAt: '2025-01-01T10:30:00.000Z' });
    expect(ids(confirmedMessages(pagesOf([late, sameA, early, sameB])))).toEqual([9, 4, 5, 3]);
  });

  it('is empty without history', () => {
    expect(confirmedMessages(undefined)).toEqual([]);
  });
});

describe('temporary messages', () => {
  const temporary = (clientId: string) =>
    createTemporaryMessage({ dealId: 7, content: 'Hi', clientId, sender: alice });

  it('are shown after the confirmed messages, flagged and with a temporary id', () => {
    const pending = temporary('abc');
    expect(pending).toMatchObject({ id: 'temp-abc', isTemporary: true, clientId: 'abc', senderId: 1 });
    const shown = mergeMessages([message(1), message(2)], [pending]);
    expect(ids(shown)).toEqual([1, 2, 'temp-abc']);
  });

  it("are replaced by the server's copy with the same clientId", () => {
    const pending = [temporary('abc'), temporary('def')];
    const copy = message(3, { sender: alice, clientId: 'abc', content: 'Hi' });
    expect(ids(mergeMessages([message(1), copy], pending))).toEqual([1, 3, 'temp-def']);
  });

  it('leave the pending list when confirmed or failed', () => {
    const pending = [temporary('abc'), temporary('def')];
    expect(ids(withoutTemporary(pending, 'abc'))).toEqual(['temp-def']);
  });

  it('get client ids the server accepts', () => {
    const id = newClientId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(newClientId()).not.toBe(id);
  });
});

describe('insertMessage', () => {
  it('adds a new message to the latest page, in createdAt order', () => {
    const data = pagesOf([message(2), message(4)], [message(1)]);
    const next = insertMessage(data, message(3))!;
    expect(next.pages[0]!.messages.map((m) => m.id)).toEqual([2, 3, 4]);
    expect(next.pages[1]).toBe(data.pages[1]);
  });

  it('ignores a message it holds already, in any page', () => {
    const data = pagesOf([message(2), message(4)], [message(1)]);
    expect(insertMessage(data, message(1))).toBe(data);
    expect(insertMessage(data, message(4))).toBe(data);
  });

  it('keeps hasMore as fetched', () => {
    const data: MessagePages = {
      pages: [{ messages: [message(1)], hasMore: true }],
      pageParams: [undefined],
    };
    expect(insertMessage(data, message(2))!.pages[0]!.hasMore).toBe(true);
  });

  it('does nothing without history', () => {
    expect(insertMessage(undefined, message(1))).toBeUndefined();
  });
});

describe('incoming message events', () => {
  const context = { dealId: 7, viewerId: alice.id };

  it("count only for the deal, as 'sent', from someone else", () => {
    expect(isIncomingMessage(event(message(1)), context)).toBe(true);
    expect(isIncomingMessage(event(message(1), { dealId: 8 }), context)).toBe(false);
    expect(isIncomingMessage(event(message(1, { dealId: 8 }), { dealId: 7 }), context)).toBe(false);
    expect(
      isIncomingMessage(event(message(1), { updateType: 'updated' as unknown as 'sent' }), context),
    ).toBe(false);
  });

  it("ignore the user's own messages (this tab shows them as it sends them)", () => {
    const own = message(3, { sender: alice });
    const data = pagesOf([message(1)]);
    expect(applyIncomingMessage(data, event(own), context)).toBe(data);
  });

  it('add a new message once; a duplicate changes nothing', () => {
    const data = pagesOf([message(1)]);
    const once = applyIncomingMessage(data, event(message(2)), context);
    expect(ids(confirmedMessages(once))).toEqual([1, 2]);
    expect(applyIncomingMessage(once, event(message(2)), context)).toBe(once);
  });
});

describe('the timeline in the history', () => {
  it('holds timeline entries and messages in one order, and knows which is which', () => {
    const shown = confirmedMessages(pagesOf([message(3), entry(2), message(4)], [entry(1)]));
    expect(ids(shown)).toEqual([1, 2, 3, 4]);
    expect(shown.map(isTimelineEntry)).toEqual([true, true, false, false]);
  });

  it('catches up: what came while away goes in once, whatever was already held, in order', () => {
    const data = pagesOf([message(5), entry(6), message(7)], [message(1), entry(2)]);
    // The latest timeline page and the messages after 7 overlap what is held and each other.
    const caughtUp = insertItems(data, [entry(6), message(7), entry(9), message(8), message(10), message(8)]);
    expect(ids(confirmedMessages(caughtUp))).toEqual([1, 2, 5, 6, 7, 8, 9, 10]);
    expect(ids(caughtUp!.pages[0]!.messages)).toEqual([5, 6, 7, 8, 9, 10]);
    expect(caughtUp!.pages[1]).toBe(data.pages[1]);
    expect(insertItems(caughtUp, [message(1), entry(9)])).toBe(caughtUp);
  });

  it('asks for the messages after the last message held (not after a timeline entry)', () => {
    expect(lastItemId(pagesOf([message(5), entry(9)], [message(1)]))).toBe(9);
    expect(lastItemId(pagesOf([message(5), entry(3)], [message(1)]))).toBe(5);
    expect(lastItemId(pagesOf([entry(3)]))).toBe(3);
    expect(lastItemId(pagesOf([]))).toBeUndefined();
    expect(lastItemId(undefined)).toBeUndefined();
  });

  it('shows the empty-chat messages beside timeline entries only', () => {
    expect(mergeMessages([entry(1)], [])).toEqual([entry(1)]);
    expect(isConfirmedMessage(entry(1))).toBe(false);
    expect(isConfirmedMessage(message(1))).toBe(true);
  });
});
