import { useLayoutEffect, useRef } from 'react';
import { isTimelineEntry } from '../timeline';
import type { ChatLine } from './message-list';

/** How close to an edge (px) counts as being at it. */
const edgePx = 80;

type History = {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => unknown;
};

/**
 * The chat list's scrolling: it stays at the newest message (when the user was there, or sent it),
 * loads older messages when the top is reached without moving what is on screen, and keeps the
 * newest message in view when the panel is resized (fullscreen on or off).
 */
export function useChatScroll(
  messages: ChatLine[],
  history: History,
  options: {
    fullscreen: boolean;
    viewerId: number | undefined;
    /** Where "New messages" goes once known (null: nowhere): the chat opens there rather than at the end. */
    firstUnreadId?: number | null;
    /** Changes when something is added under the last message (e.g. "Seen by"): the end stays in view. */
    tail?: string;
  },
) {
  const listRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const restore = useRef<{ height: number; top: number } | null>(null);
  const lastShown = useRef<ChatLine['id'] | undefined>(undefined);
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = history;
  const { fullscreen, viewerId, firstUnreadId, tail } = options;

  const onScroll = () => {
    const list = listRef.current;
    if (!list) return;
    atBottom.current = list.scrollHeight - list.scrollTop - list.clientHeight < edgePx;
    if (list.scrollTop < edgePx && hasNextPage && !isFetchingNextPage && !isFetchNextPageError) {
      restore.current = { height: list.scrollHeight, top: list.scrollTop };
      void fetchNextPage();
    }
  };

  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    if (restore.current && !isFetchingNextPage) {
      // Older messages went in above: the ones on screen stay where they were.
      list.scrollTop = list.scrollHeight - restore.current.height + restore.current.top;
      restore.current = null;
    }
    const last = messages[messages.length - 1];
    if (last && last.id !== lastShown.current) {
      const first = lastShown.current === undefined;
      lastShown.current = last.id;
      if (first || atBottom.current || (!isTimelineEntry(last) && last.senderId === viewerId)) {
        list.scrollTop = list.scrollHeight;
        atBottom.current = true;
      }
    }
  }, [messages, isFetchingNextPage, viewerId]);

  // Opening with unread messages: the first of them at the top, when they do not all fit.
  const dividerShown = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the divider's place is known
  useLayoutEffect(() => {
    const list = listRef.current;
    const divider = list?.querySelector('[data-new-messages]');
    if (!list || !divider || dividerShown.current) return;
    dividerShown.current = true;
    list.scrollTop += divider.getBoundingClientRect().top - list.getBoundingClientRect().top - 8;
    atBottom.current = list.scrollHeight - list.scrollTop - list.clientHeight < edgePx;
  }, [firstUnreadId]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the line under the last message changes
  useLayoutEffect(() => {
    const list = listRef.current;
    if (list && atBottom.current) list.scrollTop = list.scrollHeight;
  }, [tail]);

  const wasFullscreen = useRef(fullscreen);
  useLayoutEffect(() => {
    const list = listRef.current;
    if (wasFullscreen.current === fullscreen) return;
    wasFullscreen.current = fullscreen;
    if (list && atBottom.current) list.scrollTop = list.scrollHeight;
  });

  return { listRef, onScroll };
}
