import { useMemo } from 'react';
import { cn } from '../../lib/cn';
import { useAuth } from '../auth';
import { ChatHistory } from './chat-history';
import { useChatInView } from './chat-in-view';
import { MessageComposer } from './message-composer';
import { confirmedMessages, mergeMessages } from './message-list';
import { useDealMessages } from './messages-api';
import { typingText } from './typing';
import { useChatScroll } from './use-chat-scroll';
import { useDealRoom } from './use-deal-room';
import { useReadMarks } from './use-read-marks';
import { useSendMessage } from './use-send-message';

/**
 * One deal's chat: its history and timeline entries with the user's messages on their way, how far
 * people have read, who else is typing, and the input. Hooks in this order: when the chat closes, leave-deal-room goes out before a pending typing-stop.
 */
export function DealChat({ dealId, fullscreen }: { dealId: number; fullscreen: boolean }) {
  const viewerId = useAuth().user?.id;
  const history = useDealMessages(dealId);
  const typingUsers = useDealRoom(dealId, viewerId);
  const draft = useSendMessage(dealId);
  const messages = useMemo(
    () => mergeMessages(confirmedMessages(history.data), draft.pending),
    [history.data, draft.pending],
  );
  const { firstUnreadId, seen } = useReadMarks(dealId, messages, history.isSuccess, viewerId);
  const { listRef, onScroll } = useChatScroll(messages, history, {
    fullscreen,
    viewerId,
    firstUnreadId,
    tail: seen ? `${seen.messageId}:${seen.names.join()}` : '',
  });
  // While the history is on screen, a message in this chat raises no toast.
  useChatInView(dealId, listRef);

  return (
    <div className={cn('flex min-h-0 flex-col', fullscreen && 'flex-1')}>
      <ChatHistory
        history={history}
        messages={messages}
        viewerId={viewerId}
        firstUnreadId={firstUnreadId}
        seen={seen}
        fullscreen={fullscreen}
        listRef={listRef}
        onScroll={onScroll}
      />
      <div aria-live="polite" className="min-h-6 px-6 pt-2 text-xs text-slate-500 italic">
        {typingUsers.map((typingUser) => (
          <p key={typingUser.id}>{typingText(typingUser)}</p>
        ))}
      </div>
      <MessageComposer draft={draft} />
    </div>
  );
}
