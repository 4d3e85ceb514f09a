import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { Server, type Socket } from 'socket.io';
import { z } from 'zod';
import { errorCodes } from '../../contract/errors';
import { eventDealId } from '../../contract/fields';
import {
  type ClientEvents,
  type RealtimeHandshake,
  realtimeRooms,
  type SocketEventListeners,
  withOriginalClientKey,
} from '../../contract/realtime';
import type { Config } from '../config';
import type { DealAccess } from '../core/deal/deal-access';
import { isParticipant } from '../core/deal/deal-roles';
import type { AuthService } from '../features/auth/auth.service';
import { extractToken } from '../lib/credentials';
import type { ClusterSignals, EventPublisher, SignalName } from '../lib/events';
import type { Metrics } from '../lib/metrics';
import type { RedisConnections } from '../lib/redis';
import { isCookieAuthenticated, TrustedOrigins } from '../lib/same-origin';
import { DealsFeed } from './deals-feed';
import { SocketEventLimiter } from './event-limits';
import { TypingTracker } from './typing';

/** The server-to-server event that carries cluster signals (publisher.ts). */
const clusterSignalEvent = 'dealmaker:signal';

type SocketData = {
  user: { id: number; username: string; full_name: string };
  /** The version of the account's tokens the socket signed in with: a password reset makes it outdated. */
  tokenVersion: number;
  /** The session of the token it signed in with: the socket closes when that session ends. */
  sessionId: string;
  /** Its client subscribes to what it shows (RealtimeHandshake): no deal-updated for every deal. */
  feeds: boolean;
};
type RealtimeServer = Server<ClientEvents, SocketEventListeners, Record<string, never>, SocketData>;
type RealtimeSocket = Socket<ClientEvents, SocketEventListeners, Record<string, never>, SocketData>;

const typingPayloadSchema = z.object({ dealId: eventDealId });
/** setTimeout's ceiling (~24.8 days); tokens live 7 days. */
const maxTimerMs = 2_147_483_647;
/**
 * How long "this user takes part in this deal" is believed without asking the database again: a client
 * joining a room again and again (on every render, after each reconnection) costs one lookup. Leaving
 * the deal forgets it at once on every instance (the 'deal-left' signal).
 */
const participationTtlMs = 5_000;
const rateLimitedMessage = 'Too many events: this one was dropped. Please slow down.';
/** How often, at most, a deals feed subscriber hears of changes. */
const dealsFeedIntervalMs = 1_000;
/** Deals one socket may watch at once (a tab shows one deal page; more is a client gone wrong): the oldest goes. */
const maxWatchedDeals = 20;

/**
 * Socket.IO on the app's own HTTP server (same origin, /socket.io/).
 * Sockets authenticate at the handshake and sit in their user room; deal rooms
 * are joined only by the deal's participants. Services' events reach sockets
 * through the EventPublisher, and through Redis on every instance when REDIS_URL is set.
 */
/** What the realtime layer uses of the services (the composition root hands them over). */
export type RealtimeServices = {
  auth: Pick<AuthService, 'userFromToken'>;
  dealAccess: Pick<DealAccess, 'find'>;
  events: EventPublisher;
  metrics: Metrics;
  redisConnections: RedisConnections | undefined;
};

