import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TimelineItem } from '../../../contract/timeline';
import { makeMessage, makeTimelineEntry } from '../../test/message-fixtures';
import { jsonResponse } from '../../test/session-fixtures';
import { fetchTimelineAfter, fetchTimelinePage, timelinePageSize } from './timeline-api';
import { isTimelineEntry } from './timeline-entry';

const fetchMock = vi.fn<typeof fetch>();
const message = (id: number): TimelineItem => ({ ...makeMessage(id), type: 'message' });
const entry = makeTimelineEntry;
const ids = (items: Array<{ id: number }>) => items.map((item) => item.id);
const urls = () => fetchMock.mock.calls.map(([url]) => String(url));

describe('the timeline API', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('gives a page oldest first, the latest or the one before an id', async () => {
    fetchMock.mockImplementation(async () => jsonResponse({ items: [message(3), entry(2), message(1)] }));
    expect(ids(await fetchTimelinePage(7))).toEqual([1, 2, 3]);
    expect(ids(await fetchTimelinePage(7, { before: 4 }))).toEqual([1, 2, 3]);
    expect(urls()).toEqual([
      `/api/deals/7/timeline?limit=${timelinePageSize}`,
      `/api/deals/7/timeline?limit=${timelinePageSize}&before=4`,
    ]);
  });

  it('gives everything after an id, page after page until a page is not full', async () => {
    const full = Array.from({ length: 100 }, (_, index) => message(11 + index));
    fetchMock.mockImplementation(async (url) =>
      jsonResponse({ items: String(url).includes('after=10&') ? full : [entry(111), message(112)] }),
    );
    const after = await fetchTimelineAfter(7, 10);
    expect(after).toHaveLength(102);
    expect(ids(after.slice(-3))).toEqual([110, 111, 112]);
    expect(urls()).toEqual([
      '/api/deals/7/timeline?after=10&limit=100',
      '/api/deals/7/timeline?after=110&limit=100',
    ]);
  });
});

describe('isTimelineEntry', () => {
  it('tells a timeline entry from a chat message, sent or on its way', () => {
    expect(isTimelineEntry(entry(1))).toBe(true);
    expect(isTimelineEntry(message(2))).toBe(false);
    expect(isTimelineEntry(makeMessage(3))).toBe(false);
    expect(isTimelineEntry({ id: 'temp-abc', isTemporary: true })).toBe(false);
  });
});
