import { useQueryClient } from '@tanstack/react-query';
import {
  type FormEvent,
  type KeyboardEvent,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { limits } from '../../../contract/limits';
import type { TypingUser } from '../../../contract/messages';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { ChatIcon } from '../../components/ui/icons';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api';
import { cn } from '../../lib/cn';
import { formatDateTime, formatRelativeTime } from '../../lib/time';
import { useAuth } from '../auth/auth-context';
import type { DealSectionProps } from '../deals/deal-detail/deal-section';
import { useRealtimeSocket, useSocketEvent } from '../realtime/realtime-provider';
import {
  type ChatMessage,
  confirmedMessages,
  createTemporaryMessage,
  isIncomingMessage,
  mergeMessages,
  newClientId,
  type TemporaryMessage,
  withoutTemporary,
} from './message-list';
import { putMessageInCache, sendMessage, useDealMessages } from './messages-api';
import { applyTypingEvent, TypingNotifier, typingText, withoutTypingUser } from './typing';

const maxLength = limits.message.max;
/** How close to an edge (px) counts as being at it. */
const edgePx = 80;

/** The chat of the deal detail view, for the deal's participants only. */
export function DealMessagesSection({ deal, viewer }: DealSectionProps) {
  if (viewer.role === null) return null;
  return <DealMessagesPanel dealId={deal.id} />;
}

/**
 * 'Deal Messages' (spec §2, §4 Messages): the deal's history, live messages and typing indicators of
 * the others, and a form to send. It can fill the screen; Escape brings it back.
 */
export function DealMessagesPanel({ dealId }: { dealId: number | null | undefined }) {
  const [fullscreen, setFullscreen] = useState(false);

  useEffect(() => {
    if (!fullscreen) return;
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') setFullscreen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    // The page behind does not scroll while the chat covers it.
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.body.style.overflow = overflow;
    };
  }, [fullscreen]);

  return (
    <Card
      className={cn(
        'flex flex-col overflow-hidden',
        fullscreen && 'fixed inset-0 z-50 rounded-none border-0',
      )}
    >
      <section aria-label="Deal Messages" className="flex min-h-0 flex-1 flex-col">
        <div className="flex items-center justify-between gap-3 border-b border-slate-100 px-6 py-4">
          <h2 className="text-lg font-semibold text-slate-900">Deal Messages</h2>
          {dealId != null && (
            <Button
              variant="ghost"
              size="sm"
              aria-pressed={fullscreen}
              onClick={() => setFullscreen((on) => !on)}
              title={fullscreen ? 'Exit fullscreen (Esc)' : 'Fullscreen'}
            >
              {fullscreen ? <CollapseIcon /> : <ExpandIcon />}
              {fullscreen ? 'Exit fullscreen' : 'Fullscreen'}
            </Button>
          )}
        </div>
        {dealId == null ? (
          <EmptyState
            icon={<ChatIcon size={28} />}
            title="No deal selected for messaging."
            className="py-10"
          />
        ) : (
          <DealChat key={dealId} dealId={dealId} fullscreen={fullscreen} />
        )}
      </section>
    </Card>
  );
}

