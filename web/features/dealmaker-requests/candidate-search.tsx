import { type FormEvent, useId, useState } from 'react';
import type { Deal } from '../../../contract/deals';
import { limits } from '../../../contract/limits';
import type { User } from '../../../contract/users';
import { Alert } from '../../components/ui/alert';
import { Avatar } from '../../components/ui/avatar';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { SearchIcon, UsersIcon } from '../../components/ui/icons';
import { Input } from '../../components/ui/input';
import { Spinner } from '../../components/ui/spinner';
import { useRequestCandidates } from './dealmaker-requests-api';
import { SendRequestDialog } from './send-request-dialog';

/** Search users by username or name, each with Send Request (Request Sent once asked). */
export function CandidateSearch({
  deal,
  requested,
  requestsLoaded,
}: {
  deal: Deal;
  requested: Set<string>;
  requestsLoaded: boolean;
}) {
  const inputId = useId();
  const [draft, setDraft] = useState('');
  const [keyword, setKeyword] = useState('');
  const [receiver, setReceiver] = useState<User | null>(null);
  const candidates = useRequestCandidates(deal.id, keyword);

  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setKeyword(draft.trim());
  };

  return (
    <section aria-labelledby="find-dealmaker-title" className="min-w-0">
      <h3 id="find-dealmaker-title" className="mb-3 font-semibold text-slate-900">
        Find a Dealmaker
      </h3>
      <form onSubmit={search} className="mb-4 flex gap-2">
        <label htmlFor={inputId} className="sr-only">
          Search users by username or name
        </label>
        <Input
          id={inputId}
          type="search"
          value={draft}
          maxLength={limits.searchQuery.max}
          onChange={(event) => setDraft(event.target.value)}
          placeholder="Username or name..."
          autoComplete="off"
        />
        <Button type="submit" variant="outline">
          <SearchIcon size={16} />
          Search
        </Button>
      </form>
      {candidates.isPending ? (
        <div className="flex justify-center py-8 text-indigo-500">
          <Spinner label="Searching users" />
        </div>
      ) : candidates.isError ? (
        <Alert variant="error">Failed to search users.</Alert>
      ) : candidates.data.length === 0 ? (
        <EmptyState
          framed="inline"
          icon={<UsersIcon size={24} />}
          title="No users found"
          description={keyword ? 'Try a different search term.' : undefined}
          className="py-8"
        />
      ) : (
        <ul
          aria-label="Users"
          aria-busy={candidates.isFetching || undefined}
          className="max-h-[26rem] space-y-2 overflow-y-auto pr-1"
        >
          {candidates.data.map((user) => {
            const sent = requested.has(user.username.toLowerCase());
            return (
              <li
                key={user.id}
                className="flex items-center justify-between gap-3 rounded-xl border border-slate-200 px-3 py-2.5"
              >
                <div className="flex min-w-0 items-center gap-3">
                  <Avatar
                    src={user.profile.profile_picture}
                    name={user.full_name || user.username}
                    size="sm"
                  />
                  <div className="min-w-0">
                    <p className="truncate text-sm font-medium text-slate-900">@{user.username}</p>
                    <p className="truncate text-xs text-slate-500">{user.full_name}</p>
                  </div>
                </div>
                <Button
                  size="sm"
                  variant={sent ? 'secondary' : 'primary'}
                  disabled={sent || !requestsLoaded}
                  onClick={() => setReceiver(user)}
                >
                  {sent ? 'Request Sent' : 'Send Request'}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <SendRequestDialog dealId={deal.id} receiver={receiver} onClose={() => setReceiver(null)} />
    </section>
  );
}
