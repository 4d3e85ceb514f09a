import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Deal } from '../../../contract/deals';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { LoadFailedCard } from '../../components/ui/error-retry';
import { HandshakeIcon, MailIcon } from '../../components/ui/icons';
import { PageContainer, PageHeader } from '../../components/ui/page-header';
import { LoadingState } from '../../components/ui/spinner';
import { IncomingRequestsDialog } from '../../features/dealmaker-requests';
import { DealTile, useDealmakerDeals } from '../../features/deals';
import { UnreadMessagesBadge } from '../../features/messages';
import { formatMoney } from '../../lib/money';
import { useDealsFeed } from '../../lib/socket-context';

/** The deals the user is the dealmaker of, and the requests asking them to be one. */
export function DealmakerPanelPage() {
  const deals = useDealmakerDeals();
  useDealsFeed();
  const [requestsOpen, setRequestsOpen] = useState(false);

  return (
    <PageContainer>
      <PageHeader
        title="Dealmaker Panel"
        description="The deals you make happen, and the dealers asking you to make theirs."
        actions={
          <Button onClick={() => setRequestsOpen(true)}>
            <MailIcon size={18} />
            View Incoming Requests
          </Button>
        }
      />

      {deals.isPending ? (
        <LoadingState label="Loading your deals..." />
      ) : deals.isError ? (
        <LoadFailedCard title="Failed to load your deals." onRetry={deals.refetch} />
      ) : deals.data.length === 0 ? (
        <EmptyState
          framed="page"
          icon={<HandshakeIcon size={28} />}
          title="You are not the dealmaker of any deal yet"
          description="Bid on deals from the Deals page, or accept a dealer's request, to become a dealmaker."
        />
      ) : (
        <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {deals.data.map((deal) => (
            <DealmakerDealCard key={deal.id} deal={deal} />
          ))}
        </ul>
      )}

      <IncomingRequestsDialog open={requestsOpen} onOpenChange={setRequestsOpen} />
    </PageContainer>
  );
}

function DealmakerDealCard({ deal }: { deal: Deal }) {
  const navigate = useNavigate();
  return (
    <DealTile
      title={deal.title}
      href={`/deals/${deal.id}`}
      badge={
        deal.is_completed ? <Badge tone="green">Completed</Badge> : <Badge tone="indigo">In progress</Badge>
      }
      note={<UnreadMessagesBadge dealId={deal.id} />}
    >
      <p className="mt-2 line-clamp-3 flex-1 text-sm break-words whitespace-pre-line text-slate-600">
        {deal.description}
      </p>
      <dl className="mt-4 rounded-xl bg-slate-50 px-4 py-3 text-sm">
        <dt className="text-xs font-medium text-slate-500">Budget</dt>
        <dd className="font-semibold text-slate-900">{formatMoney(deal.budget)}</dd>
      </dl>
      <Button
        variant="outline"
        size="sm"
        className="mt-4 w-full"
        onClick={() => navigate(`/deals/${deal.id}`)}
      >
        View Deal
      </Button>
    </DealTile>
  );
}
