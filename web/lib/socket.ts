import { io, type Socket } from 'socket.io-client';
import type { ClientEvents, SocketEventListeners } from '../../contract/realtime';

/**
 * The app's Socket.IO connection: server events (and the notices about the socket itself, such as its
 * session ending) in, client events out (contract/realtime.ts).
 */
export type RealtimeSocket = Socket<SocketEventListeners, ClientEvents>;

/** Spec §9: up to 5 reconnection attempts, 1 second apart. */
export const reconnectionAttempts = 5;
export const reconnectionDelayMs = 1000;

/**
 * A socket for one signed-in session, not yet connected (call `connect()`). Same origin, path
 * /socket.io. WebSocket only: without HTTP long-polling a session never spans several requests that a
 * load balancer could send to different instances, so several instances need no sticky sessions.
 */
export function createSocket(token: string): RealtimeSocket {
  return io({
    path: '/socket.io',
    transports: ['websocket'],
    auth: { token },
    autoConnect: false,
    reconnection: true,
    reconnectionAttempts,
    // A fixed delay: no exponential back-off, no jitter.
    reconnectionDelay: reconnectionDelayMs,
    reconnectionDelayMax: reconnectionDelayMs,
    randomizationFactor: 0,
  });
}
