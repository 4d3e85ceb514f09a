import { Suspense } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { AlertCircleIcon, ArrowLeftIcon, BriefcaseIcon } from '../../components/ui/icons';
import { DocumentTitle, PageContainer } from '../../components/ui/page-header';
import { LoadingState } from '../../components/ui/spinner';
import { useAuth } from '../../features/auth';
import {
  DealHeaderSection,
  DealParticipantsSection,
  dealIdOfParam,
  dealViewerOf,
  useDeal,
} from '../../features/deals';
import { ApiError } from '../../lib/api';
import { lazyAfterFirstPage } from '../../lib/first-page-shown';
import { useWatchedDeal } from '../../lib/socket-context';

// Every section below the participants (escrow, milestones, bids, disputes, the chat…), and the dealers'
// completion lines in the participants box: most of the page's code, downloaded once the deal is shown
// rather than before it, so that the deal shows first. One chunk: both appear together.
const loadSections = () => import('./deal-detail-sections');
const DealDetailSections = lazyAfterFirstPage(() =>
  loadSections().then((module) => ({ default: module.DealDetailSections })),
);
const DealCompletionLines = lazyAfterFirstPage(() =>
  loadSections().then((module) => ({ default: module.DealCompletionLines })),
);

/**
 * One deal (/deals/:dealId), assembled from the features' sections in order; each section shows only
 * what its viewer may see.
 */
export function DealDetailPage() {
  const dealId = dealIdOfParam(useParams().dealId);
  const { user } = useAuth();
  const deal = useDeal(dealId);
  useWatchedDeal(dealId);

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
        <Suspense fallback={null}>
          <DealCompletionLines deal={props.deal} />
        </Suspense>
      </DealParticipantsSection>
      <Suspense fallback={null}>
        <DealDetailSections {...props} />
      </Suspense>
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
