/** The deal's timeline: its entries (each a state change of the deal), shown in the deal's chat. */

// GET /deals/{dealId}/timeline: the deal's chat messages and timeline entries in one list.
export { fetchTimelineAfter, fetchTimelinePage, timelinePageSize } from './timeline-api';
// What a timeline entry is, how one is told apart from a chat message, and how it is drawn.
export { isTimelineEntry, type TimelineEntry } from './timeline-entry';
export { TimelineEntryItem } from './timeline-entry-item';
