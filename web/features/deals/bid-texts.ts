import type { BidderStats } from '../../../contract/deals';

/** The words a bid's details are shown in (the deal's bid list, the bidder's My Bids). */

/** "Delivery in 5 days", "Delivery in 1 day". */
export const deliveryText = (days: number) => `Delivery in ${days} ${days === 1 ? 'day' : 'days'}`;

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** "Rated 4.5 of 5 · 3 reviews · 2 completed deals"; "No ratings yet · 0 reviews · 0 completed deals". */
export function bidderStatsText(stats: BidderStats): string {
  const rating =
    stats.averageRating === null ? 'No ratings yet' : `Rated ${stats.averageRating.toFixed(1)} of 5`;
  return [
    rating,
    plural(stats.reviews, 'review', 'reviews'),
    plural(stats.completedDeals, 'completed deal', 'completed deals'),
  ].join(' · ');
}

export const aboveBudgetText = 'Above budget';
