import type { Message } from '../../contract/messages';
import type { TimelineEntry } from '../features/timeline';

/** People of the chat unit tests. */
export const alice = { id: 1, username: 'alice', full_name: 'Alice Smith' };
export const bob = { id: 2, username: 'bob', full_name: 'Bob Jones' };

const secondOf = (id: number) => new Date(Date.UTC(2025, 0, 1, 12, 0, id)).toISOString();

/** A chat message as the API answers it (from Bob unless `sender` says otherwise), `id` seconds after noon. */
export function makeMessage(id: number, overrides: Partial<Message> = {}): Message {
  const sender = overrides.sender ?? bob;
  return {
    id,
    dealId: 7,
    content: `Message ${id}`,
    createdAt: secondOf(id),
    senderId: sender.id,
    sender,
    senderUsername: sender.username,
    clientId: null,
    ...overrides,
  };
}

/** A timeline entry of the deal, `second` seconds after noon. */
export const makeTimelineEntry = (id: number, second = id): TimelineEntry => ({
  type: 'event',
  id,
  kind: 'joined',
  actor: null,
  message: `Entry ${id}`,
  createdAt: secondOf(second),
});
