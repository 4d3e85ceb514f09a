import { UnreadBadge } from '../../components/ui/unread-badge';
import { useUnreadMessages } from './messages-api';

/** How many messages of the deal the viewer has not read ("3 unread"); nothing when none. */
export function UnreadMessagesBadge({ dealId }: { dealId: number }) {
  const unread = useUnreadMessages();
  return <UnreadBadge count={unread.data?.get(dealId)} />;
}
