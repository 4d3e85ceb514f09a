import { Fragment, type RefObject } from 'react';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { ChatIcon } from '../../components/ui/icons';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import { useNow } from '../../lib/use-now';
import { isTimelineEntry, TimelineEntryItem } from '../timeline';
import { MessageItem, NewMessagesDivider } from './message-item';
import type { ChatLine } from './message-list';
import type { useDealMessages } from './messages-api';

type ChatHistoryProps = {
  history: ReturnType<typeof useDealMessages>;
  messages: ChatLine[];
  viewerId: number | undefined;
  /** The first message unread when the chat opened: "New messages" goes before it. */
  firstUnreadId?: number | null;
  /** "Seen by": the viewer's message the others have read, and who. */
  seen?: { messageId: number; names: string[] } | null;
  fullscreen: boolean;
  listRef: RefObject<HTMLDivElement | null>;
  onScroll: () => void;
};

/** The chat's scrolling log: loading, error, empty, or the messages with older ones loading at the top. */
export function ChatHistory({
  history,
  messages,
  viewerId,
  firstUnreadId,
  seen,
  fullscreen,
  listRef,
  onScroll,
}: ChatHistoryProps) {
  const now = useNow(30_000);
  const { fetchNextPage } = history;
  // Timeline entries alone are no conversation: the empty state shows under them.
  const hasMessages = messages.some((line) => !isTimelineEntry(line));
  return (
    <div
      ref={listRef}
      onScroll={onScroll}
      // A live region keyboard users can reach and scroll: new messages are announced politely.
      role="log"
      aria-live="polite"
      aria-label="Chat history"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling log must be reachable to scroll it by keyboard
      tabIndex={0}
      className={cn(
        'overflow-y-auto bg-slate-50/60 px-4 py-4 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-500 sm:px-6',
        fullscreen ? 'min-h-0 flex-1' : 'h-96',
      )}
    >
      {history.isPending ? (
        <div className="flex h-full flex-col items-center justify-center gap-3 text-slate-500">
          <Spinner size="lg" decorative className="text-indigo-500" />
          <p role="status" className="text-sm font-medium">
            Loading messages...
          </p>
        </div>
      ) : history.isError ? (
        <div className="flex h-full flex-col items-center justify-center gap-3">
          <Alert variant="error">Failed to load messages</Alert>
          <Button variant="outline" size="sm" onClick={() => history.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <>
          {history.isFetchingNextPage && (
            <div className="flex justify-center pb-3 text-indigo-500">
              <Spinner size="sm" label="Loading older messages" />
            </div>
          )}
          {history.isFetchNextPageError && (
            <div className="flex items-center justify-center gap-2 pb-3 text-sm text-rose-700">
              <span>Failed to load messages</span>
              <Button variant="link" size="sm" onClick={() => void fetchNextPage()}>
                Try again
              </Button>
            </div>
          )}
          {messages.length > 0 && (
            <ol className="space-y-3">
              {messages.map((line) =>
                isTimelineEntry(line) ? (
                  <TimelineEntryItem key={`e-${line.id}`} entry={line} now={now} />
                ) : (
                  <Fragment key={line.isTemporary ? line.id : `m-${line.id}`}>
                    {line.id === firstUnreadId && <NewMessagesDivider />}
                    <MessageItem
                      message={line}
                      own={line.senderId === viewerId}
                      now={now}
                      seenBy={seen?.messageId === line.id ? seen.names : undefined}
                    />
                  </Fragment>
                ),
              )}
            </ol>
          )}
          {!hasMessages && (
            <EmptyState
              icon={<ChatIcon size={28} />}
              title="No messages yet"
              description="Start the conversation and discuss your deal!"
              className={messages.length === 0 ? 'h-full py-6' : 'py-6'}
            />
          )}
        </>
      )}
    </div>
  );
}
