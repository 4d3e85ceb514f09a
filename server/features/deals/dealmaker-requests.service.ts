import type { NewDealmakerRequest } from '../../../contract/deals';
import type { Db, Tx } from '../../db/client';
import { conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors';
import type { EventPublisher } from '../../realtime/publisher';
import type { UsersService } from '../users/users.service';
import { isDealer } from './deal-roles';
import { assignDealmaker } from './dealmaker-assignment';
import { presentIncomingRequest, presentRequest } from './dealmaker-requests.presenter';
import { type DealmakerRequestRow, dealmakerRequestsRepository } from './dealmaker-requests.repository';
import type { DealsService } from './deals.service';

const requestNotFound = () => notFound('Request not found.');
const alreadySent = () => conflict('A request has already been sent to this user for this deal.');

/** Dealers asking a user directly to be their deal's dealmaker (DESIGN.md §5 Dealmaker requests). */
export class DealmakerRequestsService {
  constructor(
    private readonly db: Db,
    private readonly deals: DealsService,
    private readonly users: UsersService,
    private readonly events: EventPublisher,
  ) {}

  async send(senderId: number, input: NewDealmakerRequest) {
    const { dealId, receiverUsername, message } = input;
    const receiver = await this.users.findVerifiedByUsername(receiverUsername);
    const request = await this.db
      .transaction(async (tx) => {
        const deal = await this.deals.lock(tx, dealId);
        if (!isDealer(deal, senderId))
          throw forbidden('Only the dealers of this deal can request a dealmaker.');
        if (deal.isCompleted) throw conflict('This deal is already completed.');
        if (deal.dealmakerId !== null) throw conflict('This deal already has a dealmaker.');
        if (isDealer(deal, receiver.id)) throw conflict('A dealer of this deal cannot be its dealmaker.');
        if (await dealmakerRequestsRepository.findByDealAndReceiver(tx, dealId, receiver.id))
          throw alreadySent();
        const row = await dealmakerRequestsRepository.insert(tx, {
          dealId,
          senderId,
          receiverId: receiver.id,
          message,
        });
        return { row, deal, view: (await dealmakerRequestsRepository.view(tx, row.id))! };
      })
      .catch((error) => {
        if (isUniqueViolation(error, 'dealmaker_requests_deal_receiver_key')) throw alreadySent();
        throw error;
      });
    this.publish(request.row, presentRequest(request.view), 'created', [
      request.deal.creatorId,
      request.deal.counterpartId,
    ]);
    this.events.notify([receiver.id], {
      kind: 'request-received',
      dealId,
      message: `${request.view.senderUsername} asks you to be the dealmaker of "${request.view.deal.title}".`,
    });
    return presentRequest(request.view);
  }

  /** The requests of a deal, for its dealers. */
  async listOfDeal(dealId: number, viewerId: number) {
    const deal = await this.deals.findRow(this.db, dealId);
    if (!isDealer(deal, viewerId)) throw forbidden('Only the dealers of this deal can see its requests.');
    return (await dealmakerRequestsRepository.listOfDeal(this.db, dealId)).map(presentRequest);
  }

  /** Requests waiting for this user's answer, each with its deal. */
  async incoming(userId: number) {
    return (await dealmakerRequestsRepository.listPendingForReceiver(this.db, userId)).map(
      presentIncomingRequest,
    );
  }

  async accept(requestId: number, userId: number) {
    const outcome = await this.db.transaction(async (tx) => {
      const request = await dealmakerRequestsRepository.findById(tx, requestId);
      if (!request) throw requestNotFound();
      // Deal before request, the lock order everywhere (finalizing a bid locks the deal, then removes requests).
      const deal = await this.deals.lock(tx, request.dealId);
      const current = await dealmakerRequestsRepository.lock(tx, requestId);
      if (!current) throw requestNotFound();
      if (current.receiverId !== userId)
        throw forbidden('Only the user this request was sent to can accept it.');
      if (current.rejected) throw conflict('This request was rejected and can no longer be accepted.');
      if (deal.isCompleted) throw conflict('This deal is already completed.');
      if (deal.dealmakerId !== null) throw conflict('This deal already has a dealmaker.');
      if (isDealer(deal, userId)) throw conflict('A dealer of this deal cannot be its dealmaker.');
      const removed = await assignDealmaker(tx, deal.id, userId, { keepBidId: null });
      return { deal: await this.deals.present(tx, deal.id, userId), before: deal, removed };
    });
    const { deal, before, removed } = outcome;
    this.deals.announce(deal, 'dealmaker-assigned');
    this.events.publish(
      { users: [before.creatorId, before.counterpartId, userId].filter(isId) },
      'dealmaker-request-updated',
      {
        dealId: deal.id,
        data: { id: requestId },
        updateType: 'accepted',
      },
    );
    this.events.notify([before.creatorId, before.counterpartId], {
      kind: 'request-accepted',
      dealId: deal.id,
      message: `${deal.dealmaker} accepted your request and is now the dealmaker of "${deal.title}".`,
    });
    this.events.notify([...removed.removedBidderIds, ...removed.removedRequestReceiverIds], {
      kind: 'deal-closed',
      dealId: deal.id,
      message: `"${deal.title}" found its dealmaker; your bid or request on it was closed.`,
    });
    return { message: 'Request accepted. You are now the dealmaker of this deal.', deal };
  }

  async reject(requestId: number, userId: number) {
    const { row, view } = await this.db.transaction(async (tx) => {
      const row = await this.lockRequest(tx, requestId);
      if (row.receiverId !== userId) throw forbidden('Only the user this request was sent to can reject it.');
      if (row.rejected) throw conflict('This request was already rejected.');
      await dealmakerRequestsRepository.markRejected(tx, requestId);
      return { row, view: (await dealmakerRequestsRepository.view(tx, requestId))! };
    });
    const request = presentRequest(view);
    this.publish(row, request, 'rejected', [row.senderId]);
    this.events.notify([row.senderId], {
      kind: 'request-rejected',
      dealId: row.dealId,
      message: `${request.receiverUsername} rejected your dealmaker request for "${view.deal.title}".`,
    });
    return { message: 'Request rejected.', request };
  }

  async cancel(requestId: number, userId: number) {
    const row = await this.db.transaction(async (tx) => {
      const row = await this.lockRequest(tx, requestId);
      if (row.senderId !== userId) throw forbidden('Only the sender can cancel this request.');
      if (row.rejected) throw conflict('This request was rejected and cannot be canceled.');
      await dealmakerRequestsRepository.delete(tx, requestId);
      return row;
    });
    this.publish(row, { id: requestId }, 'canceled', [row.senderId]);
    return { message: 'Request canceled successfully!' };
  }

  private async lockRequest(tx: Tx, id: number) {
    const row = await dealmakerRequestsRepository.lock(tx, id);
    if (!row) throw requestNotFound();
    return row;
  }

  /** Request changes go to the sender, the receiver and the deal's dealers. */
  private publish(
    row: DealmakerRequestRow,
    data: ReturnType<typeof presentRequest> | { id: number },
    updateType: 'created' | 'rejected' | 'canceled',
    alsoUsers: Array<number | null>,
  ) {
    this.events.publish(
      { users: [...new Set([row.senderId, row.receiverId, ...alsoUsers.filter(isId)])] },
      'dealmaker-request-updated',
      {
        dealId: row.dealId,
        data,
        updateType,
      },
    );
  }
}

const isId = (id: number | null): id is number => id !== null;
