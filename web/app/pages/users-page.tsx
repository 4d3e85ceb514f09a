import { useState } from 'react';
import { limits } from '../../../contract/limits';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { SearchIcon, UsersIcon } from '../../components/ui/icons';
import { PageContainer, PageHeader } from '../../components/ui/page-header';
import { LoadingState, Spinner } from '../../components/ui/spinner';
import { useAuth } from '../../features/auth/auth-context';
import { UserCard } from '../../features/users/user-card';
import { useUserDirectory, useUserSearch } from '../../features/users/users-api';

export function UsersPage() {
  const { user: me } = useAuth();
  const [query, setQuery] = useState('');
  const keyword = query.trim();
  const searching = keyword.length > 0;

  // Live search on every keystroke; a blank query shows the whole directory again.
  const directory = useUserDirectory(!searching);
  const search = useUserSearch(keyword);

  const users = searching ? search.data : directory.data?.pages.flat();
  const loading = searching ? search.isPending : directory.isPending;
  const failed = searching ? search.isError : directory.isError;

  return (
    <PageContainer>
      <PageHeader title="Users" description="Find other members of Dealmaker and look at their profiles." />

      <div className="relative mb-8 max-w-xl">
        <label htmlFor="user-search" className="sr-only">
          Search users
        </label>
        <SearchIcon
          size={18}
          className="pointer-events-none absolute top-1/2 left-3.5 -translate-y-1/2 text-slate-400"
        />
        <input
          id="user-search"
          type="search"
          value={query}
          maxLength={limits.searchQuery.max}
          onChange={(event) => setQuery(event.target.value)}
          placeholder="Search by username or name..."
          autoComplete="off"
          className="h-12 w-full rounded-xl border border-slate-300 bg-white pr-11 pl-10 text-sm shadow-sm placeholder:text-slate-400 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none"
        />
        {searching && search.isFetching && (
          <Spinner
            size="sm"
            label="Searching"
            className="absolute top-1/2 right-4 -translate-y-1/2 text-indigo-500"
          />
        )}
      </div>

      {failed && !users ? (
        <Alert variant="error">{searching ? 'Failed to search users' : 'Failed to fetch users'}</Alert>
      ) : loading ? (
        <LoadingState label="Loading users..." />
      ) : !users || users.length === 0 ? (
        <div className="rounded-2xl border border-dashed border-slate-300 bg-white">
          <EmptyState
            icon={<UsersIcon size={28} />}
            title="No users found"
            description={searching ? 'Try a different search term.' : 'No users available at the moment.'}
          />
        </div>
      ) : (
        <>
          {searching && !search.isPlaceholderData && (
            <p className="mb-4 text-sm text-slate-500" aria-live="polite">
              {users.length} {users.length === 1 ? 'user matches' : 'users match'} “{keyword}”
            </p>
          )}
          <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            {users.map((user) => (
              <UserCard key={user.id} user={user} isMe={user.id === me?.id} />
            ))}
          </ul>
          {!searching && directory.hasNextPage && (
            <div className="mt-8 flex justify-center">
              <Button
                variant="outline"
                loading={directory.isFetchingNextPage}
                onClick={() => directory.fetchNextPage()}
              >
                {directory.isFetchingNextPage ? 'Loading...' : 'Load more users'}
              </Button>
            </div>
          )}
        </>
      )}
    </PageContainer>
  );
}