export async function attachRealtime(app: FastifyInstance, services: RealtimeServices, config: Config) {
  const io: RealtimeServer = new Server(app.server, {
    path: '/socket.io',
    serveClient: false,
    cors: config.corsOrigins.length > 0 ? { origin: config.corsOrigins, credentials: true } : undefined,
  });

  let redisClients: Redis[] = [];
  const redisConnections = services.redisConnections;
  if (redisConnections) {
    // Loaded only with REDIS_URL: one instance never needs it.
    const { createShardedAdapter } = await import('@socket.io/redis-adapter');
    const [pub, sub] = await Promise.all([
      redisConnections.connect('realtime publisher', { queueWhileAway: false }),
      // Subscriptions wait for Redis and are made again after every reconnection.
      redisConnections.connect('realtime subscriber', { queueWhileAway: true }),
    ]);
    // Sharded Pub/Sub (Redis 7), a channel per room: an instance subscribes to the rooms it has sockets in
    // and receives only their broadcasts (decision 0030). Channels under REDIS_PREFIX: deployments sharing
    // the Redis never hear each other. A publish refused while Redis is away is dropped by the adapter:
    // events still reach this instance's sockets, and clients catch up when they reconnect or reload.
    io.adapter(
      createShardedAdapter(pub, sub, {
        channelPrefix: `${config.redisPrefix}:socket.io`,
        subscriptionMode: 'dynamic',
      }),
    );
    redisClients = [pub, sub];
  }

  const typing = new TypingTracker(
    (dealId, userInfo, isTyping) => {
      io.to(realtimeRooms.deal(dealId)).emit('typing-updated', { dealId, userInfo, isTyping });
    },
    config.typingTimeoutMs,
    config.typingRejoinGraceMs,
  );
  // A socket that leaves a deal room stops typing there: at once when it disconnects or is evicted
  // (its user left the deal; that may arrive through Redis), after a grace period when it left by
  // itself with leave-deal-room (marked here first), unless it rejoins meanwhile.
  const leavingByThemselves = new Set<string>();
  io.of('/').adapter.on('leave-room', (room: string, socketId: string) => {
    const dealId = Number(room.slice(room.indexOf(':') + 1));
    if (room !== realtimeRooms.deal(dealId)) return;
    if (leavingByThemselves.delete(`${socketId}:${room}`)) typing.leftRoom(socketId, dealId);
    else typing.stop(socketId, dealId);
  });

  // A browser sends the auth_token cookie with a handshake whatever page opens it: signed in by the
  // cookie, the handshake must come from a trusted origin, as HTTP changes must (lib/same-origin.ts).
  const trustedOrigins = new TrustedOrigins(config);
  io.use((socket, next) => {
    const { auth, headers } = socket.handshake;
    if (isCookieAuthenticated(headers, auth?.token) && !trustedOrigins.allows(socket.request)) {
      return next(Object.assign(new Error('foreign origin'), { data: { code: errorCodes.foreignOrigin } }));
    }
    next();
  });

  io.use(async (socket, next) => {
    try {
      const { auth, headers } = socket.handshake;
      const token =
        typeof auth?.token === 'string' && auth.token
          ? auth.token
          : extractToken(headers.authorization, headers.cookie);
      const user = await services.auth.userFromToken(token);
      if (!user) return next(new Error('unauthorized'));
      socket.data.user = { id: user.id, username: user.username, full_name: user.fullName };
      socket.data.tokenVersion = user.tokenVersion;
      socket.data.sessionId = user.sessionId;
      socket.data.feeds = (auth as RealtimeHandshake | undefined)?.feeds === true;
      // The socket lives no longer than its token.
      const expiresIn = Math.min(user.exp * 1000 - Date.now(), maxTimerMs);
      const timer = setTimeout(() => socket.disconnect(true), Math.max(expiresIn, 0));
      timer.unref();
      socket.once('disconnect', () => clearTimeout(timer));
      next();
    } catch (error) {
      app.log.error({ err: error }, 'socket handshake failed');
      next(new Error('unauthorized'));
    }
  });

  const eventLimits = new SocketEventLimiter(config.socketEventLimits);
  services.metrics.measure({ sockets: () => io.of('/').sockets.size });
  const participants = new LRUCache<string, true>({ max: 50_000, ttl: participationTtlMs });
  /** Bumped by every 'deal-left': a lookup that overlapped one is not cached (it may have read the old state). */
  let participationChanges = 0;

  io.on('connection', (socket: RealtimeSocket) => {
    const user = socket.data.user;
    // The handshake's HTTP request (with its connection's parser and buffers) served the middlewares
    // above only; kept, it would stay as long as the socket (socket.handshake keeps its headers).
    (socket.conn as unknown as { request: unknown }).request = null;
    void socket.join(
      socket.data.feeds
        ? realtimeRooms.user(user.id)
        : [realtimeRooms.user(user.id), realtimeRooms.originalClients],
    );

    // Every event the socket sends counts, before any work (decisions/0022-socket-event-limits.md).
    // Dropped ones are answered (their acknowledgement, and a rate-limited event); a socket that goes
    // on flooding is disconnected.
    const allowance = eventLimits.open(user.id);
    socket.once('disconnect', allowance.release);
    socket.use(([event, ...args], next) => {
      if (!socket.connected) return;
      const verdict = allowance.check();
      if (verdict === 'accept') return next();
      services.metrics.rateLimitRefusals.inc({ limit: 'socketEvents' });
      // On the next tick, as Socket.IO hands accepted events to their handlers: answers keep the order
      // of the events they answer.
      process.nextTick(() => {
        if (!socket.connected) return;
        // The notice first: a client awaiting the acknowledgement has heard it by then.
        socket.emit('rate-limited', { message: rateLimitedMessage, event: String(event).slice(0, 100) });
        const ack = args.at(-1);
        if (typeof ack === 'function') ack({ ok: false, message: rateLimitedMessage });
        if (verdict === 'disconnect') socket.disconnect(true);
      });
    });

    // Every socket is in its own user room from the start; asking for anyone else's room is ignored.
    socket.on('join-user-room', () => {});

    socket.on('join-deal-room', async (rawDealId, ack) => {
      const respond = typeof ack === 'function' ? ack : () => {};
      const dealId = eventDealId.safeParse(rawDealId);
      if (!dealId.success) return respond({ ok: false, message: 'Invalid deal id.' });
      try {
        if (!(await mayJoinDealRoom(dealId.data, user.id))) {
          return respond({ ok: false, message: 'Only the participants of this deal can join its room.' });
        }
        await socket.join(realtimeRooms.deal(dealId.data));
        typing.rejoinedRoom(socket.id, dealId.data);
        respond({ ok: true });
      } catch (error) {
        app.log.error({ err: error }, 'join-deal-room failed');
        respond({ ok: false, message: 'Could not join the deal room.' });
      }
    });

    socket.on('leave-deal-room', (rawDealId) => {
      const dealId = eventDealId.safeParse(rawDealId);
      if (!dealId.success) return;
      const room = realtimeRooms.deal(dealId.data);
      if (!socket.rooms.has(room)) return;
      leavingByThemselves.add(`${socket.id}:${room}`);
      void socket.leave(room);
    });

    socket.on('deals-feed:subscribe', async (ack) => {
      await socket.join(realtimeRooms.dealsFeed);
      if (typeof ack === 'function') ack({ ok: true });
    });
    socket.on('deals-feed:unsubscribe', () => void socket.leave(realtimeRooms.dealsFeed));

    // A deal's public changes: anyone signed in may watch any deal, as anyone may read it.
    socket.on('watch-deal', async (rawDealId, ack) => {
      const respond = typeof ack === 'function' ? ack : () => {};
      const dealId = eventDealId.safeParse(rawDealId);
      if (!dealId.success) return respond({ ok: false, message: 'Invalid deal id.' });
      const room = realtimeRooms.dealWatch(dealId.data);
      if (!socket.rooms.has(room)) {
        // Rooms keep the order they were joined in: the first watched is the oldest.
        const watched = [...socket.rooms].filter(realtimeRooms.isDealWatch);
        if (watched.length >= maxWatchedDeals) await socket.leave(watched[0]!);
        await socket.join(room);
      }
      respond({ ok: true });
    });
    socket.on('unwatch-deal', (rawDealId) => {
      const dealId = eventDealId.safeParse(rawDealId);
      if (dealId.success) void socket.leave(realtimeRooms.dealWatch(dealId.data));
    });

    // Typing counts only from a socket in the deal's room (so: a participant), as its own user.
    socket.on('user-typing-start', (payload) => {
      const parsed = typingPayloadSchema.safeParse(payload);
      if (!parsed.success || !socket.rooms.has(realtimeRooms.deal(parsed.data.dealId))) return;
      typing.start(socket.id, parsed.data.dealId, user);
    });

    socket.on('user-typing-stop', (payload) => {
      const parsed = typingPayloadSchema.safeParse(payload);
      if (!parsed.success) return;
      typing.stop(socket.id, parsed.data.dealId);
    });
  });

  /** Only "yes" is remembered: someone who joins a deal may open its chat at once. */
  async function mayJoinDealRoom(dealId: number, userId: number) {
    const key = `${dealId}:${userId}`;
    if (participants.get(key)) return true;
    const changesBefore = participationChanges;
    const participant = await isParticipantOf(dealId, userId);
    if (participant && changesBefore === participationChanges) participants.set(key, true);
    return participant;
  }

  async function isParticipantOf(dealId: number, userId: number) {
    try {
      return isParticipant(await services.dealAccess.find(dealId), userId);
    } catch {
      return false;
    }
  }
  services.events.onSignal('deal-left', ({ userId, dealId }) => {
    participationChanges++;
    participants.delete(`${dealId}:${userId}`);
  });

  const dealsFeed = new DealsFeed({
    send: (changes) => {
      services.metrics.socketEventsSent.inc({ event: 'deals-feed' });
      // Every instance hears every change (the signal), so each sends to its own subscribers only.
      io.local.to(realtimeRooms.dealsFeed).emit('deals-feed', { changes });
    },
    hasSubscribers: () => (io.of('/').adapter.rooms.get(realtimeRooms.dealsFeed)?.size ?? 0) > 0,
    intervalMs: dealsFeedIntervalMs,
  });
  services.events.onSignal('deals-changed', (change) => dealsFeed.add(change));

  const detach = services.events.attach({
    publish(audience, event, payload) {
      const userRooms = (audience.users ?? []).map(realtimeRooms.user);
      const rooms = [
        ...(audience.originalClients ? [realtimeRooms.originalClients] : []),
        ...userRooms,
        ...(audience.deals ?? []).map(realtimeRooms.deal),
        ...(audience.dealWatchers ?? []).map(realtimeRooms.dealWatch),
      ];
      if (rooms.length === 0) return;
      services.metrics.socketEventsSent.inc({ event });
      const emit = (to: string | string[]) =>
        (io.to(to).emit as (event: string, payload: unknown) => boolean)(
          event,
          withOriginalClientKey(event, payload),
        );
      // A socket is in one user room: users alone go room by room, each to the instances holding that room
      // (sharded Pub/Sub). Mixed rooms go as one broadcast, so that a socket in several hears the event once.
      if (rooms.length === userRooms.length) for (const room of rooms) emit(room);
      else emit(rooms);
    },
    leaveDeal(userId, dealId) {
      // Here at once: through Redis even this instance would only act on the echo of the
      // request, after the HTTP call has answered. Redis then carries it to the other instances.
      io.local.in(realtimeRooms.user(userId)).socketsLeave(realtimeRooms.deal(dealId));
      if (config.redisUrl) io.in(realtimeRooms.user(userId)).socketsLeave(realtimeRooms.deal(dealId));
    },
    async isOnline(userId) {
      const room = realtimeRooms.user(userId);
      if ((await io.local.in(room).fetchSockets()).length > 0) return true;
      // Through the Redis adapter this asks every instance; with Redis away, only this one knows.
      return (
        (
          await io
            .in(room)
            .fetchSockets()
            .catch(() => [])
        ).length > 0
      );
    },
    signal(name, payload) {
      // Through the Redis adapter to the other instances' servers (never to clients).
      if (config.redisUrl) io.serverSideEmit(clusterSignalEvent, name, payload);
    },
  });
  // A password reset (on any instance) closes this instance's sockets opened with the old tokens.
  services.events.onSignal('account-changed', ({ userId, tokenVersion }) => {
    for (const socket of io.of('/').sockets.values()) {
      if (socket.data.user?.id === userId && socket.data.tokenVersion < tokenVersion) socket.disconnect(true);
    }
  });
  // Sessions ended on any instance (from another device, a password change, signing out): their sockets
  // here are told why, then closed.
  services.events.onSignal('session-ended', ({ userId, sessionIds, message }) => {
    const ended = new Set(sessionIds);
    for (const socket of io.of('/').sockets.values()) {
      if (socket.data.user?.id !== userId || !ended.has(socket.data.sessionId)) continue;
      socket.emit('session-ended', { message });
      socket.disconnect(true);
    }
  });
  io.on(clusterSignalEvent, (name: SignalName, payload: ClusterSignals[SignalName]) => {
    services.events.receiveSignal(name, payload);
  });

  // Open sockets would hold the HTTP server open: close them before the server waits for connections.
  // Their connections are closed without Socket.IO's disconnect packet, which would tell a client not to
  // come back: every client (the web app, the original client) reconnects by itself, lands on another
  // instance behind the load balancer (or this one once restarted) and catches up. Closing also ends
  // this instance's typing indicators for the others.
  app.addHook('preClose', async () => {
    for (const socket of io.of('/').sockets.values()) socket.conn.close();
    typing.clear();
  });
  // The requests still in flight, and the jobs finishing, publish what they change until the end: a
  // client that has already reconnected elsewhere and caught up hears of it only through Redis. So the
  // sink stays attached until this hook, which runs once the HTTP server has answered its last request
  // and after the services have closed (app.ts registers their onClose after this one).
  app.addHook('onClose', async () => {
    detach();
    dealsFeed.close();
    await new Promise<void>((resolve) => io.close(() => resolve()));
    await Promise.all(redisClients.map((client) => redisConnections?.close(client)));
  });
  return io;
}
