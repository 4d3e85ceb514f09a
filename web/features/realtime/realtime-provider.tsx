import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from 'react';
import type { ServerEventListeners } from '../../../contract/realtime';
import { createSocket, type RealtimeSocket } from '../../lib/socket';
import { useAuth } from '../auth/auth-context';
import { attachLiveUpdates, createLiveUpdates, type LiveViewer } from './live-updates';

const RealtimeContext = createContext<RealtimeSocket | null>(null);

export type RealtimeProviderProps = {
  children: ReactNode;
  /** Opens the socket of a session; null: no realtime connection at all (e.g. in unit tests). */
  connect?: ((token: string) => RealtimeSocket) | null;
};

/**
 * One Socket.IO connection per signed-in session (spec §4 Realtime connection): opened on sign-in,
 * closed on sign-out or when the token changes. Its events patch the query cache (live-updates.ts).
 * After a reconnection every open screen reloads, since events sent while offline are lost.
 * Connection problems are only logged: the app works on without live updates.
 */
export function RealtimeProvider({ children, connect = createSocket }: RealtimeProviderProps) {
  const { token, user } = useAuth();
  const queryClient = useQueryClient();
  const [socket, setSocket] = useState<RealtimeSocket | null>(null);

  const viewer = useRef<LiveViewer>(null);
  viewer.current = user ? { id: user.id, username: user.username } : null;

  useEffect(() => {
    if (!token || !connect) return;
    const next = connect(token);
    const detach = attachLiveUpdates(
      next,
      createLiveUpdates(queryClient, () => viewer.current),
    );

    let connectedBefore = false;
    const onConnect = () => {
      // Whatever happened while disconnected was not heard: reload what is on screen.
      if (connectedBefore) void queryClient.invalidateQueries();
      connectedBefore = true;
    };
    const onConnectError = (error: Error) => console.error('Realtime connection failed:', error.message);
    const onReconnectFailed = () => console.error('Realtime connection lost: gave up reconnecting.');
    next.on('connect', onConnect);
    next.on('connect_error', onConnectError);
    next.io.on('reconnect_failed', onReconnectFailed);

    // After the reconnection attempts ran out, try again when the network or the user comes back.
    const retry = () => {
      if (!next.connected && document.visibilityState === 'visible') next.connect();
    };
    window.addEventListener('online', retry);
    document.addEventListener('visibilitychange', retry);

    next.connect();
    setSocket(next);
    return () => {
      window.removeEventListener('online', retry);
      document.removeEventListener('visibilitychange', retry);
      next.off('connect', onConnect);
      next.off('connect_error', onConnectError);
      next.io.off('reconnect_failed', onReconnectFailed);
      detach();
      next.disconnect();
      setSocket((current) => (current === next ? null : current));
    };
  }, [token, queryClient, connect]);

  return <RealtimeContext.Provider value={socket}>{children}</RealtimeContext.Provider>;
}

/** The session's socket, or null while signed out (or before it is opened). */
export function useRealtimeSocket(): RealtimeSocket | null {
  return useContext(RealtimeContext);
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
