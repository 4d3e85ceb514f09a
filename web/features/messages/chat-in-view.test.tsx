import { act, useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render } from '../../test/render';
import { isChatInView, useChatInView } from './chat-in-view';

/** An IntersectionObserver the test drives: `show(ratio)` tells every observer how much of its element is on screen. */
const observers: Array<(ratio: number) => void> = [];
class FakeObserver {
  constructor(private readonly callback: IntersectionObserverCallback) {
    observers.push((ratio) =>
      this.callback(
        [{ isIntersecting: ratio > 0, intersectionRatio: ratio } as IntersectionObserverEntry],
        this as never,
      ),
    );
  }
  observe() {}
  disconnect() {}
}
const show = (ratio: number) =>
  act(() => {
    for (const notify of observers) notify(ratio);
  });

function Chat({ dealId }: { dealId: number }) {
  const ref = useRef<HTMLDivElement>(null);
  useChatInView(dealId, ref);
  return <div ref={ref}>chat</div>;
}

let visibility: DocumentVisibilityState = 'visible';

describe('whether a chat is in view', () => {
  beforeEach(() => {
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
    visibility = 'visible';
  });
  afterEach(() => {
    cleanup();
    observers.length = 0;
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('is while enough of its history is on screen in a visible tab, for its deal only', async () => {
    const { unmount } = await render(<Chat dealId={4} />);
    expect(isChatInView(4)).toBe(false);
    show(0.5);
    expect(isChatInView(4)).toBe(true);
    expect(isChatInView(5)).toBe(false);
    expect(isChatInView(null)).toBe(false);
    visibility = 'hidden';
    expect(isChatInView(4)).toBe(false);
    visibility = 'visible';
    show(0.1);
    expect(isChatInView(4)).toBe(false);
    show(1);
    unmount();
    expect(isChatInView(4)).toBe(false);
  });
});
