import { describe, expect, it } from 'vitest';
import { typedDays } from './bid-dialog';
import { bidderStatsText, deliveryText } from './bid-texts';

describe("a bid's details", () => {
  it('say the delivery estimate', () => {
    expect(deliveryText(5)).toBe('Delivery in 5 days');
    expect(deliveryText(1)).toBe('Delivery in 1 day');
  });

  it("say the bidder's record", () => {
    expect(bidderStatsText({ averageRating: 4.5, reviews: 3, completedDeals: 2 })).toBe(
      'Rated 4.5 of 5 · 3 reviews · 2 completed deals',
    );
    expect(bidderStatsText({ averageRating: null, reviews: 0, completedDeals: 0 })).toBe(
      'No ratings yet · 0 reviews · 0 completed deals',
    );
    expect(bidderStatsText({ averageRating: 5, reviews: 1, completedDeals: 1 })).toBe(
      'Rated 5.0 of 5 · 1 review · 1 completed deal',
    );
  });

  it('read the delivery estimate as typed, for the schema to check', () => {
    expect(typedDays('')).toBeNull();
    expect(typedDays(' 14 ')).toBe(14);
    expect(typedDays('2.5')).toBe(2.5);
    expect(typedDays('soon')).toBe('soon');
  });
});
