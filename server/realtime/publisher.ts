import type { ServerEvents } from '../../contract/realtime';

/** Who receives an event: user rooms, deal rooms (participants), or every signed-in socket. */
export type Audience = { users?: number[]; deals?: number[]; everyone?: boolean };

export type EventSink = <E extends keyof ServerEvents>(
  audience: Audience,
  event: E,
  payload: ServerEvents[E],
) => void;

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
    for (const sink of this.sinks) sink(audience, event, payload);
  }

  notify(userIds: Array<number | null | undefined>, notification: ServerEvents['notification']): void {
    const users = [...new Set(userIds.filter((id): id is number => typeof id === 'number'))];
    if (users.length > 0) this.publish({ users }, 'notification', notification);
  }
}
