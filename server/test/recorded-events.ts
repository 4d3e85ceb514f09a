import type { ServerEvents } from '../../contract/realtime';
import type { Audience } from '../lib/events';
import type { TestServer } from './harness';

export type RecordedEvent = { audience: Audience; event: keyof ServerEvents; payload: unknown };

/**
 * Records every event the services publish, as the realtime layer receives
 * them. Services publish after their transaction commits, so once a call has
 * answered, its events are here.
 */
export function recordEvents(server: TestServer) {
  const events: RecordedEvent[] = [];
  const detach = server.app.services.events.attach({
    publish: (audience, event, payload) => events.push({ audience, event, payload }),
    leaveDeal: () => {},
  });
  return {
    events,
    /** The events recorded so far, emptying the record. */
    take(): RecordedEvent[] {
      return events.splice(0);
    },
    detach,
  };
}

/** The events of a record other than notifications, in publication order. */
export const domainEvents = (events: RecordedEvent[]) =>
  events.filter((event) => event.event !== 'notification');

/** The notifications of a record, one per recipient, in delivery order. */
export const noticesIn = (events: RecordedEvent[]) =>
  events
    .filter((event) => event.event === 'notification')
    .map((event) => {
      const payload = event.payload as ServerEvents['notification'];
      return {
        to: event.audience.users?.[0],
        kind: payload.kind,
        dealId: payload.dealId,
        message: payload.message,
      };
    });
