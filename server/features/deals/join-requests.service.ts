import type { JoinDecisionResponse, JoinRequest } from '../../../contract/deal-changes';
import type { DealAccess } from '../../core/deal/deal-access';
import {
  requireMayAskToJoin,
  requireMayDecideJoin,
  requireRequesterMayJoin,
} from '../../core/deal/deal-policy';
import type { Db, Tx } from '../../db/client';
import { isUniqueViolation } from '../../db/postgres-errors';
import type { Transact } from '../../db/transaction';
import { conflict, notFound } from '../../lib/errors';
import type { EventPublisher } from '../../lib/events';
import type { TimelineService } from '../timeline/timeline.service';
import { bidsRepository } from './bids.repository';
import { presentJoinRequest } from './join-requests.presenter';
import { joinRequestsRepository } from './join-requests.repository';

const alreadyAsked = () =>
  conflict('You have already asked to join this deal: its creator has not answered yet.');

/**
 * Joining a deal posted with joinPolicy 'approval': a user asks, the creator accepts (the user becomes
 * the counterpart, as by joining; the other pending requests are declined) or declines. Every decision
 * locks the deal first, then the request.
 */
export class JoinRequestsService {
  constructor(
    private readonly deps: {
      db: Db;
      transact: Transact;
      deals: DealAccess;
      timeline: TimelineService;
      events: EventPublisher;
    },
  ) {}

  /** POST /api/deals/{id}/join-requests. */
  async ask(dealId: number, userId: number, message: string): Promise<JoinRequest> {
    try {
      return await this.deps.transact(async (tx, afterCommit) => {
        const deal = await this.deps.deals.lock(tx, dealId);
        requireMayAskToJoin(deal, userId, !!(await bidsRepository.findByDealAndBidder(tx, dealId, userId)));
        if (await joinRequestsRepository.findPending(tx, dealId, userId)) throw alreadyAsked();
        const row = await joinRequestsRepository.insert(tx, { dealId, requesterId: userId, message });
        const request = presentJoinRequest((await joinRequestsRepository.view(tx, row.id))!);
        const who = request.requester.username;
        await this.deps.timeline.record(tx, afterCommit, {
          dealId,
          actorId: userId,
          event: { kind: 'join-requested', message: `${who} asked to join as the counterpart.` },
          notify: [
            {
              to: [deal.creatorId],
              kind: 'join-requested',
              message: `${who} asks to join your deal "${deal.title}" as its counterpart${message ? `: "${message}"` : '.'}`,
            },
          ],
        });
        afterCommit(() => this.publish(deal.creatorId, userId, request, 'created'));
        return request;
      });
    } catch (error) {
      // Two requests at once: the pending-request key lets one in.
      if (isUniqueViolation(error)) throw alreadyAsked();
      throw error;
    }
  }

  /** GET /api/deals/{id}/join-requests: its creator sees every request; anyone else, their own. */
  async list(dealId: number, viewerId: number): Promise<JoinRequest[]> {
    const deal = await this.deps.deals.find(dealId);
    const rows = await joinRequestsRepository.listOfDeal(
      this.deps.db,
      dealId,
      deal.creatorId === viewerId ? undefined : viewerId,
    );
    return rows.map(presentJoinRequest);
  }

  /** POST /api/deals/{id}/join-requests/{rid}/accept: the requester becomes the counterpart. */
  accept(dealId: number, requestId: number, userId: number): Promise<JoinDecisionResponse> {
    return this.deps.transact(async (tx, afterCommit) => {
      const before = await this.deps.deals.lock(tx, dealId);
      requireMayDecideJoin(before, userId);
      const pending = await this.lockPending(tx, dealId, requestId);
      const requesterId = pending.requesterId;
      requireRequesterMayJoin(
        before,
        requesterId,
        !!(await bidsRepository.findByDealAndBidder(tx, dealId, requesterId)),
      );
      await joinRequestsRepository.decide(tx, requestId, 'accepted');
      const declinedIds = await joinRequestsRepository.declineOthers(tx, dealId, requestId);
      await this.deps.deals.update(tx, dealId, { counterpartId: requesterId });
      const deal = await this.deps.deals.present(dealId, userId, tx);
      const request = presentJoinRequest((await joinRequestsRepository.view(tx, requestId))!);
      await this.deps.timeline.record(tx, afterCommit, {
        dealId,
        actorId: userId,
        event: { kind: 'joined', message: `${deal.dealer_joined} joined as the counterpart.` },
        notify: [
          {
            to: [requesterId],
            kind: 'join-accepted',
            message: `${deal.dealer_creator} accepted you as the counterpart of "${deal.title}".`,
          },
          {
            to: declinedIds,
            kind: 'join-declined',
            message: `"${deal.title}" found its counterpart: your request to join it was declined.`,
          },
        ],
      });
      afterCommit(() => {
        this.deps.deals.announce(deal, 'joined');
        this.publish(before.creatorId, requesterId, request, 'accepted');
        for (const declinedId of declinedIds) {
          this.deps.events.publish({ users: [declinedId] }, 'join-request-updated', {
            dealId,
            data: { id: requestId },
            updateType: 'rejected',
          });
        }
      });
      return { message: `${request.requester.username} is now the counterpart of this deal.`, request, deal };
    });
  }

  /** POST /api/deals/{id}/join-requests/{rid}/decline. */
  decline(dealId: number, requestId: number, userId: number): Promise<JoinDecisionResponse> {
    return this.deps.transact(async (tx, afterCommit) => {
      const before = await this.deps.deals.lock(tx, dealId);
      requireMayDecideJoin(before, userId);
      const pending = await this.lockPending(tx, dealId, requestId);
      await joinRequestsRepository.decide(tx, requestId, 'declined');
      const request = presentJoinRequest((await joinRequestsRepository.view(tx, requestId))!);
      const deal = await this.deps.deals.present(dealId, userId, tx);
      await this.deps.timeline.record(tx, afterCommit, {
        dealId,
        actorId: userId,
        event: {
          kind: 'join-declined',
          message: `${deal.dealer_creator} declined ${request.requester.username}'s request to join.`,
        },
        notify: [
          {
            to: [pending.requesterId],
            kind: 'join-declined',
            message: `${deal.dealer_creator} declined your request to join "${deal.title}".`,
          },
        ],
      });
      afterCommit(() => this.publish(before.creatorId, pending.requesterId, request, 'rejected'));
      return { message: 'Request declined.', request, deal };
    });
  }

  /** The deal's pending request, locked; 404 when it is another deal's or unknown, 409 once decided. */
  private async lockPending(tx: Tx, dealId: number, requestId: number) {
    const row = await joinRequestsRepository.lock(tx, requestId);
    if (!row || row.dealId !== dealId) throw notFound('Join request not found.');
    if (row.status !== 'pending') throw conflict(`This request was already ${row.status}.`);
    return row;
  }

  /** A request's change goes to the deal's creator and to the requester. */
  private publish(
    creatorId: number,
    requesterId: number,
    request: JoinRequest,
    updateType: 'created' | 'accepted' | 'rejected',
  ) {
    this.deps.events.publish({ users: [creatorId, requesterId] }, 'join-request-updated', {
      dealId: request.dealId,
      data: request,
      updateType,
    });
  }
}
