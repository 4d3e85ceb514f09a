import type { DealmakerRequest, IncomingRequest } from '../../../contract/deals';
import type { Confirmation } from '../../components/ui/confirm-dialog';
import { formatMoney } from '../../lib/money';

/** What a dealmaker request's irreversible buttons ask before they act. */

type Action = Pick<Confirmation, 'onConfirm'>;

export const cancelRequestConfirmation = (request: DealmakerRequest, action: Action): Confirmation => ({
  title: 'Cancel this request?',
  message: `Cancel your request asking @${request.receiverUsername} to be the dealmaker of this deal. They will no longer see it.`,
  confirmLabel: 'Cancel Request',
  cancelLabel: 'Keep it',
  busyLabel: 'Canceling...',
  variant: 'danger',
  ...action,
});

export const acceptRequestConfirmation = (request: IncomingRequest, action: Action): Confirmation => ({
  title: 'Become the dealmaker?',
  message: `Accept @${request.senderUsername}'s request: you become the dealmaker of '${request.deal.title}' for its budget of ${formatMoney(request.deal.budget)}. Its other bids and requests are removed.`,
  confirmLabel: 'Accept',
  busyLabel: 'Accepting...',
  variant: 'success',
  ...action,
});

export const rejectRequestConfirmation = (request: IncomingRequest, action: Action): Confirmation => ({
  title: 'Reject this request?',
  message: `Reject @${request.senderUsername}'s request to be the dealmaker of '${request.deal.title}'. This cannot be undone.`,
  confirmLabel: 'Reject',
  busyLabel: 'Rejecting...',
  variant: 'danger',
  ...action,
});
