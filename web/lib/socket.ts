import { io, type Socket } from 'socket.io-client';
import type { ClientEvents, RealtimeHandshake, SocketEventListeners } from '../../contract/realtime';

/**
 * The app's Socket.IO connection: server events (and the notices about the socket itself, such as its
 * session ending) in, client events out (contract/realtime.ts).
 */
export type RealtimeSocket = Socket<SocketEventListeners, ClientEvents>;

/**
 * Reconnection never gives up while the tab is open (a deploy or an outage must not leave a tab deaf):
 * 1 s after the connection is lost, then twice as long each time up to 30 s, each delay varied by ±50%
 * so that the tabs of a restarted server do not all come back at the same moment.
 */
export const reconnectionOptions = {
  reconnection: true,
  reconnectionAttempts: Number.POSITIVE_INFINITY,
  reconnectionDelay: 1000,
  reconnectionDelayMax: 30_000,
  randomizationFactor: 0.5,
} as const;

/**
 * A delay of the same back-off, for the reconnections Socket.IO leaves to the app (after the server
 * let the socket go, or refused its handshake): `attempt` counts from 0.
 */
export function reconnectionDelayMs(attempt: number, random: () => number = Math.random): number {
  const { reconnectionDelay, reconnectionDelayMax, randomizationFactor } = reconnectionOptions;
  const base = Math.min(reconnectionDelay * 2 ** Math.min(attempt, 30), reconnectionDelayMax);
  const varied = base * (1 + randomizationFactor * (2 * random() - 1));
  return Math.round(Math.min(varied, reconnectionDelayMax));
}

/**
 * A socket for one signed-in session, not yet connected (call `connect()`). Same origin, path
 * /socket.io. WebSocket only: without HTTP long-polling a session never spans several requests that a
 * load balancer could send to different instances, so several instances need no sticky sessions.
 */
export function createSocket(token: string): RealtimeSocket {
  return io({
    path: '/socket.io',
    transports: ['websocket'],
    // feeds: this client subscribes to what it shows (the deals feed, the deal it watches).
    auth: { token, feeds: true } satisfies RealtimeHandshake,
    autoConnect: false,
    ...reconnectionOptions,
  });
}
