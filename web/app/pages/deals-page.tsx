import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { LoadFailedCard } from '../../components/ui/error-retry';
import { BriefcaseIcon } from '../../components/ui/icons';
import { LoadMore } from '../../components/ui/load-more';
import { PageContainer, PageHeader } from '../../components/ui/page-header';
import { LoadingState } from '../../components/ui/spinner';
import { useAuth } from '../../features/auth';
import {
  CreateDealDialog,
  DealCard,
  type DealDialog,
  DealDialogs,
  type Flash,
  FlashStrip,
  flashDurationMs,
  MyDealsDialog,
  useDealsList,
} from '../../features/deals';
import { UnreadMessagesBadge } from '../../features/messages';
import { useTimedMessage } from '../../lib/use-timed-message';
import { DealSearchForm, useDealSearch } from './deal-search';

export function DealsPage() {
  const { user } = useAuth();
  const viewer = user?.username ?? '';
  const dealSearch = useDealSearch();
  const { keyword } = dealSearch;
  const deals = useDealsList(keyword);

  const [flash, showFlash] = useTimedMessage<Flash>(flashDurationMs);
  const [creating, setCreating] = useState(false);
  const [myDealsOpen, setMyDealsOpen] = useState(false);
  const [dealDialog, setDealDialog] = useState<DealDialog | null>(null);

  const list = deals.data?.pages.flatMap((page) => page.deals);

  return (
    <PageContainer>
      {/* Stays in view while scrolling, so the outcome of an action on any card can be seen. */}
      {!myDealsOpen && flash && (
        <div className="sticky top-20 z-30 mb-6 shadow-lg shadow-slate-900/5">
          <FlashStrip flash={flash} />
        </div>
      )}

      <PageHeader
        title="Deals"
        description="Browse open deals, join one as a dealer, or bid to become its dealmaker."
        actions={
          <>
            <Button variant="outline" onClick={() => setMyDealsOpen(true)}>
              <BriefcaseIcon size={18} />
              My Deals
            </Button>
            <Button onClick={() => setCreating(true)}>Create Deal</Button>
          </>
        }
      />

      <DealSearchForm search={dealSearch} />

      {deals.isPending ? (
        <LoadingState label="Loading deals" />
      ) : deals.isError && !list ? (
        <LoadFailedCard
          title="Failed to load deals."
          icon={<BriefcaseIcon size={28} />}
          onRetry={deals.refetch}
        />
      ) : !list || list.length === 0 ? (
        <EmptyState
          framed="page"
          icon={<BriefcaseIcon size={28} />}
          title="No deals found"
          description={
            keyword
              ? `No deal matches “${keyword}”. Try a different keyword.`
              : 'There are no deals yet. Create the first one!'
          }
        />
      ) : (
        <>
          {keyword && (
            <p className="mb-4 text-sm text-slate-500" aria-live="polite">
              Showing deals matching “{keyword}”
            </p>
          )}
          <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            {list.map((deal) => (
              <DealCard
                key={deal.id}
                deal={deal}
                viewer={viewer}
                onFlash={showFlash}
                onOpen={setDealDialog}
                note={<UnreadMessagesBadge dealId={deal.id} />}
              />
            ))}
          </ul>
          <LoadMore
            query={deals}
            className="mt-8"
            errorText="Failed to load more deals."
            errorClassName="mt-6"
          />
        </>
      )}

      <CreateDealDialog open={creating} onOpenChange={setCreating} onFlash={showFlash} />
      <MyDealsDialog
        open={myDealsOpen}
        onOpenChange={setMyDealsOpen}
        viewer={viewer}
        dealNote={(deal) => <UnreadMessagesBadge dealId={deal.id} />}
      />
      <DealDialogs open={dealDialog} onClose={() => setDealDialog(null)} onFlash={showFlash} />
    </PageContainer>
  );
}
