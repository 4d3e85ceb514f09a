import type { Deal } from '../../../contract/deals';
import type { Dispute } from '../../../contract/disputes';
import { formatUsdCents } from '../../../contract/money';
import type { Confirmation } from '../../components/ui/confirm-dialog';
import { type SettlementPeople, type SplitCents, splitFacts, splitSentence } from './settlement-texts';

/* What the settlement's buttons ask before they act, in numbers. */

type Action = Pick<Confirmation, 'onConfirm'>;
type Escrowed = { title: string; escrowCents: number };

/** "{lead} the escrow of '…' ($1,000.01): $600.00 to the dealmaker (@carol), …. {after}", and the three amounts. */
function splitQuestion(
  lead: string,
  deal: Escrowed,
  split: SplitCents,
  people: SettlementPeople,
  after: string,
): Pick<Confirmation, 'message' | 'facts'> {
  return {
    message: `${lead} the escrow of '${deal.title}' (${formatUsdCents(deal.escrowCents)}): ${splitSentence(split, people)}. ${after}`,
    facts: splitFacts(split, people),
  };
}

export function proposeConfirmation(
  deal: Escrowed,
  split: SplitCents,
  people: SettlementPeople,
  action: Action,
): Confirmation {
  return {
    title: 'Propose this settlement?',
    ...splitQuestion(
      'Propose to split',
      deal,
      split,
      people,
      'It replaces the open proposal, and settles once all three of you accept it.',
    ),
    confirmLabel: 'Propose settlement',
    busyLabel: 'Proposing...',
    ...action,
  };
}

export function acceptConfirmation(
  deal: Escrowed,
  split: SplitCents,
  people: SettlementPeople,
  lastToAccept: boolean,
  action: Action,
): Confirmation {
  return {
    title: 'Accept this settlement?',
    ...splitQuestion(
      'Accept splitting',
      deal,
      split,
      people,
      lastToAccept
        ? 'You are the last to accept: the escrow is paid out at once and the deal is completed. This cannot be undone.'
        : 'Once everyone has accepted, the escrow is paid out this way and the deal is completed.',
    ),
    confirmLabel: 'Accept settlement',
    busyLabel: 'Accepting...',
    variant: 'success',
    ...action,
  };
}

export function escalateConfirmation(
  dispute: Pick<Dispute, 'title'>,
  deal: Pick<Deal, 'title'>,
  action: Action,
): Confirmation {
  return {
    title: 'Escalate to an operator?',
    message: `Send the dispute "${dispute.title}" on '${deal.title}' to an operator now. An operator can then decide how the escrow is split.`,
    confirmLabel: 'Escalate now',
    busyLabel: 'Escalating...',
    variant: 'danger',
    ...action,
  };
}

/** An operator's decision: final, and it completes the deal. */
export function operatorSettleConfirmation(
  deal: Escrowed,
  split: SplitCents,
  people: SettlementPeople,
  action: Action,
): Confirmation {
  return {
    title: 'Settle this escrow?',
    ...splitQuestion(
      'Settle',
      deal,
      split,
      people,
      'The dispute is resolved and the deal is completed. This cannot be undone.',
    ),
    confirmLabel: 'Settle escrow',
    busyLabel: 'Settling...',
    variant: 'danger',
    ...action,
  };
}
