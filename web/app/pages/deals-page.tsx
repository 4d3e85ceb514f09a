import type { QueryClient } from '@tanstack/react-query';
import { Suspense, useDeferredValue, useMemo, useState } from 'react';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { LoadFailedCard } from '../../components/ui/error-retry';
import { BriefcaseIcon } from '../../components/ui/icons';
import { LoadMore } from '../../components/ui/load-more';
import { PageContainer, PageHeader } from '../../components/ui/page-header';
import { LoadingState } from '../../components/ui/spinner';
import { useAuth } from '../../features/auth';
import {
  blamedFilter,
  CreateDealDialog,
  DealCard,
  type DealDialog,
  DealDialogs,
  type DealFilters,
  dealsListQueryOptions,
  type Flash,
  FlashStrip,
  filtersFromParams,
  flashDurationMs,
  hasFilters,
  MyDealsDialog,
  matchCountText,
  noFilters,
  success,
  useDealsCount,
  useDealsList,
  withoutFilter,
} from '../../features/deals';
import { SavedSearchesPanel, SaveSearchDialog } from '../../features/discovery';
import { ApiError, serverReason } from '../../lib/api';
import { cn } from '../../lib/cn';
import { lazyAfterFirstPage } from '../../lib/first-page-shown';
import { useDealsFeed } from '../../lib/socket-context';
import { useTimedMessage } from '../../lib/use-timed-message';
import { DealFilterBar } from './deal-filter-bar';
import { type UpdateFilters, useDealFilters } from './use-deal-filters';

// The cards' unread-messages badges: the chat feature's code comes once the page is shown rather than with
// it (it is the chat's, and the Deals page's first download has a weight budget); the badges show once it is in.
const UnreadBadge = lazyAfterFirstPage(() =>
  import('../../features/messages').then((module) => ({ default: module.UnreadMessagesBadge })),
);
function UnreadMessagesBadge({ dealId }: { dealId: number }) {
  return (
    <Suspense fallback={null}>
      <UnreadBadge dealId={dealId} />
    </Suspense>
  );
}

/** Starts loading the list an address of this page shows (its route's loader, with this module's code). */
export function prefetchDealsList(queryClient: QueryClient, params: URLSearchParams) {
  return queryClient.prefetchInfiniteQuery(dealsListQueryOptions(filtersFromParams(params)));
}

export function DealsPage() {
  const { user } = useAuth();
  const viewer = user?.username ?? '';
  const { filters, update, endTyping } = useDealFilters();
  const deals = useDealsList(filters);
  useDealsFeed();
  const count = useDealsCount(filters);
  const filtered = hasFilters(filters);

  const [flash, showFlash] = useTimedMessage<Flash>(flashDurationMs);
  const [creating, setCreating] = useState(false);
  const [myDealsOpen, setMyDealsOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [dealDialog, setDealDialog] = useState<DealDialog | null>(null);

  // Offset pages may repeat a deal that moved down between two pages: each is shown once.
  const list = useMemo(
    () => deals.data && uniqueDeals(deals.data.pages.flatMap((page) => page.deals)),
    [deals.data],
  );
  // A new list (the first page, another search, a patched deal) renders in the background, in slices
  // between the browser's other work: a page of cards at once would hold a phone's main thread a long
  // moment. Meanwhile the cards shown before stay, or the loading state does.
  const shownList = useDeferredValue(list);
  const showingKeyword = !!filters.q && !!list?.length;

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

      <DealFilterBar filters={filters} update={update} endTyping={endTyping} />

      <SavedSearchesPanel />

      <div className="mb-4 flex min-h-10 flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <p className="text-sm text-slate-500" aria-live="polite">
          {filtered && count.data && (
            <span className="font-medium text-slate-700">{matchCountText(count.data)}</span>
          )}
          {filtered && count.data && showingKeyword && <span aria-hidden="true"> · </span>}
          {showingKeyword && <>Showing deals matching “{filters.q}”</>}
        </p>
        {filtered && (
          <div className="flex flex-wrap gap-2">
            <Button variant="ghost" size="sm" onClick={() => update(() => ({ ...noFilters }))}>
              Clear filters
            </Button>
            <Button variant="outline" size="sm" onClick={() => setSaving(true)}>
              Save this search
            </Button>
          </div>
        )}
      </div>

      {deals.isPending || (list && !shownList) ? (
        <LoadingState label="Loading deals" />
      ) : deals.isError && !list ? (
        deals.error instanceof ApiError && deals.error.status === 400 ? (
          <Alert variant="error" detail={serverReason(deals.error)}>
            Failed to load deals.
          </Alert>
        ) : (
          <LoadFailedCard
            title="Failed to load deals."
            icon={<BriefcaseIcon size={28} />}
            onRetry={deals.refetch}
          />
        )
      ) : !shownList || shownList.length === 0 ? (
        <NoDeals filters={filters} update={update} />
      ) : (
        <>
          <ul
            aria-busy={deals.isPlaceholderData || undefined}
            className={cn(
              'grid gap-5 transition-opacity sm:grid-cols-2 lg:grid-cols-3',
              deals.isPlaceholderData && 'opacity-60',
            )}
          >
            {shownList.map((deal) => (
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
      <SaveSearchDialog
        open={saving}
        onOpenChange={setSaving}
        filters={filters}
        onSaved={(saved) => showFlash(success(`Search “${saved.name}” saved.`))}
      />
    </PageContainer>
  );
}

function uniqueDeals<D extends { id: number }>(deals: D[]): D[] {
  const seen = new Set<number>();
  return deals.filter((deal) => !seen.has(deal.id) && !!seen.add(deal.id));
}

const blameTexts = {
  budget: { text: 'No deals match — clear the budget filter?', button: 'Clear budget filter' },
  status: { text: 'No deals match — clear the status filter?', button: 'Clear status filter' },
  keywords: { text: '', button: 'Clear keywords' },
};

/** Nothing found: the filter most likely to blame (budget, then status, then keywords), and a button that clears it. */
function NoDeals({ filters, update }: { filters: DealFilters; update: UpdateFilters }) {
  const blamed = blamedFilter(filters);
  const description = !blamed
    ? 'There are no deals yet. Create the first one!'
    : blamed === 'keywords'
      ? `No deal matches “${filters.q}”. Try a different keyword.`
      : blameTexts[blamed].text;
  return (
    <EmptyState
      framed="page"
      icon={<BriefcaseIcon size={28} />}
      title="No deals found"
      description={description}
      action={
        blamed && (
          <Button variant="outline" onClick={() => update((current) => withoutFilter(current, blamed))}>
            {blameTexts[blamed].button}
          </Button>
        )
      }
    />
  );
}
