import type { SavedSearch } from '../../../contract/discovery';
import { centsToDollars } from '../../../contract/money';
import type { DealStage } from '../../../contract/vocabulary';
import type { SavedSearchRow } from './saved-searches.repository';

export function presentSavedSearch(row: { search: SavedSearchRow; newMatches: number }): SavedSearch {
  const { q, status, minBudgetCents, maxBudgetCents } = row.search.query;
  return {
    id: row.search.id,
    name: row.search.name,
    query: {
      ...(q !== undefined ? { q } : {}),
      ...(status !== undefined ? { status: status as DealStage[] } : {}),
      ...(minBudgetCents !== undefined ? { minBudget: centsToDollars(minBudgetCents) } : {}),
      ...(maxBudgetCents !== undefined ? { maxBudget: centsToDollars(maxBudgetCents) } : {}),
    },
    alert: row.search.alert,
    newMatches: row.newMatches,
    createdAt: row.search.createdAt.toISOString(),
  };
}
