import type { DealmakerRequest, NewDealmakerRequest } from '../../../contract/deals';
import type { DealAccess } from '../../core/deal/deal-access';
import {
  requireDealmakerWanted,
  requireMayRequestDealmaker,
  requireMaySeeRequests,
} from '../../core/deal/deal-policy';
import type { Db, Tx } from '../../db/client';
import { isUniqueViolation } from '../../db/postgres-errors';
import type { DealmakerRequestRow } from '../../db/schema';
import type { Transact } from '../../db/transaction';
import { conflict, forbidden, notFound } from '../../lib/errors';
import type { EventPublisher } from '../../lib/events';
import type { EscrowService } from '../escrow/escrow.service';
import type { TimelineService } from '../timeline/timeline.service';
import type { UsersService } from '../users/users.service';
import { assignDealmaker } from './dealmaker-assignment';
import { presentIncomingRequest, presentRequest } from './dealmaker-requests.presenter';
import { dealmakerRequestsRepository } from './dealmaker-requests.repository';

const requestNotFound = () => notFound('Request not found.');
const alreadySent = () => conflict('A request has already been sent to this user for this deal.');

/** Dealers asking a user directly to be their deal's dealmaker (DESIGN.md §5 Dealmaker requests). */
export class DealmakerRequestsService {
  constructor(
    private readonly deps: {
      db: Db;
      transact: Transact;
      deals: DealAccess;
      escrow: EscrowService;
      users: UsersService;
      timeline: TimelineService;
      events: EventPublisher;
    },
  ) {}

  async send(senderId: number, input: NewDealmakerRequest) {
    const { dealId, receiverUsername, message } = input;
    const receiver = await this.deps.users.findVerifiedByUsername(receiverUsername);
    return this.deps
      .transact(async (tx, afterCommit) => {
        const deal = await this.deps.deals.lock(tx, dealId);
        requireMayRequestDealmaker(deal, senderId, receiver.id);
        if (await dealmakerRequestsRepository.findByDealAndReceiver(tx, dealId, receiver.id))
          throw alreadySent();
        const row = await dealmakerRequestsRepository.insert(tx, {
          dealId,
          senderId,
          receiverId: receiver.id,
          message,
        });
        const view = (await dealmakerRequestsRepository.view(tx, row.id))!;
        const request = presentRequest(view);
        await this.deps.timeline.record(tx, afterCommit, {
          dealId,
          actorId: senderId,
          notify: [
            {
              to: [receiver.id],
              kind: 'request-received',
              message: `${view.senderUsername} asks you to be the dealmaker of "${view.deal.title}".`,
            },
          ],
        });
        afterCommit(() => this.publish(row, request, 'created', [deal.creatorId, deal.counterpartId]));
        return request;
      })
      .catch((error) => {
        if (isUniqueViolation(error, 'dealmaker_requests_deal_receiver_key')) throw alreadySent();
        throw error;
      });
  }

  /** Users a dealer may request as dealmaker: never the caller, nor the deal's dealers or dealmaker. */
  async candidates(callerId: number, keyword: string, dealId: number | undefined) {
    const excludeIds = [callerId, ...(dealId ? await this.deps.deals.participantIds(dealId) : [])];
    return this.deps.users.list({ viewerId: callerId, keyword, excludeIds });
  }

  /** The requests of a deal, for its dealers. */
  async listOfDeal(dealId: number, viewerId: number) {
    requireMaySeeRequests(await this.deps.deals.find(dealId), viewerId);
    return (await dealmakerRequestsRepository.listOfDeal(this.deps.db, dealId)).map(presentRequest);
  }

  /** Requests waiting for this user's answer, each with its deal. */
  async incoming(userId: number) {
    return (await dealmakerRequestsRepository.listPendingForReceiver(this.deps.db, userId)).map(
      presentIncomingRequest,
    );
  }

