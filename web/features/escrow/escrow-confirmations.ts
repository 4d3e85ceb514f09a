import type { Deal } from '../../../contract/deals';
import { amountToCents } from '../../../contract/money';
import type { Confirmation } from '../../components/ui/confirm-dialog';
import { formatMoney } from '../../lib/money';

/*
 * What the escrow's money buttons ask before they act, in numbers. `balance` is the viewer's wallet
 * balance in dollars, or undefined while it is not known (the question then leaves it out).
 */

type Action = Pick<Confirmation, 'onConfirm'>;

const cents = amountToCents;
const after = (balance: number, delta: number) => (cents(balance) + cents(delta)) / 100;

/**
 * Said before the click when the wallet holds less than the half to pay: the payment cannot go through
 * (the server would refuse it), so the dialog's button is disabled and the wallet is where to go.
 */
export const shortBalanceReason = (balance: number, amount: number) =>
  `Your balance is ${formatMoney(balance)}: you need ${formatMoney(amount)}.`;

/** The link under a short balance's reason. */
export const depositFirstLabel = 'Deposit first';

export function payHalfConfirmation(
  deal: Pick<Deal, 'title'>,
  amount: number,
  balance: number | undefined,
  action: Action,
): Confirmation {
  const short = balance !== undefined && cents(balance) < cents(amount);
  return {
    title: 'Pay your half into escrow?',
    message:
      `Pay ${formatMoney(amount)} from your wallet into escrow for '${deal.title}'.` +
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
    confirmLabel: 'Pay my half',
    busyLabel: 'Paying...',
    variant: 'success',
    ...action,
  };
}

export function takeHalfBackConfirmation(
  deal: Pick<Deal, 'title'>,
  amount: number,
  balance: number | undefined,
  action: Action,
): Confirmation {
  return {
    title: 'Take your half back?',
    message:
      `Take ${formatMoney(amount)} back from the escrow of '${deal.title}' into your wallet.` +
      (balance === undefined ? '' : ` Balance after: ${formatMoney(after(balance, amount))}.`),
    facts:
      balance === undefined
        ? undefined
        : [
            { label: 'Your balance now', value: formatMoney(balance) },
            { label: 'Balance after', value: formatMoney(after(balance, amount)) },
          ],
    confirmLabel: 'Take my half back',
    busyLabel: 'Refunding...',
    ...action,
  };
}

/** Marking finished cannot be undone; the second mark pays the dealmaker the whole escrow. */
export function markFinishedConfirmation(
  deal: Pick<Deal, 'title' | 'budget' | 'dealmaker'>,
  completes: boolean,
  action: Action,
): Confirmation {
  const payee = deal.dealmaker ? `@${deal.dealmaker}` : 'the dealmaker';
  return {
    title: 'Mark this deal as finished?',
    message: completes
      ? `Mark '${deal.title}' as finished. The other dealer already has: the deal completes and the escrow of ${formatMoney(deal.budget)} is released to ${payee} at once. This cannot be undone.`
      : `Mark '${deal.title}' as finished. Once the other dealer marks it too, the escrow of ${formatMoney(deal.budget)} is released to ${payee}. This cannot be undone.`,
    confirmLabel: 'Mark as Finished',
    busyLabel: 'Marking...',
    variant: 'success',
    ...action,
  };
}
