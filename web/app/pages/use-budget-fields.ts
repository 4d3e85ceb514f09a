import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { formatCents } from '../../../contract/money';
import { budgetCents, type DealFilters, withBudget } from '../../features/deals';
import { typingDelayMs, type UpdateFilters } from './use-deal-filters';

type Bounds = { minBudget?: number; maxBudget?: number };

export const budgetProblems = {
  amount: 'Enter an amount in dollars, such as 1000 or 1,000.50.',
  range: 'The maximum must not be less than the minimum.',
};

/** What is wrong with the budget bounds as typed, by field. */
export function budgetDraftProblems(min: string, max: string): { min?: string; max?: string } {
  const minCents = budgetCents(min);
  const maxCents = budgetCents(max);
  const problems: { min?: string; max?: string } = {};
  if (min.trim() && minCents === undefined) problems.min = budgetProblems.amount;
  if (max.trim() && maxCents === undefined) problems.max = budgetProblems.amount;
  if (minCents !== undefined && maxCents !== undefined && minCents > maxCents)
    problems.max = budgetProblems.range;
  return problems;
}

/** A bound as the field shows it: '1000', '1000.50'. */
const showBound = (cents: number | undefined) =>
  cents === undefined ? '' : formatCents(cents).replace(/\.00$/, '');

/**
 * The budget range: two amounts in dollars, read with the contract's money parser. They go into the
 * address after a pause once both read as amounts and the range holds; until then the list keeps the
 * last range and the fields say what is wrong.
 */
export function useBudgetFields(filters: DealFilters, update: UpdateFilters) {
  const bounds = useMemo<Bounds>(
    () => ({ minBudget: filters.minBudget, maxBudget: filters.maxBudget }),
    [filters.minBudget, filters.maxBudget],
  );
  const [min, setMin] = useState(() => showBound(bounds.minBudget));
  const [max, setMax] = useState(() => showBound(bounds.maxBudget));
  const committed = useRef(bounds);

  useEffect(() => {
    const last = committed.current;
    if (last.minBudget === bounds.minBudget && last.maxBudget === bounds.maxBudget) return;
    committed.current = bounds;
    setMin(showBound(bounds.minBudget));
    setMax(showBound(bounds.maxBudget));
  }, [bounds]);

  const problems = budgetDraftProblems(min, max);
  const valid = !problems.min && !problems.max;
  const minBudget = budgetCents(min);
  const maxBudget = budgetCents(max);

  const send = useCallback(
    (typing: boolean) => {
      const next = { minBudget, maxBudget };
      committed.current = next;
      update((current) => withBudget(current, next), typing ? { typing: 'budget' } : {});
    },
    [minBudget, maxBudget, update],
  );

  useEffect(() => {
    const last = committed.current;
    if (!valid || (last.minBudget === minBudget && last.maxBudget === maxBudget)) return;
    const timer = setTimeout(() => send(true), typingDelayMs);
    return () => clearTimeout(timer);
  }, [valid, minBudget, maxBudget, send]);

  return {
    min,
    max,
    setMin,
    setMax,
    problems,
    /** Enter in a field: the range goes into the address at once, when it holds. */
    sendNow: () => {
      if (valid) send(false);
    },
  };
}
