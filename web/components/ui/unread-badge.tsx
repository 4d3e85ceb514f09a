import { Badge } from './badge';

/** "3 unread": the visible text of an unread-messages badge. */
export const unreadBadgeText = (count: number) => `${count} unread`;
/** What a screen reader hears: "3 unread messages", "1 unread message". */
export const unreadBadgeLabel = (count: number) => `${count} unread message${count === 1 ? '' : 's'}`;

/** A small badge with how many messages are unread; nothing when none are. */
export function UnreadBadge({ count }: { count: number | undefined }) {
  if (!count || count <= 0) return null;
  return (
    <Badge tone="red" className="shrink-0">
      <span data-unread-badge aria-hidden="true">
        {unreadBadgeText(count)}
      </span>
      <span className="sr-only">{unreadBadgeLabel(count)}</span>
    </Badge>
  );
}
