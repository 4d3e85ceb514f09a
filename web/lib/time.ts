/** Dates as the screens show them. Inputs are ISO 8601 strings from the API. */

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

// One formatter per format, made on first use: toLocaleDateString with options builds a new
// Intl.DateTimeFormat on every call, which costs a list of deals or messages milliseconds per date on a phone.
function formatter(options: Intl.DateTimeFormatOptions): () => Intl.DateTimeFormat {
  let made: Intl.DateTimeFormat | undefined;
  return () => {
    made ??= new Intl.DateTimeFormat('en-US', options);
    return made;
  };
}
const shortDate = formatter({ year: 'numeric', month: 'short', day: 'numeric' });
const longDate = formatter({ year: 'numeric', month: 'long', day: 'numeric' });
const dateTime = formatter({
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const monthDay = formatter({ month: 'short', day: 'numeric' });

/**
 * Makes the date formats when the browser is next idle: the first one made costs a phone tens of
 * milliseconds (the browser loads its calendar data), which the first render showing a date then saves.
 * For a page about to show dates while its code still downloads.
 */
export function prepareDateFormats() {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => dateTime());
}

function toDate(value: string | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** 'Jan 5, 2024' */
export function formatDate(value: string | Date): string {
  const date = toDate(value);
  return date ? shortDate().format(date) : '';
}

/** 'January 5, 2024' */
export function formatLongDate(value: string | Date): string {
  const date = toDate(value);
  return date ? longDate().format(date) : '';
}

/** 'Jan 5, 2024, 3:07 PM' */
export function formatDateTime(value: string | Date): string {
  const date = toDate(value);
  return date ? dateTime().format(date) : '';
}

/**
 * A calendar date without a time ('YYYY-MM-DD', e.g. a date of birth) as 'January 5, 1990'.
 * Read as a local date: parsing it as UTC would show the previous day west of Greenwich.
 */
export function formatCalendarDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return value;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return formatLongDate(date);
}

/** Today as 'YYYY-MM-DD' in local time (the value format of date inputs). */
export function todayIsoDate(now: Date = new Date()): string {
  const month = String(now.getMonth() + 1).padStart(2, '0');
  const dayOfMonth = String(now.getDate()).padStart(2, '0');
  return `${now.getFullYear()}-${month}-${dayOfMonth}`;
}

/**
 * Message-style timestamps (spec §2 Deal Messages): 'Just now' under a minute, then 'Nm ago',
 * 'Nh ago', 'Yesterday', 'N days ago' under 7 days, then a short date (with the year when it is not this year).
 */
export function formatRelativeTime(value: string | Date, now: Date = new Date()): string {
  const date = toDate(value);
  if (!date) return '';
  const elapsed = now.getTime() - date.getTime();
  if (elapsed < minute) return 'Just now';
  if (elapsed < hour) return `${Math.floor(elapsed / minute)}m ago`;
  if (elapsed < day) return `${Math.floor(elapsed / hour)}h ago`;
  const days = Math.floor(elapsed / day);
  if (days === 1) return 'Yesterday';
  if (days < 7) return `${days} days ago`;
  const sameYear = date.getFullYear() === now.getFullYear();
  return (sameYear ? monthDay() : shortDate()).format(date);
}
