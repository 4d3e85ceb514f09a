import type { Deal } from '../../../contract/deals';
import type { Milestone } from '../../../contract/milestones';
import { amountToCents } from '../../../contract/money';
import type { Confirmation } from '../../components/ui/confirm-dialog';
import { formatMoney } from '../../lib/money';
import { shortBalanceReason } from '../escrow';
import { milestoneLabel } from './milestone-texts';

/*
 * What a milestone's buttons ask before they act, in numbers, as the escrow's half does
 * (escrow-confirmations.ts). `balance` is the viewer's wallet balance in dollars, or undefined while it is
 * not known (the question then leaves it out).
 */

type Action = Pick<Confirmation, 'onConfirm'>;
type Named = Pick<Milestone, 'position' | 'title'>;

const after = (balance: number, delta: number) => (amountToCents(balance) + amountToCents(delta)) / 100;

/** Pay my share: the milestone and the amount named, the balance after; blocked when the balance is short. */
export function payShareConfirmation(
  deal: Pick<Deal, 'title'>,
  milestone: Named,
  amount: number,
  balance: number | undefined,
  action: Action,
): Confirmation {
  const short = balance !== undefined && amountToCents(balance) < amountToCents(amount);
  return {
    title: 'Pay your share of this milestone?',
    message:
      `Pay ${formatMoney(amount)} from your wallet into escrow for ${milestoneLabel(milestone)} of '${deal.title}'.` +
      (balance === undefined || short ? '' : ` Balance after: ${formatMoney(after(balance, -amount))}.`),
    facts:
      balance === undefined
        ? undefined
        : [
            { label: 'Your balance now', value: formatMoney(balance) },
            short
              ? { label: 'Missing', value: formatMoney(after(amount, -balance)) }
              : { label: 'Balance after', value: formatMoney(after(balance, -amount)) },
          ],
    blocked: short ? { reason: shortBalanceReason(balance, amount) } : undefined,
    confirmLabel: 'Pay my share',
    busyLabel: 'Paying...',
    variant: 'success',
    ...action,
  };
}

export function takeShareBackConfirmation(
  deal: Pick<Deal, 'title'>,
  milestone: Named,
  amount: number,
  balance: number | undefined,
  action: Action,
): Confirmation {
  return {
    title: 'Take your share back?',
    message:
      `Take ${formatMoney(amount)} back from ${milestoneLabel(milestone)} of '${deal.title}' into your wallet.` +
      (balance === undefined ? '' : ` Balance after: ${formatMoney(after(balance, amount))}.`),
    facts:
      balance === undefined
        ? undefined
        : [
            { label: 'Your balance now', value: formatMoney(balance) },
            { label: 'Balance after', value: formatMoney(after(balance, amount)) },
          ],
    confirmLabel: 'Take my share back',
    busyLabel: 'Refunding...',
    ...action,
  };
}

/**
 * Approving cannot be undone; the money goes to the dealmaker once both dealers approved (at once when
 * the other one already has).
 */
export function approveConfirmation(
  milestone: Named & Pick<Milestone, 'amount'>,
  people: { dealmaker: string; otherDealer: string },
  otherApproved: boolean,
  action: Action,
): Confirmation {
  const name = milestoneLabel(milestone);
  const amount = formatMoney(milestone.amount);
  return {
    title: 'Approve this milestone?',
    message: otherApproved
      ? `Approve ${name} as delivered. @${people.otherDealer} already approved it: its ${amount} is released to @${people.dealmaker} at once. This cannot be undone.`
      : `Approve ${name} as delivered. Once @${people.otherDealer} approves it too, its ${amount} is released to @${people.dealmaker}. This cannot be undone.`,
    confirmLabel: 'Approve',
    busyLabel: 'Approving...',
    variant: 'success',
    ...action,
  };
}
