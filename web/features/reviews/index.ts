/** Reviews after completion: leaving them, and a user's received reviews. */

// 'Leave Reviews' after completion, and the Leave a Review dialog it opens.
export { LeaveReviewsButton } from './review-dialog';
// The reviews a user received, for the Reviews tab of their profile page.
export { UserReviewsTab } from './user-reviews-tab';
