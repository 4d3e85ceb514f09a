import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { limits } from '../../../contract/limits';
import type { User } from '../../../contract/users';
import { api, segment } from '../../lib/api';

/** Every cached user list and user record starts with this key (invalidate it after a profile change). */
export const usersQueryKey = ['users'] as const;

const pageSize = limits.page.defaultLimit;

/** The directory, newest members first, a page at a time (GET /auth/users?limit&before). */
export const useUserDirectory = (enabled: boolean) =>
  useInfiniteQuery({
    queryKey: [...usersQueryKey, 'list'],
    queryFn: ({ pageParam }) =>
      api.get<User[]>(`/auth/users?limit=${pageSize}${pageParam ? `&before=${pageParam}` : ''}`),
    initialPageParam: 0,
    getNextPageParam: (lastPage) =>
      lastPage.length === pageSize ? lastPage[lastPage.length - 1]?.id : undefined,
    enabled,
  });

/** Users whose username or name contains the query (GET /auth/users/search?q=). */
export const useUserSearch = (query: string) =>
  useQuery({
    queryKey: [...usersQueryKey, 'search', query],
    queryFn: ({ signal }) => api.get<User[]>(`/auth/users/search?q=${encodeURIComponent(query)}`, { signal }),
    enabled: query.length > 0,
    // Keeps the previous results on screen while the next keystroke's answer arrives.
    placeholderData: keepPreviousData,
  });

/** One user's public profile (GET /auth/users/{username}). */
export const useUser = (username: string) =>
  useQuery({
    queryKey: [...usersQueryKey, 'detail', username.toLowerCase()],
    queryFn: () => api.get<User>(`/auth/users/${segment(username)}`),
    enabled: username.length > 0,
  });
