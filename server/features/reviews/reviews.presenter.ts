import type { Review } from '../../../contract/reviews';
import type { ReviewView } from './reviews.repository';

export function presentReview(view: ReviewView): Review {
  return {
    id: view.review.id,
    dealId: view.review.dealId,
    dealTitle: view.dealTitle,
    reviewedUsername: view.reviewedUsername,
    rating: view.review.rating,
    comment: view.review.comment,
    createdAt: view.review.createdAt.toISOString(),
    reviewer: { full_name: view.reviewerFullName, username: view.reviewerUsername },
  };
}
