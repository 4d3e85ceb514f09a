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

/** The creator removes the counterpart: what goes with them, and who may come instead. */
export const removeCounterpartConfirmation = (
  deal: Pick<Deal, 'title' | 'dealer_joined' | 'joinPolicy'>,
  action: Action,
): Confirmation => ({
  title: 'Remove the counterpart?',
  message: `Remove ${deal.dealer_joined ? `@${deal.dealer_joined}` : 'the counterpart'} from '${deal.title}'. Their bid selection goes with them, and another dealer may ${deal.joinPolicy === 'approval' ? 'ask to join' : 'join'} in their place.`,
  confirmLabel: 'Remove Counterpart',
  busyLabel: 'Removing...',
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
