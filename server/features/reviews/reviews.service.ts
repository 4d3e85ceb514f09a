import type { NewReview } from '../../../contract/collaboration';
import type { Db } from '../../db/client';
import { badRequest, conflict, forbidden } from '../../lib/errors';
import type { EventPublisher } from '../../realtime/publisher';
import { type DealRole, roleOf } from '../deals/deal-roles';
import type { DealRow } from '../deals/deals.repository';
import type { DealsService } from '../deals/deals.service';
import type { UsersService } from '../users/users.service';
import { presentReview } from './reviews.presenter';
import { reviewsRepository } from './reviews.repository';

function requireCompletedParticipant(deal: DealRow, userId: number): DealRole {
  const role = roleOf(deal, userId);
  if (!role) throw forbidden('Only the participants of this deal can review each other.');
  if (!deal.isCompleted) throw conflict('Reviews open once the deal is completed.');
  return role;
}

/** After completion each participant reviews each other participant once (DESIGN.md §5 Reviews). */
export class ReviewsService {
  constructor(
    private readonly db: Db,
    private readonly deals: DealsService,
    private readonly users: UsersService,
    private readonly events: EventPublisher,
  ) {}

  async create(reviewerId: number, input: NewReview) {
    const deal = await this.deals.findRow(this.db, input.dealId);
    requireCompletedParticipant(deal, reviewerId);
    const reviewed = await this.users.findVerifiedByUsername(input.reviewedUsername);
    if (reviewed.id === reviewerId) throw badRequest('You cannot review yourself.');
    if (!roleOf(deal, reviewed.id))
      throw badRequest(`${reviewed.username} is not a participant of this deal.`);
    const row = await reviewsRepository.insert(this.db, {
      dealId: deal.id,
      reviewerId,
      reviewedId: reviewed.id,
      rating: input.rating,
      comment: input.comment,
    });
    if (!row) throw conflict(`You have already reviewed ${reviewed.username} for this deal.`);
    const review = presentReview((await reviewsRepository.view(this.db, row.id))!);
    this.events.notify([reviewed.id], {
      kind: 'review-received',
      dealId: deal.id,
      message: `${review.reviewer.username} left you a ${review.rating}-star review for "${deal.title}".`,
    });
    return review;
  }

  async forUser(username: string) {
    const user = await this.users.findVerifiedByUsername(username);
    const reviews = (await reviewsRepository.listForUser(this.db, user.id)).map(presentReview);
    const total = reviews.reduce((sum, review) => sum + review.rating, 0);
    return {
      reviews,
      averageRating: reviews.length ? total / reviews.length : 0,
      totalReviews: reviews.length,
    };
  }

  /** The deal's other participants this user has not reviewed yet. */
  async reviewable(dealId: number, userId: number) {
    const deal = await this.deals.findRow(this.db, dealId);
    requireCompletedParticipant(deal, userId);
    const done = await reviewsRepository.reviewedIdsBy(this.db, dealId, userId);
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
      others.map(async ([id, role]) => ({ username: (await this.users.getById(id)).username, role })),
    );
    return { reviewableUsers, dealTitle: deal.title };
  }
}
