import type { Deal } from '../../../contract/deals';
import type { Confirmation } from '../../components/ui/confirm-dialog';
import { formatMoney } from '../../lib/money';

/** What the deal's irreversible buttons ask before they act. */

type Action = Pick<Confirmation, 'onConfirm'>;

export const deleteDealConfirmation = (deal: Pick<Deal, 'title'>, action: Action): Confirmation => ({
  title: 'Delete this deal?',
  message: `Delete '${deal.title}' with its bids, dealmaker requests and messages. This cannot be undone.`,
  confirmLabel: 'Delete Deal',
  busyLabel: 'Deleting...',
  variant: 'danger',
  ...action,
});

export const leaveDealConfirmation = (deal: Pick<Deal, 'title'>, action: Action): Confirmation => ({
  title: 'Leave this deal?',
  message: `Leave '${deal.title}'. Your bid selection and your finished mark are cleared, and another dealer may join in your place.`,
  confirmLabel: 'Leave Deal',
  busyLabel: 'Leaving...',
  variant: 'danger',
  ...action,
});

export const deleteBidConfirmation = (
  deal: Pick<Deal, 'title'>,
  price: number,
  action: Action,
): Confirmation => ({
  title: 'Delete your bid?',
  message: `Delete your bid of ${formatMoney(price)} on '${deal.title}'. The dealers will no longer see it.`,
  confirmLabel: 'Delete Bid',
  busyLabel: 'Deleting...',
  variant: 'danger',
  ...action,
});
