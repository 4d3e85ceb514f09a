import { centsToDollars } from '../../../contract/money';
import type { Proposal, ProposalStatus, Settlement } from '../../../contract/settlements';
import type { SettlementRow } from '../../db/schema';
import type { ProposalView } from './settlement.repository';

export function presentProposal(view: ProposalView): Proposal {
  const { proposal } = view;
  return {
    id: proposal.id,
    disputeId: proposal.disputeId,
    proposedBy: { username: view.proposerUsername },
    toDealmaker: centsToDollars(proposal.toDealmakerCents),
    refundToCreator: centsToDollars(proposal.refundToCreatorCents),
    refundToCounterpart: centsToDollars(proposal.refundToCounterpartCents),
    acceptedBy: view.acceptedBy,
    status: proposal.status as ProposalStatus,
    createdAt: proposal.createdAt.toISOString(),
  };
}

export function presentSettlement(row: SettlementRow): Settlement {
  return {
    toDealmaker: centsToDollars(row.toDealmakerCents),
    refundToCreator: centsToDollars(row.refundToCreatorCents),
    refundToCounterpart: centsToDollars(row.refundToCounterpartCents),
    by: row.operatorId === null ? 'agreement' : 'operator',
    proposalId: row.proposalId,
    settledAt: row.createdAt.toISOString(),
  };
}
