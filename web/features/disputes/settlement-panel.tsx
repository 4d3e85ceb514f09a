import { type FormEvent, useState } from 'react';
import type { Deal } from '../../../contract/deals';
import type { Dispute } from '../../../contract/disputes';
import type { Escrow } from '../../../contract/escrow';
import type { Proposal } from '../../../contract/settlements';
import type { Notice } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { useConfirmation } from '../../components/ui/confirm-dialog';
import { serverReason } from '../../lib/api';
import { sameUser } from '../../lib/same-user';
import { formatDateTime } from '../../lib/time';
import type { DealViewer } from '../deals';
import { ProposalList } from './proposal-list';
import { useAcceptProposal, useProposeSettlement, useWithdrawProposal } from './settlement-api';
import { acceptConfirmation, proposeConfirmation } from './settlement-confirmations';
import {
  awaitedBy,
  escrowCentsOf,
  type SettlementPeople,
  settlementPeopleOf,
  settlementPreview,
  splitOf,
} from './settlement-texts';
import { SplitAmountField, SplitLines } from './split-amount-field';
import { useSplitAmount } from './use-split-amount';

export type SettlementPanelProps = {
  dispute: Dispute;
  deal: Deal;
  viewer: DealViewer;
  /** The deal's escrow, once loaded. */
  escrow: Escrow | null;
  onNotice: (notice: Notice) => void;
};

/**
 * Settling the locked escrow by agreement: the proposals, Accept and Withdraw, and a form for a new
 * proposal; once settled, how the escrow was split.
 */
export function SettlementPanel({ dispute, deal, viewer, escrow, onNotice }: SettlementPanelProps) {
  const people = settlementPeopleOf(deal);
  const confirmation = useConfirmation();
  if (dispute.settlement) {
    return (
      <section
        aria-label="Settlement"
        className="mt-3 space-y-2 rounded-lg border border-emerald-100 bg-emerald-50/60 p-3"
      >
        <h4 className="text-sm font-semibold text-emerald-900">
          {dispute.settlement.by === 'agreement' ? 'Settled by agreement' : 'Settled by an operator'} on{' '}
          {formatDateTime(dispute.settlement.settledAt)}
        </h4>
        <SplitLines split={splitOf(dispute.settlement)} people={people} />
      </section>
    );
  }
  const settleable = dispute.status === 'open' && escrow?.status === 'locked' && viewer.isParticipant;
  if (!settleable || !escrow) return null;
  const escrowed = { title: deal.title, escrowCents: escrowCentsOf(escrow).amountCents };

  return (
    <section
      aria-label="Settlement"
      className="mt-3 space-y-3 rounded-lg border border-indigo-100 bg-indigo-50/40 p-3"
    >
      <div>
        <h4 className="text-sm font-semibold text-slate-900">Settle the escrow</h4>
        <p className="text-xs text-slate-600">
          Propose how much of the escrow goes to the dealmaker; the rest goes back to the dealers in
          proportion to what each paid. It is paid out once all three of you accept the same proposal.
        </p>
      </div>
      {dispute.proposals.length > 0 && (
        <ProposalList
          proposals={dispute.proposals}
          people={people}
          actions={(proposal) => (
            <ProposalActions
              proposal={proposal}
              dispute={dispute}
              viewer={viewer}
              people={people}
              onAccept={(lastToAccept, accept) =>
                confirmation.ask(
                  acceptConfirmation(escrowed, splitOf(proposal), people, lastToAccept, {
                    onConfirm: accept,
                  }),
                )
              }
              onNotice={onNotice}
            />
          )}
        />
      )}
      <ProposeForm
        dispute={dispute}
        escrow={escrow}
        people={people}
        onPropose={(split, propose) =>
          confirmation.ask(proposeConfirmation(escrowed, split, people, { onConfirm: propose }))
        }
        onNotice={onNotice}
      />
      {confirmation.dialog}
    </section>
  );
}

type ProposalActionsProps = {
  proposal: Proposal;
  dispute: Dispute;
  viewer: DealViewer;
  people: SettlementPeople;
  onAccept: (lastToAccept: boolean, accept: () => Promise<void>) => void;
  onNotice: (notice: Notice) => void;
};

/** Accept (the others, while open) and Withdraw (its proposer). */
function ProposalActions({ proposal, dispute, viewer, people, onAccept, onNotice }: ProposalActionsProps) {
  const accept = useAcceptProposal({
    onSuccess: (answer) =>
      onNotice({
        tone: 'success',
        text:
          answer.status === 'accepted' ? 'Everyone accepted: the escrow was settled' : 'Settlement accepted',
      }),
    onError: (error) =>
      onNotice({ tone: 'error', text: 'Failed to accept the settlement', detail: serverReason(error) }),
  });
  const withdraw = useWithdrawProposal({
    onSuccess: () => onNotice({ tone: 'success', text: 'Proposal withdrawn' }),
    onError: (error) =>
      onNotice({ tone: 'error', text: 'Failed to withdraw the proposal', detail: serverReason(error) }),
  });
  if (proposal.status !== 'open') return null;
  const waiting = awaitedBy(proposal, people);
  const mayAccept = waiting.some((name) => sameUser(name, viewer.username));
  const isProposer = sameUser(proposal.proposedBy.username, viewer.username);
  if (!mayAccept && !isProposer) return null;
  const input = { dispute, proposalId: proposal.id };
  return (
    <div className="flex flex-wrap gap-2">
      {mayAccept && (
        <Button
          size="sm"
          variant="success"
          onClick={() => onAccept(waiting.length === 1, () => accept.mutateSettled(input))}
        >
          Accept
        </Button>
      )}
      {isProposer && (
        <Button
          size="sm"
          variant="outline"
          loading={withdraw.isPending}
          onClick={() => withdraw.mutate(input)}
        >
          Withdraw
        </Button>
      )}
    </div>
  );
}

type ProposeFormProps = {
  dispute: Dispute;
  escrow: Escrow;
  people: SettlementPeople;
  onPropose: (split: ReturnType<typeof settlementPreview>, propose: () => Promise<void>) => void;
  onNotice: (notice: Notice) => void;
};

/** 'Propose a split' opens the amount, its slider and the live split; Propose asks before sending. */
function ProposeForm({ dispute, escrow, people, onPropose, onNotice }: ProposeFormProps) {
  const [open, setOpen] = useState(false);
  const amount = useSplitAmount(escrow);
  const propose = useProposeSettlement({
    onSuccess: () => {
      setOpen(false);
      amount.clear();
      onNotice({ tone: 'success', text: 'Settlement proposed' });
    },
    onError: (error) =>
      onNotice({ tone: 'error', text: 'Failed to propose the settlement', detail: serverReason(error) }),
  });
  if (!open) {
    return (
      <Button size="sm" variant="outline" onClick={() => setOpen(true)}>
        Propose a split
      </Button>
    );
  }
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const toDealmakerCents = amount.take();
    if (toDealmakerCents === null) return;
    onPropose(settlementPreview(escrow, toDealmakerCents), () =>
      propose.mutateSettled({ dispute, toDealmakerCents }),
    );
  };
  return (
    <form aria-label="Propose a settlement" onSubmit={submit} className="space-y-3" noValidate>
      <SplitAmountField people={people} {...amount.field} />
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" size="sm" variant="outline" onClick={() => setOpen(false)}>
          Cancel
        </Button>
        <Button type="submit" size="sm" loading={propose.isPending}>
          Propose
        </Button>
      </div>
    </form>
  );
}
