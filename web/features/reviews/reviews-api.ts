import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { DealRole } from '../../../contract/deals';
import type { Review } from '../../../contract/reviews';
import { api, segment } from '../../lib/api';
import { type MutationCallbacks, useGuardedMutation } from '../../lib/use-guarded-mutation';
import { dealQueryKeys } from '../deals';

export type ReviewableUser = { username: string; role: DealRole };
export type Reviewable = { reviewableUsers: ReviewableUser[]; dealTitle: string };
export type UserReviewsResponse = { reviews: Review[]; averageRating: number; totalReviews: number };

export const reviewKeys = {
  /** Every user's received reviews. */
  all: ['reviews'] as const,
  /** GET /reviews/user/{username}. */
  ofUser: (username: string) => ['reviews', 'user', username.toLowerCase()] as const,
  /** GET /reviews/deal/{dealId}/reviewable: under the deal's key. */
  reviewable: (dealId: number) => [...dealQueryKeys.detail(dealId), 'reviewable'] as const,
};

export const useUserReviews = (username: string) =>
  useQuery({
    queryKey: reviewKeys.ofUser(username),
    queryFn: ({ signal }) => api.get<UserReviewsResponse>(`/reviews/user/${segment(username)}`, { signal }),
    enabled: username.length > 0,
  });

/** Who the viewer may still review on a completed deal. */
export const useReviewable = (dealId: number, enabled: boolean) =>
  useQuery({
    queryKey: reviewKeys.reviewable(dealId),
    queryFn: ({ signal }) => api.get<Reviewable>(`/reviews/deal/${dealId}/reviewable`, { signal }),
    enabled,
  });

export type NewReviewInput = { dealId: number; reviewedUsername: string; rating: number; comment: string };

export function useCreateReview(callbacks?: MutationCallbacks<Review, NewReviewInput>) {
  const queryClient = useQueryClient();
  return useGuardedMutation(
    {
      mutationFn: (input: NewReviewInput) => api.post<Review>('/reviews', input),
      onSettled: (_review, _error, input) =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: reviewKeys.ofUser(input.reviewedUsername) }),
          queryClient.invalidateQueries({ queryKey: reviewKeys.reviewable(input.dealId) }),
        ]),
    },
    callbacks,
  );
}
