import { type QueryClient, useInfiniteQuery } from '@tanstack/react-query';
import { limits } from '../../../contract/limits';
import type { Message } from '../../../contract/messages';
import { api } from '../../lib/api';
import { insertMessage, type MessagePage, type MessagePages } from './message-list';

export const messagePageSize = limits.page.defaultLimit;

export const messageKeys = {
  /** Every deal's chat history. */
  all: ['messages'] as const,
  /** GET /messages/deal/{dealId}, page after page (latest first). */
  ofDeal: (dealId: number) => ['messages', 'deal', dealId] as const,
};

/**
 * A deal's chat history: the latest page first, then older pages (each `before` the oldest message
 * loaded so far). Live messages are added to the cached pages by the realtime layer.
 */
export const useDealMessages = (dealId: number, enabled = true) =>
  useInfiniteQuery({
    queryKey: messageKeys.ofDeal(dealId),
    queryFn: async ({ pageParam, signal }): Promise<MessagePage> => {
      const cursor = pageParam ? `&before=${pageParam}` : '';
      const messages = await api.get<Message[]>(
        `/messages/deal/${dealId}?limit=${messagePageSize}${cursor}`,
        { signal },
      );
      return { messages, hasMore: messages.length === messagePageSize };
    },
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (lastPage) => (lastPage.hasMore ? lastPage.messages[0]?.id : undefined),
    enabled,
  });

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
