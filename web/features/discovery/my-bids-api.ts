import { type InfiniteData, type QueryClient, useInfiniteQuery } from '@tanstack/react-query';
import type { MyBid } from '../../../contract/discovery';
import { api } from '../../lib/api';

export const myBidsPageSize = 20;

export const myBidKeys = {
  /** GET /bids/mine: the viewer's bids, newest first, page after page. */
  all: ['my-bids'] as const,
};

export type MyBidPages = InfiniteData<MyBid[], number | undefined>;

/** The viewer's bids with their deals and outcomes, newest first; older pages `before` the last id. */
export const useMyBids = () =>
  useInfiniteQuery({
    queryKey: myBidKeys.all,
    queryFn: ({ pageParam, signal }) =>
      api.get<MyBid[]>(`/bids/mine?limit=${myBidsPageSize}${pageParam ? `&before=${pageParam}` : ''}`, {
        signal,
      }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (lastPage) => (lastPage.length === myBidsPageSize ? lastPage.at(-1)?.id : undefined),
    // Outcomes change while the page is away: coming back asks again.
    staleTime: 0,
  });

/** Whether the loaded bids include one on this deal (its events may change an outcome). */
export function myBidsConcern(queryClient: QueryClient, dealId: number): boolean {
  const pages = queryClient.getQueryData<MyBidPages>(myBidKeys.all);
  return !!pages?.pages.some((page) => page.some((bid) => bid.deal.id === dealId));
}
