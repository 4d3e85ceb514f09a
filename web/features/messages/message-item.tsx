import { cn } from '../../lib/cn';
import { formatDateTime, formatRelativeTime } from '../../lib/time';
import type { ChatMessage } from './message-list';
import { seenByText } from './read-marks';

/**
 * One message: the user's own on the right, a temporary one dimmed with 'Sending...'; under the
 * viewer's last message the others have read, who has seen it.
 */
export function MessageItem({
  message,
  own,
  now,
  seenBy,
}: {
  message: ChatMessage;
  own: boolean;
  now: Date;
  seenBy?: string[];
}) {
  const name = message.sender.full_name || message.sender.username || message.senderUsername;
  return (
    <li
      className={cn('flex flex-col', own ? 'items-end' : 'items-start')}
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
      {seenBy && seenBy.length > 0 && (
        // Not a paragraph: a message's paragraphs are its text.
        <div className="mt-1 text-xs text-slate-600" data-seen-by>
          {seenByText(seenBy)}
        </div>
      )}
    </li>
  );
}

/** The line before the first message the viewer had not read when opening the chat. */
export function NewMessagesDivider() {
  return (
    <li className="flex items-center gap-3 py-1" data-new-messages>
      <span aria-hidden="true" className="h-px flex-1 bg-rose-300" />
      <span className="text-xs font-semibold text-rose-700">New messages</span>
      <span aria-hidden="true" className="h-px flex-1 bg-rose-300" />
    </li>
  );
}
