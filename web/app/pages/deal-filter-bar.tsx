import { Suspense, useId } from 'react';
import { limits } from '../../../contract/limits';
import { dealStages } from '../../../contract/vocabulary';
import { Button } from '../../components/ui/button';
import { SearchField } from '../../components/ui/search-field';
import { type DealFilters, stageLabels, withStageToggled } from '../../features/deals';
import { cn } from '../../lib/cn';
import { lazyAfterFirstPage } from '../../lib/first-page-shown';
import { type UpdateFilters, useKeywordField } from './use-deal-filters';

// The budget range and the order: downloaded once the page is shown rather than with it (the Deals page's
// first download has a weight budget, scripts/bundle-size.mjs); their place is kept meanwhile.
const DealFilterMore = lazyAfterFirstPage(
  () => import('./deal-filter-more').then((module) => ({ default: module.DealFilterMore })),
  <DealFilterMorePlaceholder />,
);

type DealFilterBarProps = {
  filters: DealFilters;
  update: UpdateFilters;
  endTyping: () => void;
};

/**
 * The Deals page's filters: the keyword box (searched as one types, or with Search), the status chips
 * (toggle buttons, several at once), the budget range and the order. Everything lives in the address.
 */
export function DealFilterBar({ filters, update, endTyping }: DealFilterBarProps) {
  const keywords = useKeywordField(filters, update, endTyping);
  const hintId = useId();

  return (
    <section aria-label="Filter deals" className="mb-6 space-y-4">
      <form onSubmit={keywords.search} className="flex max-w-2xl gap-3">
        <SearchField
          id="deal-search"
          label="Search deals"
          wrapperClassName="min-w-0 flex-1"
          className="h-11 pr-4"
          value={keywords.draft}
          maxLength={limits.searchQuery.max}
          onChange={(event) => keywords.setDraft(event.target.value)}
          onBlur={keywords.endTyping}
          placeholder="Search deals by keyword..."
          aria-describedby={hintId}
        />
        <Button type="submit" className="h-11">
          Search
        </Button>
      </form>
      <p id={hintId} className="sr-only">
        Words, "quoted phrases", and -words to leave out.
      </p>

      <div className="flex flex-wrap items-start gap-x-6 gap-y-4">
        <fieldset className="min-w-0">
          <legend className="mb-1.5 block text-sm font-medium text-slate-700">Status</legend>
          <div className="flex flex-wrap gap-2">
            {dealStages.map((stage) => {
              const on = filters.status.includes(stage);
              return (
                <button
                  key={stage}
                  type="button"
                  aria-pressed={on}
                  onClick={() => update((current) => withStageToggled(current, stage))}
                  className={cn(
                    'inline-flex h-10 items-center rounded-full border px-3.5 text-sm font-medium whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500',
                    on
                      ? 'border-indigo-600 bg-indigo-600 text-white hover:bg-indigo-700'
                      : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50',
                  )}
                >
                  {stageLabels[stage]}
                </button>
              );
            })}
          </div>
        </fieldset>
        <Suspense fallback={<DealFilterMorePlaceholder />}>
          <DealFilterMore filters={filters} update={update} />
        </Suspense>
      </div>
    </section>
  );
}

/**
 * Until the budget range and the order are in: empty boxes of their sizes (measured), which wrap as they
 * do at every width, so that nothing moves when they come.
 */
function DealFilterMorePlaceholder() {
  return (
    <>
      <div className="h-[4.125rem] w-62 sm:w-70" aria-hidden="true" />
      <div className="h-[4.125rem] w-48" aria-hidden="true" />
    </>
  );
}
