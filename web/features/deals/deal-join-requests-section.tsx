import { useId } from 'react';
import type { JoinRequest } from '../../../contract/deal-changes';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { ErrorRetry } from '../../components/ui/error-retry';
import { UsersIcon } from '../../components/ui/icons';
import { Spinner } from '../../components/ui/spinner';
import { serverReason } from '../../lib/api';
import { formatDateTime } from '../../lib/time';
import { useTimedMessage } from '../../lib/use-timed-message';
import { dealTexts, type Flash, FlashStrip, failure, flashDurationMs, success } from './deal-flash';
import { type DealSectionProps, DetailSection } from './deal-section';
import {
  type JoinDecision,
  pendingJoinRequests,
  useDecideJoinRequest,
  useJoinRequests,
} from './join-requests-api';
import { UserProfileLink } from './user-profile-link';

/**
 * 'Requests to join', for the creator of a deal posted with joinPolicy 'approval' while it has no
 * counterpart: each pending request (who, their message, when) with Accept and Decline. New requests
 * arrive live (realtime 'join-request-updated').
 */
export function DealJoinRequestsSection({ deal, viewer }: DealSectionProps) {
  const [flash, showFlash] = useTimedMessage<Flash>(flashDurationMs);
  const open =
    viewer.role === 'creator' && deal.joinPolicy === 'approval' && !deal.dealer_joined && !deal.is_completed;
  const requests = useJoinRequests(deal.id, open);
  const decide = useDecideJoinRequest({
    onSuccess: (_answer, { decision }) =>
      showFlash(success(decision === 'accept' ? dealTexts.joinAccepted : dealTexts.joinDeclined)),
    onError: (error, { decision }) => {
      console.error(`Answering a request to join (${decision}) failed`, error);
      showFlash(
        failure(decision === 'accept' ? dealTexts.joinAcceptFailed : dealTexts.joinDeclineFailed, error),
      );
    },
  });
  // The outcome of accepting stays a moment after the section's reason to show is gone (a counterpart).
  if (!open && !(flash && viewer.role === 'creator')) return null;
  const pending = pendingJoinRequests(requests.data);
  const running = decide.isPending ? decide.variables : undefined;

  return (
    <DetailSection
      title="Requests to join"
      description="You accept who joins this deal as its counterpart: accepting one declines the others."
    >
      <div className="space-y-4">
        <FlashStrip flash={flash} />
        {!open ? null : requests.isPending ? (
          <div className="flex justify-center py-4 text-indigo-500">
            <Spinner label="Loading requests to join" />
          </div>
        ) : requests.isError ? (
          <ErrorRetry detail={serverReason(requests.error)} onRetry={requests.refetch}>
            Failed to load the requests to join.
          </ErrorRetry>
        ) : pending.length === 0 ? (
          <EmptyState
            icon={<UsersIcon size={24} />}
            title="No requests to join yet."
            description="Dealers who ask to join appear here at once."
            framed="inline"
            className="py-8"
          />
        ) : (
          <ul className="space-y-3">
            {pending.map((request) => (
              <JoinRequestItem
                key={request.id}
                request={request}
                running={running?.requestId === request.id ? running.decision : undefined}
                busy={decide.isPending}
                onDecide={(decision) => decide.mutate({ dealId: deal.id, requestId: request.id, decision })}
              />
            ))}
          </ul>
        )}
      </div>
    </DetailSection>
  );
}

function JoinRequestItem({
  request,
  running,
  busy,
  onDecide,
}: {
  request: JoinRequest;
  /** The answer to this request under way, if any. */
  running: JoinDecision | undefined;
  busy: boolean;
  onDecide: (decision: JoinDecision) => void;
}) {
  const nameId = useId();
  const { requester } = request;
  return (
    <li>
      <article aria-labelledby={nameId} className="rounded-xl border border-slate-200 p-4">
        <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
          <h3 id={nameId} className="min-w-0 text-sm break-words text-slate-900">
            <UserProfileLink username={requester.username} />
            {requester.full_name && <span className="text-slate-600"> · {requester.full_name}</span>}
          </h3>
          <time dateTime={request.createdAt} className="text-xs text-slate-500">
            {formatDateTime(request.createdAt)}
          </time>
        </div>
        {request.message ? (
          <blockquote className="mt-3 rounded-lg border-l-4 border-indigo-300 bg-indigo-50/60 px-4 py-2.5 text-sm break-words whitespace-pre-line text-slate-700">
            {request.message}
          </blockquote>
        ) : (
          <p className="mt-3 text-sm text-slate-500 italic">No message.</p>
        )}
        <div className="mt-4 flex justify-end gap-2">
          <Button
            variant="outline"
            size="sm"
            loading={running === 'decline'}
            disabled={busy}
            onClick={() => onDecide('decline')}
          >
            Decline
          </Button>
          <Button
            variant="success"
            size="sm"
            loading={running === 'accept'}
            disabled={busy}
            onClick={() => onDecide('accept')}
          >
            Accept
          </Button>
        </div>
      </article>
    </li>
  );
}
