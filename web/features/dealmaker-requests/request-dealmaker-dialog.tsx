import { type FormEvent, useId, useState } from 'react';
import type { Deal, DealmakerRequest } from '../../../contract/deals';
import { limits } from '../../../contract/limits';
import type { User } from '../../../contract/users';
import { Alert } from '../../components/ui/alert';
import { Avatar } from '../../components/ui/avatar';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { EmptyState } from '../../components/ui/empty-state';
import { MailIcon, SearchIcon, UsersIcon } from '../../components/ui/icons';
import { Input } from '../../components/ui/input';
import { Spinner } from '../../components/ui/spinner';
import { ApiError } from '../../lib/api';
import { notifyError, notifySuccess } from '../../lib/notify';
import { formatDate } from '../../lib/time';
import { useCancelRequest, useDealRequests, useRequestCandidates } from './dealmaker-requests-api';
import { SendRequestDialog } from './send-request-dialog';

type RequestDealmakerDialogProps = {
  deal: Deal;
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/**
 * A dealer asks someone directly to be the deal's dealmaker: search users on the left, the requests
 * already sent for this deal on the right.
 */
export function RequestDealmakerDialog({ deal, open, onOpenChange }: RequestDealmakerDialogProps) {
  const requests = useDealRequests(deal.id, open);
  const requested = new Set(requests.data?.map((request) => request.receiverUsername.toLowerCase()));

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Request a Dealmaker"
      description={<>Ask a user directly to be the dealmaker of “{deal.title}”.</>}
      size="2xl"
    >
      <div className="grid gap-6 md:grid-cols-2">
        <CandidateSearch deal={deal} requested={requested} requestsLoaded={!!requests.data} />
        <section aria-labelledby="sent-requests-title" className="min-w-0">
          <h3 id="sent-requests-title" className="mb-3 font-semibold text-slate-900">
            Sent Requests
          </h3>
          {requests.isPending ? (
            <div className="flex justify-center py-8 text-indigo-500">
              <Spinner label="Loading requests" />
            </div>
          ) : requests.isError ? (
            <Alert variant="error">Failed to load the requests.</Alert>
          ) : requests.data.length === 0 ? (
            <div className="rounded-xl border border-dashed border-slate-300">
              <EmptyState
                icon={<MailIcon size={24} />}
                title="No requests sent for this deal yet."
                className="py-8"
              />
            </div>
          ) : (
            <ul className="space-y-3">
              {requests.data.map((request) => (
                <SentRequest key={request.id} request={request} />
              ))}
            </ul>
          )}
        </section>
      </div>
    </Dialog>
  );
}

function CandidateSearch({
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
        <div className="rounded-xl border border-dashed border-slate-300">
          <EmptyState
            icon={<UsersIcon size={24} />}
            title="No users found"
            description={keyword ? 'Try a different search term.' : undefined}
            className="py-8"
          />
        </div>
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

function SentRequest({ request }: { request: DealmakerRequest }) {
  const cancel = useCancelRequest({
    onSuccess: () => notifySuccess('Request canceled successfully!'),
    onError: (error) =>
      notifyError('Failed to cancel request', error instanceof ApiError ? error.serverMessage : undefined),
  });
  return (
    <li className="rounded-xl border border-slate-200 px-4 py-3">
      <div className="flex items-start justify-between gap-3">
        <dl className="min-w-0 space-y-0.5 text-sm">
          <div className="flex gap-1.5">
            <dt className="text-slate-500">To:</dt>
            <dd className="truncate font-medium text-slate-900">@{request.receiverUsername}</dd>
          </div>
          <div className="flex gap-1.5">
            <dt className="text-slate-500">From:</dt>
            <dd className="truncate text-slate-700">@{request.senderUsername}</dd>
          </div>
        </dl>
        <span className="text-xs text-slate-400">{formatDate(request.createdAt)}</span>
      </div>
      <p className="mt-2 rounded-lg bg-slate-50 px-3 py-2 text-sm break-words whitespace-pre-line text-slate-700">
        {request.message}
      </p>
      <div className="mt-3 flex items-center justify-between gap-3">
        <p className="flex items-center gap-1.5 text-sm text-slate-500">
          Status:
          {request.rejected ? <Badge tone="red">Rejected</Badge> : <Badge tone="amber">Pending</Badge>}
        </p>
        <Button
          variant="outline"
          size="sm"
          disabled={request.rejected}
          loading={cancel.isPending}
          onClick={() => cancel.mutate({ id: request.id, dealId: request.dealId })}
        >
          Cancel Request
        </Button>
      </div>
    </li>
  );
}
