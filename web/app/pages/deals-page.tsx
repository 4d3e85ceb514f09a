import { type FormEvent, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Deal } from '../../../contract/deals';
import { limits } from '../../../contract/limits';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { BriefcaseIcon, SearchIcon } from '../../components/ui/icons';
import { PageContainer, PageHeader } from '../../components/ui/page-header';
import { LoadingState } from '../../components/ui/spinner';
import { useAuth } from '../../features/auth/auth-context';
import { BidDialog } from '../../features/deals/bid-dialog';
import { CreateDealDialog } from '../../features/deals/create-deal-dialog';
import { DealCard } from '../../features/deals/deal-card';
import { type Flash, FlashStrip, flashDurationMs } from '../../features/deals/deal-flash';
import { useDealsList } from '../../features/deals/deals-api';
import { MyDealsDialog } from '../../features/deals/my-deals-dialog';
import { useTimedMessage } from '../../lib/use-timed-message';

export function DealsPage() {
  const { user } = useAuth();
  const viewer = user?.username ?? '';
  // The searched keyword lives in the address (?q=), so Back returns to the same results.
  const [searchParams, setSearchParams] = useSearchParams();
  const keyword = (searchParams.get('q') ?? '').trim();
  const [draft, setDraft] = useState(keyword);
  // Following a link to /deals (or Back) changes the keyword: the box shows it.
  useEffect(() => setDraft(keyword), [keyword]);
  const deals = useDealsList(keyword);

  const [flash, showFlash] = useTimedMessage<Flash>(flashDurationMs);
  const [creating, setCreating] = useState(false);
  const [myDealsOpen, setMyDealsOpen] = useState(false);
  const [bidDeal, setBidDeal] = useState<Deal | null>(null);

  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next = draft.trim();
    setSearchParams(next ? { q: next } : {}, { replace: true });
  };

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

      <form onSubmit={search} className="mb-8 flex max-w-2xl gap-3">
        <div className="relative flex-1">
          <label htmlFor="deal-search" className="sr-only">
            Search deals
          </label>
          <SearchIcon
            size={18}
            className="pointer-events-none absolute top-1/2 left-3.5 -translate-y-1/2 text-slate-400"
          />
          <input
            id="deal-search"
            type="search"
            value={draft}
            maxLength={limits.searchQuery.max}
            onChange={(event) => setDraft(event.target.value)}
            placeholder="Search deals by keyword..."
            autoComplete="off"
            className="h-11 w-full rounded-xl border border-slate-300 bg-white pr-4 pl-10 text-sm shadow-sm placeholder:text-slate-400 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none"
          />
        </div>
        <Button type="submit" className="h-11">
          Search
        </Button>
      </form>

      {deals.isPending ? (
        <LoadingState label="Loading deals" />
      ) : deals.isError && !list ? (
        <Card>
          <EmptyState
            icon={<BriefcaseIcon size={28} />}
            title="Failed to load deals."
            description="Please check your connection and try again."
            action={<Button onClick={() => deals.refetch()}>Try again</Button>}
          />
        </Card>
      ) : !list || list.length === 0 ? (
        <div className="rounded-2xl border border-dashed border-slate-300 bg-white">
          <EmptyState
            icon={<BriefcaseIcon size={28} />}
            title="No deals found"
            description={
              keyword
                ? `No deal matches “${keyword}”. Try a different keyword.`
                : 'There are no deals yet. Create the first one!'
            }
          />
        </div>
      ) : (
        <>
          {keyword && (
            <p className="mb-4 text-sm text-slate-500" aria-live="polite">
              Showing deals matching “{keyword}”
            </p>
          )}
          <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            {list.map((deal) => (
              <DealCard key={deal.id} deal={deal} viewer={viewer} onFlash={showFlash} onBid={setBidDeal} />
            ))}
          </ul>
          {deals.isFetchNextPageError && (
            <Alert variant="error" className="mt-6">
              Failed to load more deals.
            </Alert>
          )}
          {deals.hasNextPage && (
            <div className="mt-8 flex justify-center">
              <Button
                variant="outline"
                loading={deals.isFetchingNextPage}
                onClick={() => {
                  if (!deals.isFetchingNextPage) void deals.fetchNextPage();
                }}
              >
                {deals.isFetchingNextPage ? 'Loading...' : 'Load more'}
              </Button>
            </div>
          )}
        </>
      )}

      <CreateDealDialog open={creating} onOpenChange={setCreating} onFlash={showFlash} />
      <MyDealsDialog
        open={myDealsOpen}
        onOpenChange={setMyDealsOpen}
        viewer={viewer}
        flash={flash}
        onFlash={showFlash}
      />
      <BidDialog deal={bidDeal} onClose={() => setBidDeal(null)} onFlash={showFlash} />
    </PageContainer>
  );
}
