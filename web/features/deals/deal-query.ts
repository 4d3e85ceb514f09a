import { queryOptions } from '@tanstack/react-query';
import type { Deal } from '../../../contract/deals';
import { api } from '../../lib/api';

// One deal's query, apart from the rest of the feature and its imports: the deal page's route starts it
// from the app's first download, before the page's code is in (app/router.tsx), so it must weigh nothing.

/** Where a deal lives in the query cache (GET /deals/{id}); also the prefix of everything that belongs to it. */
export const dealDetailKey = (dealId: number) => ['deals', 'detail', dealId] as const;

/** The deal id of a `/deals/:dealId` address, NaN when it names none. */
export const dealIdOfParam = (param: string | undefined): number =>
  param && /^\d+$/.test(param) ? Number(param) : Number.NaN;

/** One deal as its viewer sees it (GET /deals/{id}). */
export const dealQueryOptions = (dealId: number) =>
  queryOptions({
    queryKey: dealDetailKey(dealId),
    queryFn: ({ signal }) => api.get<Deal>(`/deals/${dealId}`, { signal }),
    enabled: Number.isInteger(dealId) && dealId > 0,
  });
