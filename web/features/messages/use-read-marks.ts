import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { notificationKeys } from '../notifications';
import type { ChatLine } from './message-list';
import { markMessagesRead, messageKeys, useMessageReads } from './messages-api';
import { firstUnreadId, markReadTarget, ownReadMark, seenBy } from './read-marks';

/**
 * The open chat's read marks: where "New messages" goes (fixed when the chat opens, so it does not
 * move while the viewer reads), "Seen by" under the viewer's last message the others read, and the
 * viewer's own mark moved to the newest message whenever the chat shows one they had not read and the
 * page is visible.
 */
export function useReadMarks(dealId: number, lines: ChatLine[], loaded: boolean, viewerId?: number) {
  const queryClient = useQueryClient();
  const reads = useMessageReads(dealId);
  const ownMark = reads.data ? ownReadMark(reads.data, viewerId) : undefined;

  // undefined until the history and the reads are in; then the divider's place, or null for none.
  const [divider, setDivider] = useState<number | null | undefined>(undefined);
  useEffect(() => {
    if (divider !== undefined || !loaded || ownMark === undefined) return;
    setDivider(firstUnreadId(lines, ownMark, viewerId) ?? null);
  }, [divider, loaded, ownMark, lines, viewerId]);

  const seen = useMemo(
    () => (reads.data ? seenBy(lines, reads.data, viewerId) : null),
    [lines, reads.data, viewerId],
  );

  // The highest id this chat has asked to mark: each newer message is marked once.
  const marked = useRef(0);
  const target =
    ownMark === undefined ? undefined : markReadTarget(lines, Math.max(ownMark, marked.current), viewerId);
  useEffect(() => {
    if (target === undefined) return;
    const mark = () => {
      if (document.visibilityState !== 'visible' || target <= marked.current) return;
      marked.current = target;
      markMessagesRead(dealId, target)
        .then(() => {
          void queryClient.invalidateQueries({ queryKey: messageKeys.unread(), exact: true });
          // Reading the chat also reads its message notifications.
          void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
        })
        .catch((error) => {
          console.warn('Marking the chat read failed:', error);
          marked.current = Math.min(marked.current, target - 1);
        });
    };
    mark();
    document.addEventListener('visibilitychange', mark);
    return () => document.removeEventListener('visibilitychange', mark);
  }, [dealId, target, queryClient]);

  return { firstUnreadId: divider, seen };
}
