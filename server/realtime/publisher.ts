import type { ServerEvents } from '../../contract/realtime';

/** Who receives an event: user rooms, deal rooms, or every signed-in socket. */
export type Audience = { users?: number[]; deals?: number[]; everyone?: boolean };

export type EventSink = {
  publish<E extends keyof ServerEvents>(audience: Audience, event: E, payload: ServerEvents[E]): void;
  /** The user no longer takes part in the deal: their sockets leave its room. */
  leaveDeal(userId: number, dealId: number): void;
};

/**
 * Services publish domain events here after their transaction commits; the
 * realtime layer attaches a sink that forwards them to Socket.IO rooms.
 */
export class EventPublisher {
  private readonly sinks = new Set<EventSink>();

  attach(sink: EventSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  publish<E extends keyof ServerEvents>(audience: Audience, event: E, payload: ServerEvents[E]): void {
    for (const sink of this.sinks) sink.publish(audience, event, payload);
  }

  notify(userIds: Array<number | null | undefined>, notification: ServerEvents['notification']): void {
    const users = [...new Set(userIds.filter((id): id is number => typeof id === 'number'))];
    if (users.length > 0) this.publish({ users }, 'notification', notification);
  }

  leaveDeal(userId: number, dealId: number): void {
    for (const sink of this.sinks) sink.leaveDeal(userId, dealId);
  }
}
