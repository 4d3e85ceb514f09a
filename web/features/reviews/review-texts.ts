/** The Leave a Review dialog's texts (spec §2 Review modal, §8 Reviews). */
export const reviewTexts = {
  missing: 'Please select a user and provide a rating',
  failed: 'Failed to create review',
  fetchFailed: 'Failed to fetch reviewable users',
  allDone: 'All reviews submitted!',
  allDoneDetail: 'You have reviewed all participants in this deal.',
  submitted: 'Review submitted successfully!',
} as const;
