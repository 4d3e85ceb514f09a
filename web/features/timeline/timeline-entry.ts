import type { TimelineEvent } from '../../../contract/timeline';

/**
 * A timeline entry: one state change of the deal (created, joined, paid, disputed, …), written by the
 * server in the transaction that made it (table deal_events, server/features/timeline). The wire calls
 * its shape TimelineEvent; the web calls it a timeline entry.
 */
export type TimelineEntry = TimelineEvent;

/** Whether an item of the timeline (or of the chat that shows it) is a timeline entry, not a message. */
export const isTimelineEntry = (item: object): item is TimelineEntry =>
  (item as { type?: unknown }).type === 'event';
