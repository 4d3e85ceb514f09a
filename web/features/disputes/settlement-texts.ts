import type { Deal } from '../../../contract/deals';
import type { Dispute } from '../../../contract/disputes';
import { type Escrow, splitSettlement } from '../../../contract/escrow';
import { amountToCents, formatUsdCents } from '../../../contract/money';
import { type Proposal, proposeSettlementSchema } from '../../../contract/settlements';
import { checkWith } from '../../lib/form-check';
import { typedAmount } from '../../lib/money';
import { sameUser } from '../../lib/same-user';
import { formatDateTime } from '../../lib/time';

/** A split of a locked escrow, in cents: what the dealmaker gets, and each dealer's refund. */
export type SplitCents = {
  toDealmakerCents: number;
  refundToCreatorCents: number;
  refundToCounterpartCents: number;
};

/** The three people a settlement needs (usernames; the counterpart and dealmaker exist once the escrow is locked). */
export type SettlementPeople = { creator: string; counterpart: string; dealmaker: string };

export const settlementPeopleOf = (
  deal: Pick<Deal, 'dealer_creator' | 'dealer_joined' | 'dealmaker'>,
): SettlementPeople => ({
  creator: deal.dealer_creator,
  counterpart: deal.dealer_joined ?? '',
  dealmaker: deal.dealmaker ?? '',
});

/** The escrow in cents, as the split needs it. */
export const escrowCentsOf = (escrow: Pick<Escrow, 'amount' | 'creatorAmount'>) => ({
  amountCents: amountToCents(escrow.amount),
  creatorShareCents: amountToCents(escrow.creatorAmount),
});

/**
 * What a settlement giving `toDealmakerCents` to the dealmaker pays each one: the contract's split,
 * so the preview is, to the cent, what the server will pay out.
 */
export function settlementPreview(
  escrow: Pick<Escrow, 'amount' | 'creatorAmount'>,
  toDealmakerCents: number,
): SplitCents {
  return splitSettlement(escrowCentsOf(escrow), toDealmakerCents);
}

/** A proposal's or settlement's dollars as cents. */
export const splitOf = (
  split: Pick<Proposal, 'toDealmaker' | 'refundToCreator' | 'refundToCounterpart'>,
): SplitCents => ({
  toDealmakerCents: amountToCents(split.toDealmaker),
  refundToCreatorCents: amountToCents(split.refundToCreator),
  refundToCounterpartCents: amountToCents(split.refundToCounterpart),
});

/**
 * The amount typed for the dealmaker, read as cents by the contract's schema of a proposal and within
 * the escrow, or why it cannot be used.
 */
export function readSplitAmount(
  text: string,
  amountCents: number,
): { cents: number; problem: null } | { cents: null; problem: string } {
  if (!text.trim()) return { cents: null, problem: 'Enter the amount for the dealmaker' };
  const checked = checkWith(proposeSettlementSchema, { toDealmaker: typedAmount(text) });
  if (!checked.ok) return { cents: null, problem: checked.problem };
  const cents = checked.value.toDealmaker;
  if (cents > amountCents) {
    return { cents: null, problem: `At most ${formatUsdCents(amountCents)}, the whole escrow` };
  }
  return { cents, problem: null };
}

/** '@a', '@a and @b', '@a, @b and @c'. */
export function listNames(names: string[]): string {
  const tagged = names.map((name) => `@${name}`);
  return tagged.length <= 1 ? (tagged[0] ?? '') : `${tagged.slice(0, -1).join(', ')} and ${tagged.at(-1)}`;
}

/** "$600.00 to the dealmaker (@carol), $200.00 back to @alice, $200.00 back to @bob". */
export function splitSentence(split: SplitCents, people: SettlementPeople): string {
  return (
    `${formatUsdCents(split.toDealmakerCents)} to the dealmaker (@${people.dealmaker}), ` +
    `${formatUsdCents(split.refundToCreatorCents)} back to @${people.creator}, ` +
    `${formatUsdCents(split.refundToCounterpartCents)} back to @${people.counterpart}`
  );
}

/** The three lines of a split, labelled by who receives what. */
export function splitFacts(split: SplitCents, people: SettlementPeople) {
  return [
    { label: `To the dealmaker (@${people.dealmaker})`, value: formatUsdCents(split.toDealmakerCents) },
    {
      label: `Refund to the creator (@${people.creator})`,
      value: formatUsdCents(split.refundToCreatorCents),
    },
    {
      label: `Refund to the counterpart (@${people.counterpart})`,
      value: formatUsdCents(split.refundToCounterpartCents),
    },
  ];
}

const participantsOf = (people: SettlementPeople) =>
  [people.creator, people.counterpart, people.dealmaker].filter(Boolean);

/** Who still has to accept an open proposal, in the deal's order (creator, counterpart, dealmaker). */
export function awaitedBy(proposal: Pick<Proposal, 'acceptedBy'>, people: SettlementPeople): string[] {
  return participantsOf(people).filter((name) => !proposal.acceptedBy.some((other) => sameUser(other, name)));
}

/** Where a proposal stands: 'Waiting for @bob and @carol' while open. */
export function proposalStatusText(
  proposal: Pick<Proposal, 'status' | 'acceptedBy'>,
  people: SettlementPeople,
): string {
  switch (proposal.status) {
    case 'open': {
      const waiting = awaitedBy(proposal, people);
      return waiting.length > 0 ? `Waiting for ${listNames(waiting)}` : 'Accepted by everyone';
    }
    case 'accepted':
      return 'Accepted by everyone: the escrow was paid out this way';
    case 'superseded':
      return 'Superseded by a newer proposal';
    case 'withdrawn':
      return 'Withdrawn by its proposer';
  }
}

/** 'Accepted by @alice and @carol'. */
export const acceptedByText = (proposal: Pick<Proposal, 'acceptedBy'>) =>
  `Accepted by ${listNames(proposal.acceptedBy)}`;

/** When an open dispute goes (or went) to the operators, or null when that no longer applies. */
export function escalationText(
  dispute: Pick<Dispute, 'status' | 'escalated' | 'escalatedAt' | 'escalatesAt'>,
): string | null {
  if (dispute.status !== 'open') return null;
  if (dispute.escalated && dispute.escalatedAt) {
    return `Escalated to an operator on ${formatDateTime(dispute.escalatedAt)}`;
  }
  if (dispute.escalatesAt) return `Escalates to an operator on ${formatDateTime(dispute.escalatesAt)}`;
  return null;
}
