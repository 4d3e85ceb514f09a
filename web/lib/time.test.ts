import { describe, expect, it } from 'vitest';
import { formatCalendarDate, formatDate, formatLongDate, formatRelativeTime, todayIsoDate } from './time';

describe('dates', () => {
  it('formats ISO timestamps as short and long dates', () => {
    const date = new Date(2024, 0, 5, 15, 7);
    expect(formatDate(date.toISOString())).toBe('Jan 5, 2024');
    expect(formatLongDate(date)).toBe('January 5, 2024');
  });

  it('returns an empty string for an invalid date', () => {
    expect(formatDate('not a date')).toBe('');
    expect(formatRelativeTime('nope')).toBe('');
  });

  it('reads a calendar date as a local date (no off-by-one west of Greenwich)', () => {
    expect(formatCalendarDate('1990-05-17')).toBe('May 17, 1990');
    expect(formatCalendarDate('17/05/1990')).toBe('17/05/1990');
  });

  it('gives today in the date input format', () => {
    expect(todayIsoDate(new Date(2024, 1, 3, 23, 59))).toBe('2024-02-03');
  });
});

describe('formatRelativeTime', () => {
  const now = new Date(2025, 5, 15, 12, 0, 0);
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const minute = 60_000;
  const hour = 60 * minute;
  const day = 24 * hour;

  it('follows the message timestamp rules', () => {
    expect(formatRelativeTime(ago(10_000), now)).toBe('Just now');
    expect(formatRelativeTime(ago(minute), now)).toBe('1m ago');
    expect(formatRelativeTime(ago(59 * minute), now)).toBe('59m ago');
    expect(formatRelativeTime(ago(hour), now)).toBe('1h ago');
    expect(formatRelativeTime(ago(23 * hour), now)).toBe('23h ago');
    expect(formatRelativeTime(ago(day), now)).toBe('Yesterday');
    expect(formatRelativeTime(ago(3 * day), now)).toBe('3 days ago');
    expect(formatRelativeTime(ago(6 * day), now)).toBe('6 days ago');
  });

  it('shows a short date from 7 days on, with the year only when it differs', () => {
    expect(formatRelativeTime(new Date(2025, 5, 8, 12), now)).toBe('Jun 8');
    expect(formatRelativeTime(new Date(2024, 11, 24, 12), now)).toBe('Dec 24, 2024');
  });

  it('treats a timestamp slightly in the future (clock skew) as just now', () => {
    expect(formatRelativeTime(new Date(now.getTime() + 5000), now)).toBe('Just now');
  });
});
