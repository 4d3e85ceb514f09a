import { useNavigate, useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { AlertCircleIcon, ArrowLeftIcon, BriefcaseIcon } from '../../components/ui/icons';
import { DocumentTitle, PageContainer } from '../../components/ui/page-header';
import { LoadingState } from '../../components/ui/spinner';
import { useAuth } from '../../features/auth';
import { RequestDealmakerSection } from '../../features/dealmaker-requests';
import {
  DealBidsSection,
  DealCreatorSection,
  DealFinalizedSection,
  DealHeaderSection,
  DealJoinRequestsSection,
  DealParticipantsSection,
  DealVisitorSection,
  dealViewerOf,
  useDeal,
} from '../../features/deals';
import { DealCompletedSection, DealCompletionLines, EscrowStatusBox } from '../../features/escrow';
import { DealMessagesSection } from '../../features/messages';
import { MilestonesSection } from '../../features/milestones';
import { ApiError } from '../../lib/api';
import { DealWorkActions } from './deal-work-actions';

/**
 * One deal (/deals/:dealId), assembled from the features' sections in order; each section shows only
 * what its viewer may see.
 */
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
      <DealParticipantsSection {...props}>
        <DealCompletionLines deal={props.deal} />
      </DealParticipantsSection>
      <DealVisitorSection {...props} />
      <DealCreatorSection {...props} />
      <DealJoinRequestsSection {...props} />
      <EscrowStatusBox {...props} />
      <MilestonesSection {...props} />
      <RequestDealmakerSection {...props} />
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
