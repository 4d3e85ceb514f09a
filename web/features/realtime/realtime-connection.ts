import type { QueryClient } from '@tanstack/react-query';
import { createSocket, type RealtimeSocket } from '../../lib/socket';
import { catchUpAllHistories, isDealHistoryKey } from '../messages';
import { attachLiveUpdates, createLiveUpdates, type LiveViewer } from './live-updates';

/**
 * One session's connection: the socket opened, its events patching the query cache, reconnection
 * handling. Loaded only once someone signs in (with Socket.IO and every feature whose cache the events
 * patch), so the landing page does not download it. Returns what closes it again.
 */
export function openRealtime(options: {
  token: string;
  connect: ((token: string) => RealtimeSocket) | undefined;
  queryClient: QueryClient;
  viewer: () => LiveViewer;
  onSocket: (socket: RealtimeSocket | null) => void;
  /** The server ended this session (elsewhere, or by signing out): `message` says why, null after signing out. */
  onSessionEnded: (message: string | null) => void;
}): () => void {
  const { queryClient } = options;
  const next = (options.connect ?? createSocket)(options.token);
  const detach = attachLiveUpdates(next, createLiveUpdates(queryClient, options.viewer));

  let connectedBefore = false;
  const onConnect = () => {
    // Whatever happened while disconnected was not heard: reload what is on screen.
    if (connectedBefore) {
      void queryClient.invalidateQueries({ predicate: (query) => !isDealHistoryKey(query.queryKey) });
    }
    // The chats are not reloaded but caught up (the messages after the last one held), keeping what is
    // scrolled into view; on the first connection too, since a chat may have loaded before the socket
    // connected, and a message sent in between was never heard.
    void catchUpAllHistories(queryClient);
    connectedBefore = true;
  };
  const onConnectError = (error: Error) => console.error('Realtime connection failed:', error.message);
  const onReconnectFailed = () => console.error('Realtime connection lost: gave up reconnecting.');
  const onSessionEnded = ({ message }: { message: string | null }) => options.onSessionEnded(message);
  next.on('connect', onConnect);
  next.on('connect_error', onConnectError);
  next.on('session-ended', onSessionEnded);
  next.io.on('reconnect_failed', onReconnectFailed);

  // After the reconnection attempts ran out, try again when the network or the user comes back.
  const retry = () => {
    if (!next.connected && document.visibilityState === 'visible') next.connect();
  };
  window.addEventListener('online', retry);
  document.addEventListener('visibilitychange', retry);

  next.connect();
  options.onSocket(next);
  return () => {
    window.removeEventListener('online', retry);
    document.removeEventListener('visibilitychange', retry);
    next.off('connect', onConnect);
    next.off('connect_error', onConnectError);
    next.off('session-ended', onSessionEnded);
    next.io.off('reconnect_failed', onReconnectFailed);
    detach();
    next.disconnect();
    options.onSocket(null);
  };
}
