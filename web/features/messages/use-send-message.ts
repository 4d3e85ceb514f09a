import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { limits } from '../../../contract/limits';
import { sendMessageSchema } from '../../../contract/messages';
import { serverReason } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import { useRealtimeSocket } from '../../lib/socket-context';
import { useAuth } from '../auth';
import { createTemporaryMessage, newClientId, type TemporaryMessage, withoutTemporary } from './message-list';
import { putMessageInCache, sendMessage } from './messages-api';
import { TypingNotifier } from './typing';

export const maxMessageLength = limits.message.max;

/**
 * The message being written and sent (spec §4 Messages): the draft, typing-start/stop for the others,
 * the user's messages shown at once while on their way, and the draft given back when sending fails.
 */
export function useSendMessage(dealId: number) {
  const { user } = useAuth();
  const socket = useRealtimeSocket();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<TemporaryMessage[]>([]);
  const [draft, setDraft] = useState('');
  const [sending, setSending] = useState(false);
  const sendingNow = useRef(false);
  const [failure, setFailure] = useState<{ detail: string | undefined } | null>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);

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

  const change = (value: string) => {
    setDraft(value);
    setFailure(null);
    if (value.trim()) typing.input();
    else typing.stop();
  };

  const send = async () => {
    if (sendingNow.current || !user) return;
    const clientId = newClientId();
    // Blank or too long, the message is not sent (the Send button is off for those already).
    const checked = checkWith(sendMessageSchema, { dealId, content: draft, clientId });
    if (!checked.ok) return;
    const { content } = checked.value;
    sendingNow.current = true;
    const temporary = createTemporaryMessage({
      dealId,
      content,
      clientId,
      sender: { id: user.id, username: user.username, full_name: user.full_name ?? '' },
    });
    typing.stop();
    setFailure(null);
    setPending((current) => [...current, temporary]);
    setDraft('');
    setSending(true);
    try {
      const message = await sendMessage({ dealId, content, clientId });
      putMessageInCache(queryClient, message);
    } catch (error) {
      console.error('Sending the message failed', error);
      setDraft(draft);
      setFailure({ detail: serverReason(error) });
    } finally {
      setPending((current) => withoutTemporary(current, clientId));
      sendingNow.current = false;
      setSending(false);
    }
  };

  return { pending, draft, sending, failure, inputRef, change, send, stopTyping: () => typing.stop() };
}

export type MessageDraft = ReturnType<typeof useSendMessage>;
