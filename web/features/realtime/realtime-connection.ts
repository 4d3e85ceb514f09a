import type { Query, QueryClient } from '@tanstack/react-query';
import type { Socket } from 'socket.io-client';
import { api } from '../../lib/api';
import { createSocket, type RealtimeSocket, reconnectionDelayMs } from '../../lib/socket';
import { catchUpAllHistories, isDealHistoryKey } from '../messages';
import { attachLiveUpdates, createLiveUpdates, type LiveViewer } from './live-updates';

/** How long the connection may be down before the tab says it is reconnecting. */
export const offlineNoticeDelayMs = 3000;
/** Coming back to the tab fires focus and visibilitychange together: one attempt for both. */
const reconnectNowIntervalMs = 1000;

/**
 * Marks everything cached but the chats as stale, and reloads what is on screen one query per task: started
 * all at once, a screen's requests would hold a phone's main thread for a long moment. A load still under
 * way is not restarted.
 */
function reloadShownData(queryClient: QueryClient) {
  const shown = (query: Query) => !isDealHistoryKey(query.queryKey);
  void queryClient.invalidateQueries({ predicate: shown, refetchType: 'none' });
  for (const query of queryClient.getQueryCache().findAll({ predicate: shown, type: 'active' })) {
    setTimeout(() => {
      void queryClient.refetchQueries({ predicate: (each) => each === query }, { cancelRefetch: false });
    }, 0);
  }
}

/**
 * One session's connection: the socket opened, its events patching the query cache, reconnection
 * handling. Loaded only once someone signs in (with Socket.IO and every feature whose cache the events
 * patch), so the landing page does not download it. Returns what closes it again.
 *
 * The connection comes back for as long as the tab is open: Socket.IO retries by itself after a lost
 * connection (lib/socket.ts: back-off with jitter, never giving up); the two cases it leaves alone are
 * handled here with the same back-off: the server let the socket go (`io server disconnect`: a shutdown
 * may say so, a token that expired, a socket that sent too fast) and the server refused the handshake. A socket whose session ended
 * (`session-ended`) is never reconnected: the tab signs out. Coming back to the tab, or the network
 * coming back, tries again at once.
 */
export function openRealtime(options: {
  token: string;
  connect: ((token: string) => RealtimeSocket) | undefined;
  queryClient: QueryClient;
  viewer: () => LiveViewer;
  onSocket: (socket: RealtimeSocket | null) => void;
  /** The server ended this session (elsewhere, or by signing out): `message` says why, null after signing out. */
  onSessionEnded: (message: string | null) => void;
  /** Whether the connection has been down for a while (offlineNoticeDelayMs): the tab shows it. */
  onOffline?: (offline: boolean) => void;
}): () => void {
  const { queryClient } = options;
  const next = (options.connect ?? createSocket)(options.token);
  const detach = attachLiveUpdates(next, createLiveUpdates(queryClient, options.viewer));
  /** The session ended or the connection was closed: nothing reconnects any more. */
  let finished = false;
  /** Reconnections the app made since the last connection (for the back-off). */
  let attempts = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let offlineTimer: ReturnType<typeof setTimeout> | undefined;
  let offline = false;
  /** The connection was lost (or an attempt failed) and has not come back yet. */
  let down = false;
  /** When reconnectNow last started an attempt: focus and visibility often come together. */
  let lastAttemptNowAt = Number.NEGATIVE_INFINITY;

  const setOffline = (value: boolean) => {
    if (offline === value) return;
    offline = value;
    options.onOffline?.(value);
  };
  /** The notice shows once the connection has been down for offlineNoticeDelayMs. */
  const noticeOfflineSoon = () => {
    if (offlineTimer || finished) return;
    offlineTimer = setTimeout(() => {
      offlineTimer = undefined;
      if (!next.connected && !finished) setOffline(true);
    }, offlineNoticeDelayMs);
  };
  const stopTimers = () => {
    clearTimeout(retryTimer);
    clearTimeout(offlineTimer);
    retryTimer = undefined;
    offlineTimer = undefined;
  };

  /** Connects again after the next back-off delay (for what Socket.IO does not retry by itself). */
  const reconnectLater = () => {
    if (finished || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      if (!finished && !next.connected) next.connect();
    }, reconnectionDelayMs(attempts++));
  };
  /**
   * Connects again now, cutting short any back-off under way (the user came back, or the network did).
   * Closing first drops Socket.IO's waiting attempt, whose delay may have grown to 30 s.
   */
  const reconnectNow = () => {
    if (finished || next.connected || !down) return;
    if (Date.now() - lastAttemptNowAt < reconnectNowIntervalMs) return;
    lastAttemptNowAt = Date.now();
    clearTimeout(retryTimer);
    retryTimer = undefined;
    next.disconnect();
    next.connect();
  };

  const onConnect = () => {
    down = false;
    attempts = 0;
    stopTimers();
    setOffline(false);
    // Whatever happened while disconnected was not heard, nor, at the first connection, what happened
    // since the page loaded its data (the connection opens only once the page is shown): reload what is on
    // screen (deals, bids, escrow, notifications and their count, unread messages, read marks...).
    reloadShownData(queryClient);
    // The chats are not reloaded but caught up (the messages after the last one held), keeping what is
    // scrolled into view; at the first connection too, for a chat loaded before it. Each message is added
    // once.
    void catchUpAllHistories(queryClient);
  };
  const onDisconnect = (reason: Socket.DisconnectReason) => {
    down = true;
    noticeOfflineSoon();
    // The server let this socket go (shutting down, the socket sent too fast, or its token no longer holds:
    // the next handshake says so): Socket.IO does not come back by itself after that. After any other
    // reason (a closed connection, a missed ping) it retries by itself.
    if (reason === 'io server disconnect') reconnectLater();
  };
  const onConnectError = (error: Error) => {
    down = true;
    noticeOfflineSoon();
    // Unreachable: Socket.IO retries by itself.
    if (next.active) return;
    // Refused at the handshake: Socket.IO does not retry. A token that no longer holds signs out (the API
    // client hears 401 for it); otherwise try again later.
    console.warn('Realtime connection refused:', error.message);
    void api.get('/auth/me').catch(() => undefined);
    reconnectLater();
  };
  const onSessionEnded = ({ message }: { message: string | null }) => {
    finished = true;
    stopTimers();
    setOffline(false);
    options.onSessionEnded(message);
  };
  next.on('connect', onConnect);
  next.on('disconnect', onDisconnect);
  next.on('connect_error', onConnectError);
  next.on('session-ended', onSessionEnded);
  const onVisible = () => {
    if (document.visibilityState === 'visible') reconnectNow();
  };
  window.addEventListener('online', reconnectNow);
  window.addEventListener('focus', onVisible);
  document.addEventListener('visibilitychange', onVisible);

  next.connect();
  noticeOfflineSoon();
  options.onSocket(next);
  return () => {
    finished = true;
    stopTimers();
    setOffline(false);
    window.removeEventListener('online', reconnectNow);
    window.removeEventListener('focus', onVisible);
    document.removeEventListener('visibilitychange', onVisible);
    next.off('connect', onConnect);
    next.off('disconnect', onDisconnect);
    next.off('connect_error', onConnectError);
    next.off('session-ended', onSessionEnded);
    detach();
    next.disconnect();
    options.onSocket(null);
  };
}
