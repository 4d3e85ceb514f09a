import { limits } from '../../../contract/limits';
import type { TimelineItem } from '../../../contract/timeline';
import { api } from '../../lib/api';

/** How many items a page of the timeline holds (the server's default). */
export const timelinePageSize = limits.page.defaultLimit;
/** Catching up asks for as many items at once as the server gives. */
const catchUpPageSize = limits.page.maxLimit;

/**
 * GET /deals/{dealId}/timeline: one page of the deal's timeline (its chat messages and timeline
 * entries), the latest or the one `before` an id, oldest first (the server answers newest first).
 */
export async function fetchTimelinePage(
  dealId: number,
  options: { before?: number; signal?: AbortSignal } = {},
): Promise<TimelineItem[]> {
  const cursor = options.before ? `&before=${options.before}` : '';
  const { items } = await api.get<{ items: TimelineItem[] }>(
    `/deals/${dealId}/timeline?limit=${timelinePageSize}${cursor}`,
    { signal: options.signal },
  );
  return items.reverse();
}

/**
 * GET /deals/{dealId}/timeline?after=: every item after the one with id `afterId`, oldest first, page
 * after page so that none is skipped (a client catching up after a reconnection).
 */
export async function fetchTimelineAfter(dealId: number, afterId: number): Promise<TimelineItem[]> {
  const found: TimelineItem[] = [];
  let after: number | undefined = afterId;
  while (after !== undefined) {
    const { items }: { items: TimelineItem[] } = await api.get(
      `/deals/${dealId}/timeline?after=${after}&limit=${catchUpPageSize}`,
    );
    found.push(...items);
    after = items.length < catchUpPageSize ? undefined : items[items.length - 1]!.id;
  }
  return found;
}
