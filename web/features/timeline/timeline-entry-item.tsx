import { formatDateTime, formatRelativeTime } from '../../lib/time';
import type { TimelineEntry } from './timeline-entry';

/** A timeline entry in a list (the deal's chat): a centred, muted line with its time. */
export function TimelineEntryItem({ entry, now }: { entry: TimelineEntry; now: Date }) {
  return (
    <li className="flex justify-center px-2" data-event-id={entry.id}>
      <p className="max-w-[90%] text-center text-xs break-words text-slate-600">
        <span>{entry.message}</span>
        <span aria-hidden="true"> · </span>
        <time dateTime={entry.createdAt} title={formatDateTime(entry.createdAt)}>
          {formatRelativeTime(entry.createdAt, now)}
        </time>
      </p>
    </li>
  );
}
