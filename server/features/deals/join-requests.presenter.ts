import type { JoinRequest } from '../../../contract/deal-changes';
import type { JoinRequestView } from './join-requests.repository';

export function presentJoinRequest({ request, username, fullName }: JoinRequestView): JoinRequest {
  return {
    id: request.id,
    dealId: request.dealId,
    requester: { username, full_name: fullName },
    message: request.message,
    status: request.status as JoinRequest['status'],
    createdAt: request.createdAt.toISOString(),
    decidedAt: request.decidedAt?.toISOString() ?? null,
  };
}
