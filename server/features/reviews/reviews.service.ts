import type { NewReview } from '../../../contract/reviews';
import type { DealAccess } from '../../core/deal/deal-access';
import { requireMayReview } from '../../core/deal/deal-policy';
import { type DealRole, roleOf } from '../../core/deal/deal-roles';
import type { Db } from '../../db/client';
import type { Transact } from '../../db/transaction';
import { badRequest, conflict } from '../../lib/errors';
import type { TimelineService } from '../timeline/timeline.service';
import type { UsersService } from '../users/users.service';
import { presentReview } from './reviews.presenter';
import { reviewsRepository } from './reviews.repository';

/** After completion each participant reviews each other participant once (DESIGN.md §5 Reviews). */
export class ReviewsService {
  constructor(
    private readonly deps: {
      db: Db;
      transact: Transact;
      deals: DealAccess;
      users: UsersService;
      timeline: TimelineService;
    },
  ) {}

  async create(reviewerId: number, input: NewReview) {
    const deal = await this.deps.deals.find(input.dealId);
    requireMayReview(deal, reviewerId);
    const reviewed = await this.deps.users.findVerifiedByUsername(input.reviewedUsername);
    if (reviewed.id === reviewerId) throw badRequest('You cannot review yourself.');
    if (!roleOf(deal, reviewed.id))
      throw badRequest(`${reviewed.username} is not a participant of this deal.`);
    return this.deps.transact(async (tx, afterCommit) => {
      const row = await reviewsRepository.insert(tx, {
        dealId: deal.id,
        reviewerId,
        reviewedId: reviewed.id,
        rating: input.rating,
        comment: input.comment,
      });
      if (!row) throw conflict(`You have already reviewed ${reviewed.username} for this deal.`);
      const review = presentReview((await reviewsRepository.view(tx, row.id))!);
      await this.deps.timeline.record(tx, afterCommit, {
        dealId: deal.id,
        actorId: reviewerId,
        event: {
          kind: 'review-left',
          message: `${review.reviewer.username} reviewed ${reviewed.username}.`,
          details: { reviewId: review.id },
        },
        notify: [
          {
            to: [reviewed.id],
            kind: 'review-received',
            message: `${review.reviewer.username} left you a ${review.rating}-star review for "${deal.title}".`,
          },
        ],
      });
      return review;
    });
  }

  async forUser(username: string) {
    const user = await this.deps.users.findVerifiedByUsername(username);
    const reviews = (await reviewsRepository.listForUser(this.deps.db, user.id)).map(presentReview);
    const total = reviews.reduce((sum, review) => sum + review.rating, 0);
    return {
      reviews,
      averageRating: reviews.length ? total / reviews.length : 0,
      totalReviews: reviews.length,
    };
  }

  /** The deal's other participants this user has not reviewed yet. */
  async reviewable(dealId: number, userId: number) {
    const deal = await this.deps.deals.find(dealId);
    requireMayReview(deal, userId);
    const done = await reviewsRepository.reviewedIdsBy(this.deps.db, dealId, userId);
    const others = (
      [
        [deal.creatorId, 'creator'],
        [deal.counterpartId, 'counterpart'],
        [deal.dealmakerId, 'dealmaker'],
      ] as const
    ).filter(
      (entry): entry is [number, DealRole] => entry[0] !== null && entry[0] !== userId && !done.has(entry[0]),
    );
    const reviewableUsers = await Promise.all(
      others.map(async ([id, role]) => ({ username: (await this.deps.users.getById(id)).username, role })),
    );
    return { reviewableUsers, dealTitle: deal.title };
  }
}
