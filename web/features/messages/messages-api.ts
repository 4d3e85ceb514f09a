import { type QueryClient, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { Message, MessageReads, MessagesReadEvent, UnreadMessages } from '../../../contract/messages';
import { api } from '../../lib/api';
import { fetchTimelineAfter, fetchTimelinePage, timelinePageSize } from '../timeline';
import {
  type ChatItem,
  insertItems,
  insertMessage,
  lastItemId,
  type MessagePage,
  type MessagePages,
} from './message-list';
import { applyReadEvent } from './read-marks';

export const messageKeys = {
  /** Every deal's chat history. */
  all: ['messages'] as const,
  /** GET /deals/{dealId}/timeline: the deal's chat and timeline entries, page after page (latest first). */
  ofDeal: (dealId: number) => ['messages', 'deal', dealId] as const,
  /** GET /messages/deal/{dealId}/reads: how far each participant has read. */
  readsOfDeal: (dealId: number) => ['messages', 'deal', dealId, 'reads'] as const,
  /** GET /messages/unread: the viewer's unread count per deal. */
  unread: () => ['messages', 'unread'] as const,
};

/** Whether a query key is a deal's history (not its reads): those catch up after a reconnection. */
export const isDealHistoryKey = (key: readonly unknown[]) =>
  key.length === 3 && key[0] === 'messages' && key[1] === 'deal';

/**
 * A deal's chat history with its timeline entries (the timeline): the latest page first, then older
 * pages (each `before` the oldest item loaded so far). Live messages are added to the cached pages by
 * the realtime layer.
 */
export const useDealMessages = (dealId: number, enabled = true) =>
  useInfiniteQuery({
    queryKey: messageKeys.ofDeal(dealId),
    queryFn: async ({ pageParam, signal }): Promise<MessagePage> => {
      const messages: ChatItem[] = await fetchTimelinePage(dealId, { before: pageParam, signal });
      return { messages, hasMore: messages.length === timelinePageSize };
    },
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (lastPage) => (lastPage.hasMore ? lastPage.messages[0]?.id : undefined),
    enabled,
  });

/** How far each participant of the deal has read its chat. */
export const useMessageReads = (dealId: number) =>
  useQuery({
    queryKey: messageKeys.readsOfDeal(dealId),
    queryFn: async ({ signal }) =>
      (await api.get<MessageReads>(`/messages/deal/${dealId}/reads`, { signal })).reads,
  });

/** The viewer's unread message count of each of their deals (dealId → count). */
export const useUnreadMessages = () =>
  useQuery({
    queryKey: messageKeys.unread(),
    queryFn: ({ signal }) => api.get<UnreadMessages>('/messages/unread', { signal }),
    select: (data) => new Map(data.deals.map((deal) => [deal.dealId, deal.unread])),
  });

/** POST /messages/deal/{dealId}/read: the viewer has read the chat up to `lastReadId`. */
export const markMessagesRead = (dealId: number, lastReadId: number) =>
  api.post<{ unread: number }>(`/messages/deal/${dealId}/read`, { lastReadId });

/** POST /messages/send; `clientId` lets the caller recognise the server's copy of its message. */
export const sendMessage = (input: { dealId: number; content: string; clientId: string }) =>
  api.post<Message>('/messages/send', input);

/**
 * Adds a message to the cached history of its deal (nothing if it is there already). With no history
 * loaded yet, a fetch under way could have missed it: it starts again.
 */
export function putMessageInCache(queryClient: QueryClient, message: Message) {
  const key = messageKeys.ofDeal(message.dealId);
  const cached = queryClient.getQueryData<MessagePages>(key);
  if (cached) {
    const next = insertMessage(cached, message);
    if (next !== cached) queryClient.setQueryData<MessagePages>(key, next);
  } else {
    void queryClient.invalidateQueries({ queryKey: key });
  }
}

/** Moves a participant's read mark in the cached reads of the deal ("Seen by" follows at once). */
export function putReadInCache(queryClient: QueryClient, event: MessagesReadEvent) {
  const key = messageKeys.readsOfDeal(event.dealId);
  if (queryClient.getQueryData(key)) {
    queryClient.setQueryData<MessageReads['reads']>(key, (reads) => reads && applyReadEvent(reads, event));
  }
  void queryClient.invalidateQueries({ queryKey: key, exact: true });
}

/**
 * Brings a cached history up to date without reloading it (after a reconnection, or when the deal
 * changed): the timeline after the last item held, page after page so that none is skipped, and the
 * latest page again (an item whose transaction committed after a later one's is then not missed);
 * each added once, in order. Nothing when the deal's history is not cached.
 */
export async function catchUpDealHistory(queryClient: QueryClient, dealId: number) {
  const key = messageKeys.ofDeal(dealId);
  const cached = queryClient.getQueryData<MessagePages>(key);
  if (!cached) return;
  const found: ChatItem[] = await fetchTimelinePage(dealId);
  const after = lastItemId(cached);
  if (after !== undefined) found.push(...(await fetchTimelineAfter(dealId, after)));
  queryClient.setQueryData<MessagePages>(key, (current) => insertItems(current, found));
}

/** Catches up every cached deal history (after the realtime connection came back). */
export function catchUpAllHistories(queryClient: QueryClient) {
  const dealIds = queryClient
    .getQueriesData<MessagePages>({
      queryKey: messageKeys.all,
      predicate: (q) => isDealHistoryKey(q.queryKey),
    })
    .map(([key]) => key[2] as number);
  return Promise.all(
    dealIds.map((dealId) =>
      catchUpDealHistory(queryClient, dealId).catch((error) =>
        console.warn(`Catching up the chat of deal ${dealId} failed:`, error),
      ),
    ),
  );
}
