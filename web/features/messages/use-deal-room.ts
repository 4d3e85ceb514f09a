import { useEffect, useState } from 'react';
import type { TypingUser } from '../../../contract/messages';
import { useRealtimeSocket, useSocketEvent } from '../../lib/socket-context';
import { isIncomingMessage } from './message-list';
import { applyTypingEvent, withoutTypingUser } from './typing';

/**
 * Joins the deal's room while the chat is open (again after a reconnection): the room carries the
 * typing indicators. Returns the other users typing in the deal now.
 */
export function useDealRoom(dealId: number, viewerId: number | undefined): TypingUser[] {
  const socket = useRealtimeSocket();
  const [typingUsers, setTypingUsers] = useState<TypingUser[]>([]);

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

  return typingUsers;
}
