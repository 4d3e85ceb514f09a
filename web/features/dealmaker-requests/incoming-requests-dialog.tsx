import { useId } from 'react';
import type { IncomingRequest } from '../../../contract/deals';
import { Button } from '../../components/ui/button';
import { useConfirmation } from '../../components/ui/confirm-dialog';
import { EmptyState } from '../../components/ui/empty-state';
import { MailIcon } from '../../components/ui/icons';
import { QueryDialog } from '../../components/ui/query-dialog';
import { errorMessage } from '../../lib/api';
import { formatMoney } from '../../lib/money';
import { notifyError, notifySuccess } from '../../lib/notify';
import { formatDate } from '../../lib/time';
import { useAcceptRequest, useIncomingRequests, useRejectRequest } from './dealmaker-requests-api';
import { acceptRequestConfirmation, rejectRequestConfirmation } from './request-confirmations';

type IncomingRequestsDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/** Requests to be the dealmaker of someone's deal, each with Reject and Accept. */
export function IncomingRequestsDialog({ open, onOpenChange }: IncomingRequestsDialogProps) {
  const requests = useIncomingRequests(open);

  return (
    <QueryDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Incoming Dealmaker Requests"
      description="Dealers asking you to be the dealmaker of their deal."
      query={requests}
      loadingLabel="Loading requests..."
      errorText="Failed to load your requests."
      retry={false}
      empty={
        requests.data?.length === 0 && (
          <EmptyState
            icon={<MailIcon size={28} />}
            title="You have no incoming dealmaker requests."
            className="py-10"
          />
        )
      }
    >
      <ul className="space-y-4">
        {requests.data?.map((request) => (
          <IncomingRequestItem key={request.id} request={request} onAccepted={() => onOpenChange(false)} />
        ))}
      </ul>
    </QueryDialog>
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
  const confirmation = useConfirmation();
  const ids = { id: request.id, dealId: request.dealId };
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
            onClick={() =>
              confirmation.ask(
                rejectRequestConfirmation(request, { onConfirm: () => reject.mutateSettled(ids) }),
              )
            }
          >
            Reject
          </Button>
          <Button
            variant="success"
            size="sm"
            loading={accept.isPending}
            disabled={busy}
            onClick={() =>
              confirmation.ask(
                acceptRequestConfirmation(request, { onConfirm: () => accept.mutateSettled(ids) }),
              )
            }
          >
            Accept
          </Button>
          {confirmation.dialog}
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