  accept(requestId: number, userId: number) {
    return this.deps.transact(async (tx, afterCommit) => {
      const request = await dealmakerRequestsRepository.findById(tx, requestId);
      if (!request) throw requestNotFound();
      // Deal before request, the lock order everywhere (finalizing a bid locks the deal, then removes requests).
      const before = await this.deps.deals.lock(tx, request.dealId);
      const current = await dealmakerRequestsRepository.lock(tx, requestId);
      if (!current) throw requestNotFound();
      if (current.receiverId !== userId)
        throw forbidden('Only the user this request was sent to can accept it.');
      if (current.rejected) throw conflict('This request was rejected and can no longer be accepted.');
      requireDealmakerWanted(before, userId);
      const removed = await assignDealmaker(
        tx,
        { deals: this.deps.deals, escrow: this.deps.escrow },
        before.id,
        userId,
        {
          keepBidId: null,
          budgetCents: before.budgetCents,
        },
      );
      const deal = await this.deps.deals.present(before.id, userId, tx);
      await this.deps.timeline.record(tx, afterCommit, {
        dealId: deal.id,
        actorId: userId,
        event: {
          kind: 'request-accepted',
          message: `${deal.dealmaker} accepted the request and is the dealmaker.`,
        },
        notify: [
          {
            to: [before.creatorId, before.counterpartId],
            kind: 'request-accepted',
            message: `${deal.dealmaker} accepted your request and is now the dealmaker of "${deal.title}".`,
          },
          {
            to: [...removed.removedBidderIds, ...removed.removedRequestReceiverIds],
            kind: 'deal-closed',
            message: `"${deal.title}" found its dealmaker; your bid or request on it was closed.`,
          },
        ],
      });
      afterCommit(() => {
        this.deps.deals.announce(deal, 'dealmaker-assigned');
        this.deps.events.publish(
          { users: [before.creatorId, before.counterpartId, userId] },
          'dealmaker-request-updated',
          { dealId: deal.id, data: { id: requestId, dealmaker: deal.dealmaker! }, updateType: 'accepted' },
        );
      });
      return { message: 'Request accepted. You are now the dealmaker of this deal.', deal };
    });
  }

  reject(requestId: number, userId: number) {
    return this.deps.transact(async (tx, afterCommit) => {
      const row = await this.lockRequest(tx, requestId);
      if (row.receiverId !== userId) throw forbidden('Only the user this request was sent to can reject it.');
      if (row.rejected) throw conflict('This request was already rejected.');
      await dealmakerRequestsRepository.markRejected(tx, requestId);
      const view = (await dealmakerRequestsRepository.view(tx, requestId))!;
      const request = presentRequest(view);
      await this.deps.timeline.record(tx, afterCommit, {
        dealId: row.dealId,
        actorId: userId,
        notify: [
          {
            to: [row.senderId],
            kind: 'request-rejected',
            message: `${request.receiverUsername} rejected your dealmaker request for "${view.deal.title}".`,
          },
        ],
      });
      afterCommit(() => this.publish(row, request, 'rejected', [row.senderId]));
      return { message: 'Request rejected.', request };
    });
  }

  cancel(requestId: number, userId: number) {
    return this.deps.transact(async (tx, afterCommit) => {
      const row = await this.lockRequest(tx, requestId);
      if (row.senderId !== userId) throw forbidden('Only the sender can cancel this request.');
      if (row.rejected) throw conflict('This request was rejected and cannot be canceled.');
      const view = (await dealmakerRequestsRepository.view(tx, requestId))!;
      await this.deps.timeline.record(tx, afterCommit, {
        dealId: row.dealId,
        actorId: userId,
        notify: [
          {
            to: [row.receiverId],
            kind: 'request-canceled',
            message: `${view.senderUsername} canceled their dealmaker request for "${view.deal.title}".`,
          },
        ],
      });
      await dealmakerRequestsRepository.delete(tx, requestId);
      afterCommit(() => this.publish(row, { id: requestId }, 'canceled', [row.senderId]));
      return { message: 'Request canceled successfully!' };
    });
  }

  private async lockRequest(tx: Tx, id: number) {
    const row = await dealmakerRequestsRepository.lock(tx, id);
    if (!row) throw requestNotFound();
    return row;
  }

  /** Request changes go to the sender, the receiver and the deal's dealers. */
  private publish(
    row: DealmakerRequestRow,
    data: DealmakerRequest | { id: number },
    updateType: 'created' | 'rejected' | 'canceled',
    alsoUsers: Array<number | null>,
  ) {
    this.deps.events.publish(
      { users: [row.senderId, row.receiverId, ...alsoUsers] },
      'dealmaker-request-updated',
      {
        dealId: row.dealId,
        data,
        updateType,
      },
    );
  }
}
