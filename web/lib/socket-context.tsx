import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useRef } from 'react';
import type { ServerEventListeners } from '../../contract/realtime';
import type { RealtimeSocket } from './socket';

/*
 * The session's socket as React context. Who opens it (the realtime feature, on sign-in) and who uses
 * it (the chat's room and typing indicators) meet here, so neither has to know the other.
 */

const RealtimeSocketContext = createContext<RealtimeSocket | null>(null);

export function RealtimeSocketProvider({
  socket,
  children,
}: {
  socket: RealtimeSocket | null;
  children: ReactNode;
}) {
  return <RealtimeSocketContext.Provider value={socket}>{children}</RealtimeSocketContext.Provider>;
}

/** The session's socket, or null while signed out (or before it is opened). */
export function useRealtimeSocket(): RealtimeSocket | null {
  return useContext(RealtimeSocketContext);
}

/** Calls `handler` for each `event` on the session's socket while the component is mounted. */
export function useSocketEvent<E extends keyof ServerEventListeners>(
  event: E,
  handler: ServerEventListeners[E],
) {
  const socket = useRealtimeSocket();
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    if (!socket) return;
    const listener = ((payload: Parameters<ServerEventListeners[E]>[0]) =>
      (latest.current as (payload: unknown) => void)(payload)) as ServerEventListeners[E];
    socket.on(event, listener as never);
    return () => {
      socket.off(event, listener as never);
    };
  }, [socket, event]);
}

/**
 * Subscribes the session's socket to the deals feed while the component is mounted (and `active`) and the tab visible
 * (again after a reconnection): a list of deals on screen stays live, and a tab showing none hears of no
 * other people's deals (docs/decisions/0030-deal-feeds.md). Back in view after being hidden, what is on
 * screen is reloaded: the changes made meanwhile were not heard.
 */
export function useDealsFeed(active = true) {
  const socket = useRealtimeSocket();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!socket || !active) return;
    let subscribed = false;
    let missedSome = false;
    const follow = () => {
      const visible = document.visibilityState === 'visible';
      if (!visible) missedSome = true;
      const wanted = socket.connected && visible;
      if (wanted === subscribed) return;
      subscribed = wanted;
      if (!wanted) {
        if (socket.connected) socket.emit('deals-feed:unsubscribe');
        return;
      }
      socket.emit('deals-feed:subscribe');
      if (missedSome) {
        missedSome = false;
        void queryClient.invalidateQueries({ type: 'active' }, { cancelRefetch: false });
      }
    };
    // The server forgets a socket's subscriptions when it disconnects.
    const forget = () => {
      subscribed = false;
    };
    follow();
    socket.on('connect', follow);
    socket.on('disconnect', forget);
    document.addEventListener('visibilitychange', follow);
    return () => {
      socket.off('connect', follow);
      socket.off('disconnect', forget);
      document.removeEventListener('visibilitychange', follow);
      if (subscribed) socket.volatile.emit('deals-feed:unsubscribe');
    };
  }, [socket, queryClient, active]);
}

/** Watches a deal while its page is open (again after a reconnection): its deal-updated comes at once. */
export function useWatchedDeal(dealId: number) {
  const socket = useRealtimeSocket();
  useEffect(() => {
    if (!socket || !Number.isInteger(dealId)) return;
    const watch = () => socket.emit('watch-deal', dealId);
    if (socket.connected) watch();
    socket.on('connect', watch);
    return () => {
      socket.off('connect', watch);
      socket.volatile.emit('unwatch-deal', dealId);
    };
  }, [socket, dealId]);
}
