import type { Dispute } from '../../../contract/disputes';
import type { Proposal, Settlement } from '../../../contract/settlements';
import type { DisputeView } from './disputes.repository';

/** A dispute with its settlement proposals (newest first) and, once settled, how the escrow was split. */
export function presentDispute(
  view: DisputeView,
  money: { proposals: Proposal[]; settlement: Settlement | null } = { proposals: [], settlement: null },
): Dispute {
  const { dispute } = view;
  const open = dispute.status === 'open';
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
    escalated: dispute.escalatedAt !== null,
    escalatedAt: dispute.escalatedAt?.toISOString() ?? null,
    escalatesAt: open && !dispute.escalatedAt ? (dispute.escalatesAt?.toISOString() ?? null) : null,
    proposals: money.proposals,
    settlement: money.settlement,
  };
}
