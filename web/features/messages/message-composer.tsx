import { type KeyboardEvent, useId } from 'react';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { type MessageDraft, maxMessageLength } from './use-send-message';

/** The message input with its counter and Send; Enter sends, Shift+Enter starts a new line. */
export function MessageComposer({ draft }: { draft: MessageDraft }) {
  const inputId = useId();
  const counterId = useId();
  const blank = draft.draft.trim().length === 0;

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Not while an input method is composing.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void draft.send();
    }
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void draft.send();
      }}
      className="space-y-2 px-4 pt-1 pb-4 sm:px-6"
    >
      {draft.failure && (
        <Alert variant="error" detail={draft.failure.detail}>
          Failed to send message
        </Alert>
      )}
      <div className="flex items-end gap-3">
        <div className="min-w-0 flex-1">
          <label htmlFor={inputId} className="sr-only">
            Message
          </label>
          <textarea
            ref={draft.inputRef}
            id={inputId}
            rows={2}
            value={draft.draft}
            maxLength={maxMessageLength}
            disabled={draft.sending}
            placeholder="Type your message..."
            aria-describedby={counterId}
            onChange={(event) => draft.change(event.target.value)}
            onKeyDown={onKeyDown}
            onBlur={draft.stopTyping}
            className="block w-full resize-none rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm leading-relaxed text-slate-900 shadow-xs placeholder:text-slate-400 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-500"
          />
        </div>
        <Button type="submit" disabled={blank} loading={draft.sending} className="mb-0.5">
          Send
        </Button>
      </div>
      <p
        id={counterId}
        className={cn(
          'text-right text-xs tabular-nums',
          draft.draft.length >= maxMessageLength ? 'font-medium text-rose-600' : 'text-slate-500',
        )}
      >
        {draft.draft.length}/{maxMessageLength}
      </p>
    </form>
  );
}
