import { type KeyboardEvent, useId } from 'react';
import { type DealSort, dealSorts } from '../../../contract/vocabulary';
import { Input } from '../../components/ui/input';
import { type DealFilters, effectiveSort, sortLabels } from '../../features/deals';
import { useBudgetFields } from './use-budget-fields';
import type { UpdateFilters } from './use-deal-filters';

/**
 * The Deals page's budget range (in dollars, from and to) and its order. Relevance is offered only with
 * keywords, which it ranks by.
 */
export function DealFilterMore({ filters, update }: { filters: DealFilters; update: UpdateFilters }) {
  const budget = useBudgetFields(filters, update);
  const sortId = useId();
  const errorId = useId();
  const problem = budget.problems.min ?? budget.problems.max;
  const sorts = dealSorts.filter((sort) => sort !== 'relevance' || filters.q);
  const onEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') budget.sendNow();
  };

  return (
    <>
      <fieldset className="min-w-0">
        <legend className="mb-1.5 block text-sm font-medium text-slate-700">Budget</legend>
        <div className="flex items-center gap-2">
          <BoundField
            label="Minimum budget ($)"
            name="minBudget"
            placeholder="Min $"
            value={budget.min}
            onChange={budget.setMin}
            onKeyDown={onEnter}
            errorId={budget.problems.min ? errorId : undefined}
          />
          <span aria-hidden="true" className="text-slate-500">
            –
          </span>
          <BoundField
            label="Maximum budget ($)"
            name="maxBudget"
            placeholder="Max $"
            value={budget.max}
            onChange={budget.setMax}
            onKeyDown={onEnter}
            errorId={budget.problems.max ? errorId : undefined}
          />
        </div>
        {problem && (
          <p id={errorId} className="mt-1.5 max-w-72 text-xs font-medium text-rose-600">
            {problem}
          </p>
        )}
      </fieldset>

      <div className="min-w-0">
        <label htmlFor={sortId} className="mb-1.5 block text-sm font-medium text-slate-700">
          Sort by
        </label>
        <select
          id={sortId}
          name="sort"
          value={effectiveSort(filters)}
          onChange={(event) => {
            const sort = event.target.value as DealSort;
            update((current) => ({ ...current, sort }));
          }}
          className="block h-10 w-48 max-w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-xs focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none"
        >
          {sorts.map((sort) => (
            <option key={sort} value={sort}>
              {sortLabels[sort]}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}

/** One bound of the budget range: named for screen readers, its problem said under the pair. */
function BoundField({
  label,
  name,
  placeholder,
  value,
  onChange,
  onKeyDown,
  errorId,
}: {
  label: string;
  name: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => void;
  /** The problem's element, when this bound has one. */
  errorId: string | undefined;
}) {
  const id = useId();
  return (
    <div className="w-28 sm:w-32">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Input
        id={id}
        name={name}
        inputMode="decimal"
        autoComplete="off"
        placeholder={placeholder}
        value={value}
        invalid={!!errorId}
        aria-describedby={errorId}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
      />
    </div>
  );
}
