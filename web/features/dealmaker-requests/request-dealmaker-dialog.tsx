import type { Deal } from '../../../contract/deals';
import { Alert } from '../../components/ui/alert';
import { Dialog } from '../../components/ui/dialog';
import { EmptyState } from '../../components/ui/empty-state';
import { MailIcon } from '../../components/ui/icons';
import { Spinner } from '../../components/ui/spinner';
import { CandidateSearch } from './candidate-search';
import { useDealRequests } from './dealmaker-requests-api';
import { SentRequest } from './sent-request';

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
            <EmptyState
              framed="inline"
              icon={<MailIcon size={24} />}
              title="No requests sent for this deal yet."
              className="py-8"
            />
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
