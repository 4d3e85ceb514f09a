import type { DealChange, ServerEvents } from '../../contract/realtime';

/**
 * Who receives an event: user rooms, deal rooms (the participants), the sockets watching deals (their
 * page is open), and the original client's sockets (which hear every deal change).
 */
export type Audience = {
  users?: number[];
  deals?: number[];
  dealWatchers?: number[];
  originalClients?: boolean;
};

/**
 * Signals between the server's own instances (no client hears them): what one
 * instance changed that the others must forget from their caches.
 */
export type ClusterSignals = {
  /**
   * A deal changed in a way the public lists show: cached pages of the deals list are stale, and the
   * deals feed's subscribers on every instance hear of the change.
   */
  'deals-changed': DealChange;
  /**
   * An account's sign-in state changed (a password reset): cached checks of its tokens are stale, and
   * sockets opened with a token older than `tokenVersion` must close.
   */
  'account-changed': { userId: number; tokenVersion: number };
  /** A user no longer takes part in a deal: a cached "may join its room" is stale. */
  'deal-left': { userId: number; dealId: number };
  /**
   * Sessions were ended (signed out, ended from another device, a password change): their tokens are
   * refused and their sockets close, told `message` first when there is one to show.
   */
  'session-ended': { userId: number; sessionIds: string[]; message: string | null };
};
export type SignalName = keyof ClusterSignals;

export type EventSink = {
  publish<E extends keyof ServerEvents>(audience: Audience, event: E, payload: ServerEvents[E]): void;
  /** The user no longer takes part in the deal: their sockets leave its room. */
  leaveDeal(userId: number, dealId: number): void;
  /** Whether the user has a connected socket on any instance. */
  isOnline?(userId: number): Promise<boolean>;
  /** Carries a signal to the other instances (this one has handled it already). */
  signal?<S extends SignalName>(name: S, payload: ClusterSignals[S]): void;
};

/** Users of an audience as services name them: a deal's empty seats (null) are nobody, and each user counts once. */
type UserIds = Array<number | null | undefined>;
const uniqueUsers = (ids: UserIds) => [...new Set(ids.filter((id): id is number => typeof id === 'number'))];

type SignalHandlers = { [S in SignalName]?: Array<(payload: ClusterSignals[S]) => void> };

/**
 * Services publish domain events here after their transaction commits; the
 * realtime layer attaches a sink that forwards them to Socket.IO rooms (and,
 * with Redis, to the rooms on every instance). Signals reach the handlers of
 * this instance at once and, through the sink, those of every other instance.
 */
export class EventPublisher {
  private readonly sinks = new Set<EventSink>();
  private readonly handlers: SignalHandlers = {};

  attach(sink: EventSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  publish<E extends keyof ServerEvents>(
    audience: Omit<Audience, 'users'> & { users?: UserIds },
    event: E,
    payload: ServerEvents[E],
  ): void {
    const { users, ...rest } = audience;
    const resolved: Audience = users ? { ...rest, users: uniqueUsers(users) } : rest;
    for (const sink of this.sinks) sink.publish(resolved, event, payload);
  }

  leaveDeal(userId: number, dealId: number): void {
    for (const sink of this.sinks) sink.leaveDeal(userId, dealId);
    this.signal('deal-left', { userId, dealId });
  }

  /** Whether the user has a connected socket anywhere (false when no realtime layer is attached). */
  async isOnline(userId: number): Promise<boolean> {
    for (const sink of this.sinks) if (await sink.isOnline?.(userId)) return true;
    return false;
  }

  /** Tells every instance, this one first. */
  signal<S extends SignalName>(name: S, payload: ClusterSignals[S]): void {
    this.receiveSignal(name, payload);
    for (const sink of this.sinks) sink.signal?.(name, payload);
  }

  onSignal<S extends SignalName>(name: S, handler: (payload: ClusterSignals[S]) => void): void {
    const list = (this.handlers[name] ?? []) as Array<(payload: ClusterSignals[S]) => void>;
    list.push(handler);
    (this.handlers as Record<string, unknown>)[name] = list;
  }

  /** A signal from another instance (or this one). */
  receiveSignal<S extends SignalName>(name: S, payload: ClusterSignals[S]): void {
    for (const handler of (this.handlers[name] ?? []) as Array<(payload: ClusterSignals[S]) => void>) {
      handler(payload);
    }
  }
}
