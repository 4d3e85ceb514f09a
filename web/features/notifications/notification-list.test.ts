import { describe, expect, it } from 'vitest';
import type { Notification } from '../../../contract/notifications';
import {
  bellCountText,
  bellLabel,
  markReadInPages,
  notificationTarget,
  repeatsText,
} from './notification-list';

const notification = (id: number, readAt: string | null = null): Notification => ({
  id,
  kind: 'deal-joined',
  dealId: 7,
  actor: null,
  message: `Notification ${id}`,
  count: 1,
  createdAt: '2025-01-01T12:00:00.000Z',
  readAt,
});
const pages = (...lists: Notification[][]) => ({
  pages: lists.map((notifications) => ({ notifications, unreadCount: 3 })),
  pageParams: lists.map((_, index) => (index === 0 ? undefined : index)),
});
const readTimes = (data: ReturnType<typeof pages> | undefined) =>
  data?.pages.flatMap((page) => page.notifications.map((n) => n.readAt));

describe('marking notifications read in the loaded pages', () => {
  const data = pages([notification(5), notification(4, 'earlier')], [notification(2)]);

  it('reads the ones named, in any page; the others stay as they were', () => {
    expect(readTimes(markReadInPages(data, [5, 2], 'now'))).toEqual(['now', 'earlier', 'now']);
  });

  it('reads all of them, keeping when the read ones were read', () => {
    expect(readTimes(markReadInPages(data, 'all', 'now'))).toEqual(['now', 'earlier', 'now']);
    expect(readTimes(markReadInPages(data, [4], 'now'))).toEqual([null, 'earlier', null]);
  });

  it('does nothing without a list', () => {
    expect(markReadInPages(undefined, 'all', 'now')).toBeUndefined();
  });
});

describe('the bell', () => {
  it('shows the unread count (99+ beyond 99), and nothing at 0', () => {
    expect([0, 1, 42, 99, 100, 2500].map(bellCountText)).toEqual(['', '1', '42', '99', '99+', '99+']);
  });

  it('is named with the count', () => {
    expect(bellLabel(0)).toBe('Notifications');
    expect(bellLabel(3)).toBe('Notifications, 3 unread');
  });
});

describe('notificationTarget', () => {
  it('opens the deal of a notification, and the sessions list for a sign-in from a new device', () => {
    expect(notificationTarget({ kind: 'escrow-paid', dealId: 12 })).toBe('/deals/12');
    expect(notificationTarget({ kind: 'deal-deleted', dealId: null })).toBeNull();
    expect(notificationTarget({ kind: 'new-sign-in', dealId: null })).toBe('/profile#security');
  });
});

describe('repeatsText', () => {
  it('says how many times an entry happened', () => {
    expect(repeatsText(2)).toBe('2 times');
    expect(repeatsText(30)).toBe('30 times');
  });
});
