import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { whenFirstPageIdle } from '../../lib/first-page-shown';
import type { RealtimeSocket } from '../../lib/socket';
import { RealtimeSocketProvider } from '../../lib/socket-context';
import { useAuth } from '../auth';
import type { LiveViewer } from './live-updates';
import { ReconnectingNotice } from './reconnecting-notice';

export type RealtimeProviderProps = {
  children: ReactNode;
  /**
   * Opens the socket of a session; by default a Socket.IO connection to this server. null: no
   * realtime connection at all (e.g. in unit tests).
   */
  connect?: ((token: string) => RealtimeSocket) | null;
};

/**
 * One Socket.IO connection per signed-in session (spec §4 Realtime connection): opened on sign-in,
 * closed on sign-out or when the token changes. Its events patch the query cache (live-updates.ts);
 * screens that need the socket itself (the chat) get it from web/lib/socket-context.
 * It reconnects for as long as the tab is open, and after a reconnection every open screen reloads and
 * the open chats catch up, since events sent while offline are lost. A connection down for a few seconds
 * shows "Reconnecting…"; the app works on meanwhile without live updates. The connection's code loads
 * with the first sign-in (realtime-connection.ts), not with the page, and only once the first page is
 * shown and the browser is idle (lib/first-page-shown.ts): it is heavy (Socket.IO, every feature its
 * events patch) and the page does not need it to show; what changed before it connected is reloaded then.
 */
export function RealtimeProvider({ children, connect }: RealtimeProviderProps) {
  const { token, user, signOut } = useAuth();
  const queryClient = useQueryClient();
  const [socket, setSocket] = useState<RealtimeSocket | null>(null);
  const [offline, setOffline] = useState(false);

  const viewer = useRef<LiveViewer>(null);
  viewer.current = user ? { id: user.id, username: user.username } : null;

  useEffect(() => {
    if (!token || connect === null) return;
    let close: (() => void) | undefined;
    let cancelled = false;
    let connectTimer: ReturnType<typeof setTimeout> | undefined;
    const cancelWait = whenFirstPageIdle(() => {
      import('./realtime-connection')
        .then(({ openRealtime }) => {
          if (cancelled) return;
          // Connecting is a task apart from running the code just loaded: each stays short on a slow phone.
          connectTimer = setTimeout(() => {
            close = openRealtime({
              token,
              connect,
              queryClient,
              viewer: () => viewer.current,
              onSocket: setSocket,
              // Ended from another device: signed out with the reason; by signing out (another tab): silently.
              onSessionEnded: (message) => signOut(message ? 'ended' : 'logout', message),
              onOffline: setOffline,
            });
          }, 0);
        })
        .catch((error) => console.error('Realtime updates could not load:', error));
    });
    return () => {
      cancelled = true;
      cancelWait();
      clearTimeout(connectTimer);
      close?.();
    };
  }, [token, queryClient, connect, signOut]);

  return (
    <RealtimeSocketProvider socket={socket}>
      {children}
      <ReconnectingNotice offline={offline} />
    </RealtimeSocketProvider>
  );
}
