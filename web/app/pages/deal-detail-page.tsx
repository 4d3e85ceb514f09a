import { useNavigate, useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { AlertCircleIcon, ArrowLeftIcon, BriefcaseIcon } from '../../components/ui/icons';
import { DocumentTitle, PageContainer } from '../../components/ui/page-header';
import { LoadingState } from '../../components/ui/spinner';
import { useAuth } from '../../features/auth/auth-context';
import { DealCompletedSection } from '../../features/deal-completion/deal-completed-section';
import { DealWorkActions } from '../../features/deal-completion/deal-work-actions';
import { DealActionsSection } from '../../features/deals/deal-detail/deal-actions-section';
import { DealBidsSection } from '../../features/deals/deal-detail/deal-bids-section';
import { DealFinalizedSection } from '../../features/deals/deal-detail/deal-finalized-section';
import { DealHeaderSection } from '../../features/deals/deal-detail/deal-header-section';
import { DealParticipantsSection } from '../../features/deals/deal-detail/deal-participants-section';
import { dealViewerOf } from '../../features/deals/deal-rules';
import { useDeal } from '../../features/deals/deals-api';
import { DealMessagesSection } from '../../features/messages/deal-messages-panel';
import { EscrowStatusBox } from '../../features/wallet/escrow-status-box';
import { ApiError } from '../../lib/api';

/** One deal (/deals/:dealId): its sections in order, each showing only what its viewer may see. */
export function DealDetailPage() {
  const { dealId: param = '' } = useParams();
  const dealId = /^\d+$/.test(param) ? Number(param) : Number.NaN;
  const { user } = useAuth();
  const deal = useDeal(dealId);

  if (Number.isNaN(dealId) || (deal.isError && deal.error instanceof ApiError && deal.error.status === 404)) {
    return (
      <DealUnavailable title="Deal not found" description="This deal does not exist, or it was deleted." />
    );
  }
  if (deal.isError) {
    return (
      <DealUnavailable
        title="Failed to load deal."
        description="Something went wrong while loading this deal. Please try again."
        retry={() => deal.refetch()}
      />
    );
  }
  if (deal.isPending || !user) {
    return (
      <PageContainer>
        <LoadingState label="Loading deal..." />
      </PageContainer>
    );
  }

  const props = { deal: deal.data, viewer: dealViewerOf(deal.data, user.username) };
  return (
    <PageContainer className="max-w-5xl space-y-6">
      <DealHeaderSection {...props} />
      <DealParticipantsSection {...props} />
      <EscrowStatusBox {...props} />
      <DealActionsSection {...props} />
      <DealBidsSection {...props} />
      <DealFinalizedSection {...props} />
      <DealCompletedSection {...props} />
      <DealWorkActions {...props} />
      <DealMessagesSection {...props} />
    </PageContainer>
  );
}

function DealUnavailable({
  title,
  description,
  retry,
}: {
  title: string;
  description: string;
  retry?: () => void;
}) {
  const navigate = useNavigate();
  return (
    <PageContainer className="max-w-5xl">
      <DocumentTitle title={title} />
      <Card>
        <EmptyState
          icon={retry ? <AlertCircleIcon size={28} /> : <BriefcaseIcon size={28} />}
          title={title}
          description={description}
          action={
            <div className="flex flex-wrap justify-center gap-3">
              <Button variant="outline" onClick={() => navigate('/deals')}>
                <ArrowLeftIcon size={16} />
                Back to Deals
              </Button>
              {retry && <Button onClick={retry}>Try again</Button>}
            </div>
          }
        />
      </Card>
    </PageContainer>
  );
}
