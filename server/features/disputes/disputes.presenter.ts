import type { Dispute } from '../../../contract/collaboration';
import type { DisputeView } from './disputes.repository';

export function presentDispute(view: DisputeView): Dispute {
  const { dispute } = view;
  return {
    id: dispute.id,
    dealId: dispute.dealId,
    title: dispute.title,
    description: dispute.description,
    status: dispute.status as Dispute['status'],
    raisedByUsername: view.raiserUsername,
    raiser: { full_name: view.raiserFullName },
    createdAt: dispute.createdAt.toISOString(),
    resolution: dispute.resolution,
    resolvedByUsername: view.resolverUsername,
    resolver: view.resolverFullName ? { full_name: view.resolverFullName } : null,
    resolvedAt: dispute.resolvedAt?.toISOString() ?? null,
  };
}