function DealChat({ dealId, fullscreen }: { dealId: number; fullscreen: boolean }) {
  const { user } = useAuth();
  const viewerId = user?.id;
  const socket = useRealtimeSocket();
  const queryClient = useQueryClient();
  const history = useDealMessages(dealId);
  const [pending, setPending] = useState<TemporaryMessage[]>([]);
  const [typingUsers, setTypingUsers] = useState<TypingUser[]>([]);
  const now = useNow(30_000);

  // The deal room carries the typing indicators: joined while the chat is open, again after a reconnection.
  useEffect(() => {
    if (!socket) return;
    const join = () =>
      socket.emit('join-deal-room', dealId, (answer) => {
        if (!answer?.ok) console.warn('Could not join the deal room:', answer?.message);
      });
    // Indicators may have stopped while the connection was down.
    const forgetTyping = () => setTypingUsers([]);
    if (socket.connected) join();
    socket.on('connect', join);
    socket.on('disconnect', forgetTyping);
    return () => {
      socket.off('connect', join);
      socket.off('disconnect', forgetTyping);
      socket.volatile.emit('leave-deal-room', dealId);
    };
  }, [socket, dealId]);

  useSocketEvent('typing-updated', (event) =>
    setTypingUsers((current) => applyTypingEvent(current, event, { dealId, viewerId })),
  );
  // A message from someone ends their typing (the cache itself is updated by the live updates).
  useSocketEvent('message-updated', (event) => {
    if (isIncomingMessage(event, { dealId, viewerId })) {
      setTypingUsers((current) => withoutTypingUser(current, event.messageData.senderId));
    }
  });

  const messages = useMemo(
    () => mergeMessages(confirmedMessages(history.data), pending),
    [history.data, pending],
  );

  // --- Scrolling: stay at the newest message, load older ones at the top without jumping. ---
  const listRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const restore = useRef<{ height: number; top: number } | null>(null);
  const lastShown = useRef<ChatMessage['id'] | undefined>(undefined);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = history;

  const onScroll = () => {
    const list = listRef.current;
    if (!list) return;
    atBottom.current = list.scrollHeight - list.scrollTop - list.clientHeight < edgePx;
    if (list.scrollTop < edgePx && hasNextPage && !isFetchingNextPage && !history.isFetchNextPageError) {
      restore.current = { height: list.scrollHeight, top: list.scrollTop };
      void fetchNextPage();
    }
  };

  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    if (restore.current && !isFetchingNextPage) {
      // Older messages went in above: the ones on screen stay where they were.
      list.scrollTop = list.scrollHeight - restore.current.height + restore.current.top;
      restore.current = null;
    }
    const last = messages[messages.length - 1];
    if (last && last.id !== lastShown.current) {
      const first = lastShown.current === undefined;
      lastShown.current = last.id;
      if (first || atBottom.current || last.senderId === viewerId) {
        list.scrollTop = list.scrollHeight;
        atBottom.current = true;
      }
    }
  }, [messages, isFetchingNextPage, viewerId]);

  // A resized panel (fullscreen on or off) keeps showing the newest message.
  const wasFullscreen = useRef(fullscreen);
  useLayoutEffect(() => {
    const list = listRef.current;
    if (wasFullscreen.current === fullscreen) return;
    wasFullscreen.current = fullscreen;
    if (list && atBottom.current) list.scrollTop = list.scrollHeight;
  });

  // --- Sending ---
  const [draft, setDraft] = useState('');
  const [sending, setSending] = useState(false);
  const sendingNow = useRef(false);
  const [sendFailure, setSendFailure] = useState<{ detail: string | undefined } | null>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const inputId = useId();
  const counterId = useId();

  const typing = useMemo(
    () =>
      new TypingNotifier((isTyping) => {
        // Not queued while offline: a late 'start' would be wrong.
        socket?.volatile.emit(isTyping ? 'user-typing-start' : 'user-typing-stop', { dealId });
      }),
    [socket, dealId],
  );
  useEffect(() => () => typing.stop(), [typing]);

  // Back in the input once a send is over (it is disabled meanwhile, which takes the focus away).
  const wasSending = useRef(false);
  useEffect(() => {
    if (wasSending.current && !sending) inputRef.current?.focus();
    wasSending.current = sending;
  }, [sending]);

  const onChange = (value: string) => {
    setDraft(value);
    setSendFailure(null);
    if (value.trim()) typing.input();
    else typing.stop();
  };

  const send = async () => {
    const content = draft.trim();
    if (!content || content.length > maxLength || sendingNow.current || !user) return;
    sendingNow.current = true;
    const clientId = newClientId();
    const temporary = createTemporaryMessage({
      dealId,
      content,
      clientId,
      sender: { id: user.id, username: user.username, full_name: user.full_name ?? '' },
    });
    typing.stop();
    setSendFailure(null);
    setPending((current) => [...current, temporary]);
    setDraft('');
    setSending(true);
    try {
      const message = await sendMessage({ dealId, content, clientId });
      putMessageInCache(queryClient, message);
    } catch (error) {
      console.error('Sending the message failed', error);
      setDraft(draft);
      const detail = errorMessage(error, '');
      setSendFailure({ detail: detail || undefined });
    } finally {
      setPending((current) => withoutTemporary(current, clientId));
      sendingNow.current = false;
      setSending(false);
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void send();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends, Shift+Enter starts a new line; not while an input method is composing.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  const blank = draft.trim().length === 0;

  return (
    <div className={cn('flex min-h-0 flex-col', fullscreen && 'flex-1')}>
      <div
        ref={listRef}
        onScroll={onScroll}
        role="log"
        aria-label="Chat history"
        className={cn(
          'overflow-y-auto bg-slate-50/60 px-4 py-4 sm:px-6',
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
        ) : messages.length === 0 ? (
          <EmptyState
            icon={<ChatIcon size={28} />}
            title="No messages yet"
            description="Start the conversation and discuss your deal!"
            className="h-full py-6"
          />
        ) : (
          <>
            {isFetchingNextPage && (
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
            <ol className="space-y-3">
              {messages.map((message) => (
                <MessageItem
                  key={message.isTemporary ? message.id : `m-${message.id}`}
                  message={message}
                  own={message.senderId === viewerId}
                  now={now}
                />
              ))}
            </ol>
          </>
        )}
      </div>

      <div aria-live="polite" className="min-h-6 px-6 pt-2 text-xs text-slate-500 italic">
        {typingUsers.map((typingUser) => (
          <p key={typingUser.id}>{typingText(typingUser)}</p>
        ))}
      </div>

      <form onSubmit={onSubmit} className="space-y-2 px-4 pt-1 pb-4 sm:px-6">
        {sendFailure && (
          <Alert variant="error" detail={sendFailure.detail}>
            Failed to send message
          </Alert>
        )}
        <div className="flex items-end gap-3">
          <div className="min-w-0 flex-1">
            <label htmlFor={inputId} className="sr-only">
              Message
            </label>
            <textarea
              ref={inputRef}
              id={inputId}
              rows={2}
              value={draft}
              maxLength={maxLength}
              disabled={sending}
              placeholder="Type your message..."
              aria-describedby={counterId}
              onChange={(event) => onChange(event.target.value)}
              onKeyDown={onKeyDown}
              onBlur={() => typing.stop()}
              className="block w-full resize-none rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm leading-relaxed text-slate-900 shadow-xs placeholder:text-slate-400 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-500"
            />
          </div>
          <Button type="submit" disabled={blank} loading={sending} className="mb-0.5">
            Send
          </Button>
        </div>
        <p
          id={counterId}
          className={cn(
            'text-right text-xs tabular-nums',
            draft.length >= maxLength ? 'font-medium text-rose-600' : 'text-slate-400',
          )}
        >
          {draft.length}/{maxLength}
        </p>
      </form>
    </div>
  );
}

function MessageItem({ message, own, now }: { message: ChatMessage; own: boolean; now: Date }) {
  const name = message.sender.full_name || message.sender.username || message.senderUsername;
  return (
    <li
      className={cn('flex', own ? 'justify-end' : 'justify-start')}
      data-message-id={message.id}
      data-own={own || undefined}
      data-temporary={message.isTemporary || undefined}
    >
      <div
        className={cn(
          'max-w-[85%] rounded-2xl px-4 py-2.5 shadow-xs sm:max-w-[70%]',
          own
            ? 'rounded-br-md bg-indigo-600 text-white'
            : 'rounded-bl-md border border-slate-200 bg-white text-slate-900',
          message.isTemporary && 'opacity-60',
        )}
      >
        <div
          className={cn(
            'flex flex-wrap items-baseline justify-between gap-x-3 text-xs',
            own ? 'text-indigo-100' : 'text-slate-500',
          )}
        >
          <span className={cn('font-semibold', own ? 'text-white' : 'text-slate-700')}>{name}</span>
          {message.isTemporary ? (
            <span>Sending...</span>
          ) : (
            <time dateTime={message.createdAt} title={formatDateTime(message.createdAt)}>
              {formatRelativeTime(message.createdAt, now)}
            </time>
          )}
        </div>
        <p className="mt-0.5 text-sm leading-relaxed break-words whitespace-pre-wrap">{message.content}</p>
      </div>
    </li>
  );
}

/** The current time, renewed every `intervalMs`, so relative timestamps move on ('Just now' → '1m ago'). */
function useNow(intervalMs: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

const ExpandIcon = () => (
  <svg
    width={16}
    height={16}
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth={1.8}
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
  >
    <path d="M15 3h6v6M9 21H3v-6M21 3l-7 7M3 21l7-7" />
  </svg>
);

const CollapseIcon = () => (
  <svg
    width={16}
    height={16}
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth={1.8}
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
  >
    <path d="M4 14h6v6M20 10h-6V4M14 10l7-7M3 21l7-7" />
  </svg>
);
