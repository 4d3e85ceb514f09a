/** Rating texts (spec §2 Review modal, User profile Reviews; §9 ratings). */

export const ratingCaptions: Record<number, string> = {
  1: 'Poor',
  2: 'Fair',
  3: 'Good',
  4: 'Very Good',
  5: 'Excellent',
};

export const noRatingCaption = 'Click a star to rate';

/** The caption under the stars: the hovered star's meaning first, else the chosen one's, else the prompt. */
export function ratingCaption(rating: number, hovered = 0): string {
  return ratingCaptions[hovered || rating] ?? noRatingCaption;
}

/** The average as shown: one decimal ('4.5', '0.0'). */
export function formatAverage(average: number): string {
  return (Number.isFinite(average) ? average : 0).toFixed(1);
}

/** The number of filled stars for an average: the rounded average, within 0–5. */
export function starsFor(average: number): number {
  if (!Number.isFinite(average)) return 0;
  return Math.min(5, Math.max(0, Math.round(average)));
}

/** '1 review', '3 reviews'. */
export function reviewCountLabel(count: number): string {
  return count === 1 ? '1 review' : `${count} reviews`;
}
