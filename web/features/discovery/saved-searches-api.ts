import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NewSavedSearch, SavedSearch } from '../../../contract/discovery';
import { api } from '../../lib/api';
import { type MutationCallbacks, useGuardedMutation } from '../../lib/use-guarded-mutation';

/** What POST /saved-searches takes: the query's amounts in dollars, as the wire has them. */
export type SavedSearchInput = { name: string; query: SavedSearch['query']; alert: boolean };

export const savedSearchKeys = {
  /** GET /saved-searches: the viewer's saved searches, newest first, each with its new matches. */
  all: ['saved-searches'] as const,
};

/** The viewer's saved searches (GET /saved-searches). */
export const savedSearchesQueryOptions = queryOptions({
  queryKey: savedSearchKeys.all,
  queryFn: ({ signal }) => api.get<SavedSearch[]>('/saved-searches', { signal }),
});

export const useSavedSearches = () => useQuery(savedSearchesQueryOptions);

/** A saved search as the server now answers it, in place of the cached one (or first, when new). */
function putSavedSearch(queryClient: QueryClient, search: SavedSearch) {
  queryClient.setQueryData<SavedSearch[]>(savedSearchKeys.all, (list) => {
    if (!list) return list;
    return list.some((other) => other.id === search.id)
      ? list.map((other) => (other.id === search.id ? search : other))
      : [search, ...list];
  });
}

export function useCreateSavedSearch(callbacks?: MutationCallbacks<SavedSearch, SavedSearchInput>) {
  const queryClient = useQueryClient();
  return useGuardedMutation(
    {
      mutationFn: (input: SavedSearchInput) => api.post<SavedSearch>('/saved-searches', input),
      onSuccess: (search) => {
        putSavedSearch(queryClient, search);
        void queryClient.invalidateQueries({ queryKey: savedSearchKeys.all });
      },
    },
    callbacks,
  );
}

/** PATCH /saved-searches/{id}: alerts about its new matches on or off. */
export function useSetSavedSearchAlert(
  callbacks?: MutationCallbacks<SavedSearch, { id: number; alert: boolean }>,
) {
  const queryClient = useQueryClient();
  return useGuardedMutation(
    {
      mutationFn: ({ id, alert }: { id: number; alert: boolean }) =>
        api.patch<SavedSearch>(`/saved-searches/${id}`, { alert }),
      onSuccess: (search) => putSavedSearch(queryClient, search),
    },
    callbacks,
  );
}

/** POST /saved-searches/{id}/seen: its new matches were looked at (their count goes back to 0). */
export async function markSavedSearchSeen(queryClient: QueryClient, id: number) {
  putSavedSearch(queryClient, await api.post<SavedSearch>(`/saved-searches/${id}/seen`));
}

export function useDeleteSavedSearch(callbacks?: MutationCallbacks<{ message: string }, number>) {
  const queryClient = useQueryClient();
  return useGuardedMutation(
    {
      mutationFn: (id: number) => api.delete<{ message: string }>(`/saved-searches/${id}`),
      onSuccess: (_answer, id) =>
        queryClient.setQueryData<SavedSearch[]>(savedSearchKeys.all, (list) =>
          list?.filter((search) => search.id !== id),
        ),
    },
    callbacks,
  );
}

export type { NewSavedSearch };
