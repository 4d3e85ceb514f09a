import type { JoinRequest } from '../../../contract/deal-changes';
import { Alert } from '../../components/ui/alert';
import { formatDateTime } from '../../lib/time';

/** What became of the viewer's latest request to join: waiting, or declined (they may ask again). */
export const joinRequestTexts = {
  pending: 'Request sent — waiting for the creator',
  declined: 'Your request to join was declined.',
  declinedDetail: 'You may ask again.',
} as const;

/** The viewer's own request to join, while it waits or once declined; nothing otherwise. */
export function JoinRequestStatus({ request }: { request: JoinRequest | undefined }) {
  if (request?.status === 'pending') {
    return (
      <Alert variant="info" detail={`Sent ${formatDateTime(request.createdAt)}`}>
        {joinRequestTexts.pending}
      </Alert>
    );
  }
  if (request?.status === 'declined') {
    return (
      <Alert variant="info" detail={joinRequestTexts.declinedDetail}>
        {joinRequestTexts.declined}
      </Alert>
    );
  }
  return null;
}
