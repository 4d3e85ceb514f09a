import { useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useNavigate } from 'react-router';
import type { SavedSearch } from '../../../contract/discovery';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { errorMessage } from '../../lib/api';
import { notifyError } from '../../lib/notify';
import { describeFilters, filtersToParams, savedQueryToFilters } from '../deals';
import {
  markSavedSearchSeen,
  useDeleteSavedSearch,
  useSavedSearches,
  useSetSavedSearchAlert,
} from './saved-searches-api';

/** "1 new match", "3 new matches". */
export const newMatchesText = (count: number) => `${count} new ${count === 1 ? 'match' : 'matches'}`;

/**
 * The viewer's saved searches on the Deals page (nothing while they have none): each opens its search
 * (its filters go into the address, its new matches count as seen), turns its alerts on or off, or is
 * deleted. New matches are counted live (a saved-search-match notification asks again).
 */
export function SavedSearchesPanel() {
  const searches = useSavedSearches();
  const titleId = useId();
  if (!searches.data || searches.data.length === 0) return null;
  return (
    <Card className="mb-6 px-5 py-4">
      <section aria-labelledby={titleId}>
        <h2 id={titleId} className="mb-3 text-sm font-semibold text-slate-900">
          Saved searches
        </h2>
        <ul className="divide-y divide-slate-100">
          {searches.data.map((search) => (
            <SavedSearchRow key={search.id} search={search} />
          ))}
        </ul>
      </section>
    </Card>
  );
}

function SavedSearchRow({ search }: { search: SavedSearch }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const nameId = useId();
  const filters = savedQueryToFilters(search.query);
  const setAlert = useSetSavedSearchAlert({
    onError: (error) => notifyError(errorMessage(error, 'Failed to change the alert.')),
  });
  const remove = useDeleteSavedSearch({
    onError: (error) => notifyError(errorMessage(error, 'Failed to delete the saved search.')),
  });

  const open = () => {
    navigate(`/deals?${filtersToParams(filters)}`);
    markSavedSearchSeen(queryClient, search.id).catch((error) =>
      console.warn('Marking the saved search seen failed:', error),
    );
  };

  return (
    <li data-saved-search-id={search.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-2.5">
      <div className="min-w-0 flex-1 basis-56">
        <p className="flex flex-wrap items-center gap-2">
          <span id={nameId} className="font-medium break-words text-slate-900">
            {search.name}
          </span>
          {search.newMatches > 0 && (
            <Badge tone="indigo">
              <span data-new-matches>{newMatchesText(search.newMatches)}</span>
            </Badge>
          )}
        </p>
        <p className="text-xs break-words text-slate-500">{describeFilters(filters)}</p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <label className="inline-flex min-h-10 cursor-pointer items-center gap-2 px-1 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={search.alert}
            disabled={setAlert.isPending}
            aria-describedby={nameId}
            onChange={(event) => setAlert.mutate({ id: search.id, alert: event.target.checked })}
            className="h-4 w-4 cursor-pointer accent-indigo-600"
          />
          Alert me
        </label>
        <Button variant="outline" size="sm" aria-describedby={nameId} onClick={open}>
          Open
        </Button>
        <Button
          variant="ghost"
          size="sm"
          aria-describedby={nameId}
          loading={remove.isPending}
          onClick={() => remove.mutate(search.id)}
        >
          Delete
        </Button>
      </div>
    </li>
  );
}
