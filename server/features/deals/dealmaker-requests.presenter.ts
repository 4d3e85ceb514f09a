import type { DealmakerRequest, IncomingRequest } from '../../../contract/deals';
import { centsToDollars } from '../../../contract/money';
import type { DealmakerRequestView } from './dealmaker-requests.repository';

export function presentRequest(view: DealmakerRequestView): DealmakerRequest {
  return {
    id: view.request.id,
    dealId: view.request.dealId,
    message: view.request.message,
    senderUsername: view.senderUsername,
    receiverUsername: view.receiverUsername,
    rejected: view.request.rejected,
    createdAt: view.request.createdAt.toISOString(),
  };
}

export function presentIncomingRequest(view: DealmakerRequestView): IncomingRequest {
  return {
    ...presentRequest(view),
    deal: {
      title: view.deal.title,
      description: view.deal.description,
      budget: centsToDollars(view.deal.budgetCents),
      createdAt: view.deal.createdAt.toISOString(),
      creator: { username: view.creatorUsername },
      joined_user: view.counterpartUsername ? { username: view.counterpartUsername } : null,
    },
  };
}
