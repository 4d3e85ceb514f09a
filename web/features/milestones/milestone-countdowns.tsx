import { AlertCircleIcon, ClockIcon } from '../../components/ui/icons';
import { useNow } from '../../lib/use-now';
import { autoReleaseText, loneShareText } from './milestone-texts';

/** Renewed every second: the countdowns read in seconds in their last minutes. */
const tickMs = 1000;

/**
 * A submitted milestone's auto-release, counting down live ('Released by itself in 13 days 4 hours');
 * 'Timer stopped: a dispute is open' while a dispute holds it. Not a live region: a screen reader reads
 * it when it gets there, not every second.
 */
export function ReleaseCountdown({ autoReleaseAt }: { autoReleaseAt: string | null }) {
  const now = useNow(tickMs);
  const stopped = autoReleaseAt === null;
  return (
    <p
      className={
        stopped
          ? 'inline-flex items-center gap-1.5 rounded-lg bg-rose-50 px-3 py-2 text-sm font-medium text-rose-800 ring-1 ring-rose-100'
          : 'inline-flex items-center gap-1.5 rounded-lg bg-sky-50 px-3 py-2 text-sm font-medium text-sky-900 ring-1 ring-sky-100'
      }
    >
      {stopped ? (
        <AlertCircleIcon size={16} className="shrink-0" />
      ) : (
        <ClockIcon size={16} className="shrink-0" />
      )}
      <span>{autoReleaseText(autoReleaseAt, now)}</span>
    </p>
  );
}

/** While one share waits alone: when it goes back to its payer, counting down. */
export function LoneShareCountdown({ expiresAt }: { expiresAt: string }) {
  const now = useNow(tickMs);
  const text = loneShareText(expiresAt, now);
  if (!text) return null;
  return (
    <p className="inline-flex items-center gap-1.5 rounded-lg bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900 ring-1 ring-amber-100">
      <ClockIcon size={16} className="shrink-0" />
      <span>{text}</span>
    </p>
  );
}
