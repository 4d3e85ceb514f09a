import type { ReactNode } from 'react';
import type { Proposal, ProposalStatus } from '../../../contract/settlements';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { formatDateTime } from '../../lib/time';
import { acceptedByText, proposalStatusText, type SettlementPeople, splitOf } from './settlement-texts';
import { SplitLines } from './split-amount-field';

const statusBadges: Record<ProposalStatus, { tone: BadgeTone; label: string }> = {
  open: { tone: 'amber', label: 'Open' },
  accepted: { tone: 'green', label: 'Accepted' },
  superseded: { tone: 'neutral', label: 'Superseded' },
  withdrawn: { tone: 'neutral', label: 'Withdrawn' },
};

type ProposalListProps = {
  proposals: Proposal[];
  people: SettlementPeople;
  /** The buttons under one proposal (Accept, Withdraw), if the viewer may act on it. */
  actions?: (proposal: Proposal) => ReactNode;
};

/** A dispute's settlement proposals, newest first: who proposed what, who accepted, where each stands. */
export function ProposalList({ proposals, people, actions }: ProposalListProps) {
  return (
    <ul className="space-y-2">
      {proposals.map((proposal) => {
        const badge = statusBadges[proposal.status];
        return (
          <li
            key={proposal.id}
            aria-label={`Proposal by @${proposal.proposedBy.username}`}
            className="space-y-2 rounded-lg border border-slate-200 bg-white px-3 py-2.5"
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="text-xs text-slate-600">
                Proposed by{' '}
                <span className="font-medium text-slate-900">@{proposal.proposedBy.username}</span> on{' '}
                {formatDateTime(proposal.createdAt)}
              </p>
              <Badge tone={badge.tone}>{badge.label}</Badge>
            </div>
            <SplitLines split={splitOf(proposal)} people={people} />
            {proposal.acceptedBy.length > 0 && (
              <p className="text-xs text-slate-600">{acceptedByText(proposal)}</p>
            )}
            <p className="text-xs font-medium text-slate-800">{proposalStatusText(proposal, people)}</p>
            {actions?.(proposal)}
          </li>
        );
      })}
    </ul>
  );
}
