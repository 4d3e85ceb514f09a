import {
  type InfiniteData,
  type QueryClient,
  useInfiniteQuery,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type {
  Notification,
  NotificationEvent,
  NotificationList,
  NotificationPreferences,
} from '../../../contract/notifications';
import { api } from '../../lib/api';
import { markReadInPages } from './notification-list';

export const notificationPageSize = 20;

export const notificationKeys = {
  /** Everything about the viewer's notifications. */
  all: ['notifications'] as const,
  /** GET /notifications, page after page (newest first). */
  list: () => ['notifications', 'list'] as const,
  /** How many are unread: the bell's count. */
  unreadCount: () => ['notifications', 'unread-count'] as const,
  /** GET /notifications/preferences: which kinds are mailed. */
  preferences: () => ['notifications', 'preferences'] as const,
};

export type NotificationPages = InfiniteData<NotificationList, number | undefined>;

/** The bell's count: how many of the viewer's notifications are unread (kept live by the realtime layer). */
export const useUnreadNotificationCount = (enabled: boolean) =>
  useQuery({
    queryKey: notificationKeys.unreadCount(),
    queryFn: async ({ signal }) =>
      (await api.get<NotificationList>('/notifications?limit=1', { signal })).unreadCount,
    enabled,
  });

/** The viewer's notifications, newest first, older pages `before` the oldest loaded. */
export function useNotificationList() {
  const queryClient = useQueryClient();
  return useInfiniteQuery({
    queryKey: notificationKeys.list(),
    queryFn: async ({ pageParam, signal }) => {
      const cursor = pageParam ? `&before=${pageParam}` : '';
      const page = await api.get<NotificationList>(`/notifications?limit=${notificationPageSize}${cursor}`, {
        signal,
      });
      queryClient.setQueryData(notificationKeys.unreadCount(), page.unreadCount);
      return page;
    },
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (lastPage) =>
      lastPage.notifications.length === notificationPageSize ? lastPage.notifications.at(-1)?.id : undefined,
  });
}

/** Marks some notifications (or all of them) read, here at once and then on the server. */
export async function markNotificationsRead(queryClient: QueryClient, which: number[] | 'all') {
  const readAt = new Date().toISOString();
  queryClient.setQueryData<NotificationPages>(notificationKeys.list(), (pages) =>
    markReadInPages(pages, which, readAt),
  );
  const { unreadCount } = await api.post<{ unreadCount: number }>(
    '/notifications/read',
    which === 'all' ? { all: true } : { ids: which },
  );
  queryClient.setQueryData(notificationKeys.unreadCount(), unreadCount);
}

/** A notification arrived: the bell counts it at once, and the open list shows it. */
export function putNotificationInCache(queryClient: QueryClient, event: NotificationEvent) {
  queryClient.setQueryData(notificationKeys.unreadCount(), event.unreadCount);
  void queryClient.invalidateQueries({ queryKey: notificationKeys.list() });
}

export const useNotificationPreferences = () =>
  useQuery({
    queryKey: notificationKeys.preferences(),
    queryFn: ({ signal }) => api.get<NotificationPreferences>('/notifications/preferences', { signal }),
  });

export const saveNotificationPreferences = (preferences: NotificationPreferences) =>
  api.put<NotificationPreferences>('/notifications/preferences', preferences);

export type { Notification };
