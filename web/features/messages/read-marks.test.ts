import { describe, expect, it } from 'vitest';
import { alice, bob, makeMessage, makeTimelineEntry } from '../../test/message-fixtures';
import { type ChatLine, createTemporaryMessage } from './message-list';
import { applyReadEvent, firstUnreadId, markReadTarget, ownReadMark, seenBy, seenByText } from './read-marks';

const message = (id: number, sender = bob) => makeMessage(id, { sender });
const event = makeTimelineEntry;
const pending = createTemporaryMessage({ dealId: 7, content: 'Hi', clientId: 'abc', sender: alice });
const mark = (user: typeof alice, lastReadId: number) => ({
  userId: user.id,
  username: user.username,
  lastReadId,
});

describe('the "New messages" divider', () => {
  const entries: ChatLine[] = [message(1), event(2), message(3, alice), message(4), event(5), message(6)];

  it('goes before the first message from someone else after the viewer’s mark', () => {
    expect(firstUnreadId(entries, 1, alice.id)).toBe(4);
    expect(firstUnreadId(entries, 4, alice.id)).toBe(6);
  });

  it('is before the very first message of others when the viewer never read the chat', () => {
    expect(firstUnreadId(entries, ownReadMark([mark(bob, 6)], alice.id), alice.id)).toBe(1);
  });

  it('never goes before a timeline entry, the viewer’s own message or one still being sent', () => {
    expect(firstUnreadId([event(8), message(9, alice), pending], 0, alice.id)).toBeUndefined();
  });

  it('is not shown when everything is read', () => {
    expect(firstUnreadId(entries, 6, alice.id)).toBeUndefined();
  });
});

describe('"Seen by"', () => {
  const entries: ChatLine[] = [message(1, alice), message(2), message(3, alice), event(4), message(5, alice)];

  it('goes under the viewer’s last message someone else has read, naming who read that far', () => {
    const carol = { id: 3, username: 'carol', full_name: '' };
    expect(seenBy(entries, [mark(alice, 5), mark(bob, 3), mark(carol, 4)], alice.id)).toEqual({
      messageId: 3,
      names: ['bob', 'carol'],
    });
    expect(seenBy(entries, [mark(bob, 5), mark(carol, 1)], alice.id)).toEqual({
      messageId: 5,
      names: ['bob'],
    });
  });

  it('is nowhere when the others have read none of the viewer’s messages, or only their own', () => {
    expect(seenBy(entries, [mark(alice, 5)], alice.id)).toBeNull();
    expect(seenBy([message(2), message(6)], [mark(bob, 6)], alice.id)).toBeNull();
    expect(seenBy([pending], [mark(bob, 99)], alice.id)).toBeNull();
  });

  it('reads "Seen by" and the names', () => {
    expect(seenByText(['bob'])).toBe('Seen by bob');
    expect(seenByText(['bob', 'carol'])).toBe('Seen by bob, carol');
  });

  it('follows a messages-read event forward, never back', () => {
    const reads = [mark(bob, 3)];
    expect(applyReadEvent(reads, { ...mark(bob, 5) })).toEqual([mark(bob, 5)]);
    expect(applyReadEvent(reads, { ...mark(bob, 2) })).toBe(reads);
    expect(applyReadEvent(reads, { ...mark(alice, 4) })).toEqual([mark(bob, 3), mark(alice, 4)]);
  });
});

describe('marking the chat read', () => {
  it('moves the mark to the newest message once a message from someone else is unread', () => {
    const entries: ChatLine[] = [message(1), message(2, alice), event(3), message(4), message(5, alice)];
    expect(markReadTarget(entries, 1, alice.id)).toBe(5);
    expect(markReadTarget(entries, 4, alice.id)).toBeUndefined();
    expect(markReadTarget([message(9, alice), pending], 0, alice.id)).toBeUndefined();
  });
});
