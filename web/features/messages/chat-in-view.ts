import { type RefObject, useEffect } from 'react';

/**
 * Which deals' chats a person is looking at now: the chat's history is on screen (a fifth of it at
 * least) in a visible tab. A chat message about such a deal needs no toast: it is in front of them.
 */

/** How much of the chat's history must be on screen for the chat to count as seen. */
const visibleShare = 0.2;

/** For each deal, how many of its chats are on screen (one page may show a chat twice, e.g. in tests). */
const chatsOnScreen = new Map<number, number>();

/** Whether the deal's chat is open, on screen, and the tab visible. */
export function isChatInView(dealId: number | null | undefined): boolean {
  if (dealId == null || typeof document === 'undefined') return false;
  return document.visibilityState === 'visible' && (chatsOnScreen.get(dealId) ?? 0) > 0;
}

/** Counts the chat of `dealId` as on screen while `ref`'s element is (where it cannot be watched: while it is mounted). */
export function useChatInView(dealId: number, ref: RefObject<Element | null>) {
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    let counted = false;
    const count = (onScreen: boolean) => {
      if (onScreen === counted) return;
      counted = onScreen;
      const next = (chatsOnScreen.get(dealId) ?? 0) + (onScreen ? 1 : -1);
      if (next > 0) chatsOnScreen.set(dealId, next);
      else chatsOnScreen.delete(dealId);
    };
    if (typeof IntersectionObserver === 'undefined') {
      count(true);
      return () => count(false);
    }
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries[entries.length - 1];
        if (entry) count(entry.isIntersecting && entry.intersectionRatio >= visibleShare);
      },
      { threshold: [0, visibleShare] },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      count(false);
    };
  }, [dealId, ref]);
}
