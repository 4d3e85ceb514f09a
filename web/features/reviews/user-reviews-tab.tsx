import type { Review } from '../../../contract/reviews';
import { Avatar } from '../../components/ui/avatar';
import { EmptyState } from '../../components/ui/empty-state';
import { ErrorRetry } from '../../components/ui/error-retry';
import { StarIcon } from '../../components/ui/icons';
import { LoadingState } from '../../components/ui/spinner';
import { formatDate } from '../../lib/time';
import { formatAverage, reviewCountLabel, starsFor } from './rating';
import { useUserReviews as useUserReviewsQuery } from './reviews-api';
import { Stars } from './stars';

/** A review a user received (spec §3 Review). */
export type UserReview = Review;

type UserReviews = {
  reviews: UserReview[];
  averageRating: number;
  totalReviews: number;
  isLoading: boolean;
  isError: boolean;
  retry: () => void;
};

/** The reviews a user received, newest first, with their average (GET /reviews/user/{username}). */
export function useUserReviews(username: string): UserReviews {
  const query = useUserReviewsQuery(username);
  return {
    reviews: query.data?.reviews ?? [],
    averageRating: query.data?.averageRating ?? 0,
    totalReviews: query.data?.totalReviews ?? 0,
    isLoading: query.isPending && username.length > 0,
    isError: query.isError,
    retry: () => void query.refetch(),
  };
}

export function UserReviewsTab({ username }: { username: string }) {
  const { reviews, averageRating, totalReviews, isLoading, isError, retry } = useUserReviews(username);

  if (isLoading) return <LoadingState label="Loading reviews..." />;
  if (isError) {
    return <ErrorRetry onRetry={retry}>Failed to fetch reviews</ErrorRetry>;
  }
  if (totalReviews === 0 || reviews.length === 0) {
    return (
      <EmptyState
        icon={<StarIcon size={28} />}
        title="No reviews yet"
        description="Reviews appear here once this user completes deals."
      />
    );
  }
  return (
    <div className="space-y-6">
      <div className="flex flex-col items-center gap-2 rounded-xl bg-amber-50/60 px-6 py-6 text-center sm:flex-row sm:gap-6 sm:text-left">
        <p className="text-4xl font-bold text-slate-900">{formatAverage(averageRating)}</p>
        <div>
          <p className="text-sm font-semibold text-slate-700">Overall Rating</p>
          <Stars rating={starsFor(averageRating)} />
          <p className="mt-1 text-sm text-slate-500">{reviewCountLabel(totalReviews)}</p>
        </div>
      </div>
      <ul className="space-y-4">
        {reviews.map((review) => {
          const reviewerName = review.reviewer.full_name || review.reviewer.username;
          return (
            <li key={review.id} className="rounded-xl border border-slate-200 p-5">
              <div className="flex flex-wrap items-center justify-between gap-3">
                <div className="flex items-center gap-3">
                  <Avatar name={reviewerName} size="sm" />
                  <div>
                    <p className="text-sm font-semibold text-slate-900">{reviewerName}</p>
                    <p className="text-xs text-slate-500">{formatDate(review.createdAt)}</p>
                  </div>
                </div>
                <Stars rating={review.rating} />
              </div>
              {review.comment && (
                <p className="mt-3 text-sm leading-relaxed text-slate-700">{review.comment}</p>
              )}
              <p className="mt-3 text-xs text-slate-500">
                Deal: <span className="font-medium text-slate-500">{review.dealTitle}</span>
              </p>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
