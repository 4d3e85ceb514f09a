import { describe, expect, it } from 'vitest';
import { formatAverage, noRatingCaption, ratingCaption, reviewCountLabel, starsFor } from './rating';

describe('rating texts', () => {
  it('captions each rating, the hovered star first', () => {
    expect(ratingCaption(0)).toBe(noRatingCaption);
    expect(noRatingCaption).toBe('Click a star to rate');
    expect([1, 2, 3, 4, 5].map((n) => ratingCaption(n))).toEqual([
      'Poor',
      'Fair',
      'Good',
      'Very Good',
      'Excellent',
    ]);
    expect(ratingCaption(2, 5)).toBe('Excellent');
    expect(ratingCaption(0, 1)).toBe('Poor');
  });

  it('shows the average to one decimal and stars for the rounded average', () => {
    expect(formatAverage(4.25)).toBe('4.3');
    expect(formatAverage(4)).toBe('4.0');
    expect(formatAverage(0)).toBe('0.0');
    expect(formatAverage(Number.NaN)).toBe('0.0');
    expect(starsFor(3.5)).toBe(4);
    expect(starsFor(3.49)).toBe(3);
    expect(starsFor(0)).toBe(0);
  });

  it('counts reviews in the singular or plural', () => {
    expect(reviewCountLabel(1)).toBe('1 review');
    expect(reviewCountLabel(0)).toBe('0 reviews');
    expect(reviewCountLabel(12)).toBe('12 reviews');
  });
});
