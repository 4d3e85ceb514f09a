import { lazy, Suspense, useId } from 'react';
import { dealStages } from '../../../contract/discovery';
import { limits } from '../../../contract/limits';
import { Button } from '../../components/ui/button';
import { SearchField } from '../../components/ui/search-field';
import { type DealFilters, stageLabels, withStageToggled } from '../../features/deals';
import { cn } from '../../lib/cn';
import { type UpdateFilters, useKeywordField } from './use-deal-filters';

// The budget range and the order: downloaded beside the page rather than with it (the Deals page's first
// download has a weight budget, scripts/bundle-size.mjs).
const DealFilterMore = lazy(() =>
  import('./deal-filter-more').then((module) => ({ default: module.DealFilterMore })),
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
        <Suspense fallback={<div className="h-[4.25rem] w-full sm:w-96" aria-hidden="true" />}>
          <DealFilterMore filters={filters} update={update} />
        </Suspense>
      </div>
    </section>
  );
}
