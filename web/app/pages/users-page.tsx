import { useState } from 'react';
import { limits } from '../../../contract/limits';
import { Alert } from '../../components/ui/alert';
import { EmptyState } from '../../components/ui/empty-state';
import { UsersIcon } from '../../components/ui/icons';
import { LoadMore } from '../../components/ui/load-more';
import { PageContainer, PageHeader } from '../../components/ui/page-header';
import { SearchField } from '../../components/ui/search-field';
import { LoadingState, Spinner } from '../../components/ui/spinner';
import { useAuth } from '../../features/auth';
import { UserCard, useUserDirectory, useUserSearch } from '../../features/users';

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

      <SearchField
        id="user-search"
        label="Search users"
        wrapperClassName="mb-8 max-w-xl"
        className="h-12 pr-11"
        value={query}
        maxLength={limits.searchQuery.max}
        onChange={(event) => setQuery(event.target.value)}
        placeholder="Search by username or name..."
      >
        {searching && search.isFetching && (
          <Spinner
            size="sm"
            label="Searching"
            className="absolute top-1/2 right-4 -translate-y-1/2 text-indigo-500"
          />
        )}
      </SearchField>

      {failed && !users ? (
        <Alert variant="error">{searching ? 'Failed to search users' : 'Failed to fetch users'}</Alert>
      ) : loading ? (
        <LoadingState label="Loading users..." />
      ) : !users || users.length === 0 ? (
        <EmptyState
          framed="page"
          icon={<UsersIcon size={28} />}
          title="No users found"
          description={searching ? 'Try a different search term.' : 'No users available at the moment.'}
        />
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
          {!searching && <LoadMore query={directory} label="Load more users" className="mt-8" />}
        </>
      )}
    </PageContainer>
  );
}
