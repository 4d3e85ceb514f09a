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
