import { useId } from 'react';
import type { IncomingRequest } from '../../../contract/deals';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { EmptyState } from '../../components/ui/empty-state';
import { MailIcon } from '../../components/ui/icons';
import { LoadingState } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api';
import { formatMoney } from '../../lib/money';
import { notifyError, notifySuccess } from '../../lib/notify';
import { formatDate } from '../../lib/time';
import { useAcceptRequest, useIncomingRequests, useRejectRequest } from './dealmaker-requests-api';

type IncomingRequestsDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/** Requests to be the dealmaker of someone's deal, each with Reject and Accept. */
export function IncomingRequestsDialog({ open, onOpenChange }: IncomingRequestsDialogProps) {
  const requests = useIncomingRequests(open);

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Incoming Dealmaker Requests"
      description="Dealers asking you to be the dealmaker of their deal."
      size="xl"
    >
      {requests.isPending ? (
        <LoadingState label="Loading requests..." className="py-10" />
      ) : requests.isError ? (
        <Alert variant="error">Failed to load your requests.</Alert>
      ) : requests.data.length === 0 ? (
        <EmptyState
          icon={<MailIcon size={28} />}
          title="You have no incoming dealmaker requests."
          className="py-10"
        />
      ) : (
        <ul className="space-y-4">
          {requests.data.map((request) => (
            <IncomingRequestItem key={request.id} request={request} onAccepted={() => onOpenChange(false)} />
          ))}
        </ul>
      )}
    </Dialog>
  );
}

function IncomingRequestItem({ request, onAccepted }: { request: IncomingRequest; onAccepted: () => void }) {
  const titleId = useId();
  const accept = useAcceptRequest({
    onSuccess: (answer) => {
      notifySuccess(answer.message);
      onAccepted();
    },
    onError: (error) => {
      console.error('Accepting a dealmaker request failed', error);
      notifyError(errorMessage(error, 'Failed to accept request'));
    },
  });
  const reject = useRejectRequest({
    onSuccess: (answer) => notifySuccess(answer.message),
    onError: (error) => {
      console.error('Rejecting a dealmaker request failed', error);
      notifyError(errorMessage(error, 'Failed to reject request'));
    },
  });
  const busy = accept.isPending || reject.isPending;
  const { deal } = request;

  return (
    <li>
      <article aria-labelledby={titleId} className="rounded-xl border border-slate-200 p-5">
        <h3 id={titleId} className="font-semibold break-words text-slate-900">
          {deal.title}
        </h3>
        <p className="mt-1.5 text-sm break-words whitespace-pre-line text-slate-600">{deal.description}</p>
        <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
          <Row label="Budget" value={formatMoney(deal.budget)} />
          <Row label="Created" value={formatDate(deal.createdAt)} />
          <Row label="Creator" value={`@${deal.creator.username}`} />
          <Row label="Counterpart" value={deal.joined_user ? `@${deal.joined_user.username}` : 'N/A'} />
        </dl>
        <figure className="mt-4 rounded-lg border-l-4 border-indigo-300 bg-indigo-50/60 px-4 py-3">
          <blockquote className="text-sm break-words whitespace-pre-line text-slate-700">
            {request.message}
          </blockquote>
          <figcaption className="mt-1 text-xs text-slate-500">from @{request.senderUsername}</figcaption>
        </figure>
        <div className="mt-4 flex justify-end gap-2">
          <Button
            variant="outline"
            size="sm"
            loading={reject.isPending}
            disabled={busy}
            onClick={() => reject.mutate({ id: request.id, dealId: request.dealId })}
          >
            Reject
          </Button>
          <Button
            variant="success"
            size="sm"
            loading={accept.isPending}
            disabled={busy}
            onClick={() => accept.mutate({ id: request.id, dealId: request.dealId })}
          >
            Accept
          </Button>
        </div>
      </article>
    </li>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex gap-2">
      <dt className="text-slate-500">{label}:</dt>
      <dd className="min-w-0 truncate font-medium text-slate-900">{value}</dd>
    </div>
  );
}
