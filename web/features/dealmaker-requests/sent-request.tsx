import type { DealmakerRequest } from '../../../contract/deals';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { useConfirmation } from '../../components/ui/confirm-dialog';
import { serverReason } from '../../lib/api';
import { notifyError, notifySuccess } from '../../lib/notify';
import { formatDate } from '../../lib/time';
import { useCancelRequest } from './dealmaker-requests-api';
import { cancelRequestConfirmation } from './request-confirmations';

/** A request sent for the deal: to, from, message, status, and Cancel Request (not once rejected). */
export function SentRequest({ request }: { request: DealmakerRequest }) {
  const cancel = useCancelRequest({
    onSuccess: () => notifySuccess('Request canceled successfully!'),
    onError: (error) => notifyError('Failed to cancel request', serverReason(error)),
  });
  const confirmation = useConfirmation();
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
        <span className="text-xs text-slate-500">{formatDate(request.createdAt)}</span>
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
          onClick={() =>
            confirmation.ask(
              cancelRequestConfirmation(request, {
                onConfirm: () => cancel.mutateSettled({ id: request.id, dealId: request.dealId }),
              }),
            )
          }
        >
          Cancel Request
        </Button>
        {confirmation.dialog}
      </div>
    </li>
  );
}
