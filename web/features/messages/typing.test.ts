import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TypingUser } from '../../../contract/messages';
import {
  applyTypingEvent,
  TypingNotifier,
  typingKeepAliveMs,
  typingStopDelayMs,
  typingText,
  withoutTypingUser,
} from './typing';

describe('TypingNotifier', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts on the first keystroke, repeats the start every 3 s of typing, and stops 3 s after the last key', () => {
    const emit = vi.fn();
    const typing = new TypingNotifier(emit);
    typing.input();
    expect(emit.mock.calls).toEqual([[true]]);

    vi.advanceTimersByTime(2000);
    typing.input();
    expect(emit.mock.calls).toEqual([[true]]);
    vi.advanceTimersByTime(typingKeepAliveMs - 2000);
    typing.input();
    // Still typing: the server, which ends silent indicators after 6 s, hears of it again.
    expect(emit.mock.calls).toEqual([[true], [true]]);

    vi.advanceTimersByTime(typingStopDelayMs - 1);
    expect(emit.mock.calls).toEqual([[true], [true]]);
    vi.advanceTimersByTime(1);
    expect(emit.mock.calls).toEqual([[true], [true], [false]]);
    expect(typing.isTyping).toBe(false);
  });

  it('starts again on the next keystroke after a stop', () => {
    const emit = vi.fn();
    const typing = new TypingNotifier(emit);
    typing.input();
    vi.advanceTimersByTime(typingStopDelayMs);
    typing.input();
    expect(emit.mock.calls).toEqual([[true], [false], [true]]);
  });

  it('stops at once on send or leave, and not again when the timer would have fired', () => {
    const emit = vi.fn();
    const typing = new TypingNotifier(emit);
    typing.input();
    typing.stop();
    expect(emit.mock.calls).toEqual([[true], [false]]);
    vi.advanceTimersByTime(typingStopDelayMs * 2);
    typing.stop();
    expect(emit.mock.calls).toEqual([[true], [false]]);
  });

  it('says nothing when stopped without having typed', () => {
    const emit = vi.fn();
    new TypingNotifier(emit).stop();
    expect(emit).not.toHaveBeenCalled();
  });
});

describe('typing indicators', () => {
  const bob: TypingUser = { id: 2, username: 'bob', full_name: 'Bob Jones' };
  const carol: TypingUser = { id: 3, username: 'carol', full_name: '' };
  const context = { dealId: 7, viewerId: 1 };
  const update = (userInfo: TypingUser, isTyping: boolean, dealId = 7) => ({ dealId, userInfo, isTyping });

  it('show and hide per user', () => {
    let typing = applyTypingEvent([], update(bob, true), context);
    typing = applyTypingEvent(typing, update(carol, true), context);
    expect(typing.map(typingText)).toEqual(['Bob Jones is typing…', 'carol is typing…']);
    typing = applyTypingEvent(typing, update(bob, false), context);
    expect(typing).toEqual([carol]);
  });

  it("ignore the user's own typing and other deals", () => {
    const none: TypingUser[] = [];
    expect(applyTypingEvent(none, update({ ...bob, id: 1 }, true), context)).toBe(none);
    expect(applyTypingEvent(none, update(bob, true, 8), context)).toBe(none);
  });

  it('change nothing for a repeated event', () => {
    const typing = [bob];
    expect(applyTypingEvent(typing, update(bob, true), context)).toBe(typing);
    expect(applyTypingEvent(typing, update(carol, false), context)).toBe(typing);
    expect(withoutTypingUser(typing, 3)).toBe(typing);
    expect(withoutTypingUser(typing, 2)).toEqual([]);
  });
});
