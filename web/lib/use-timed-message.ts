import { useCallback, useEffect, useRef, useState } from 'react';

type TimedMessageOptions<T> = {
  /**
   * Messages that stay until closed (shown again with null) rather than for `durationMs`: those that
   * carry a link to act on (e.g. to the wallet), which must not vanish before it is followed.
   */
  stays?: (message: T) => boolean;
};

/**
 * A message that disappears by itself after `durationMs` (e.g. the 3-second success banners of spec §9),
 * unless `stays` keeps it. Showing a new message restarts the clock.
 */
export function useTimedMessage<T>(
  durationMs: number,
  options: TimedMessageOptions<T> = {},
): [T | null, (message: T | null) => void] {
  const [message, setMessage] = useState<T | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const stays = useRef(options.stays);
  stays.current = options.stays;

  const show = useCallback(
    (next: T | null) => {
      clearTimeout(timer.current);
      setMessage(next);
      if (next !== null && !stays.current?.(next)) {
        timer.current = setTimeout(() => setMessage(null), durationMs);
      }
    },
    [durationMs],
  );

  useEffect(() => () => clearTimeout(timer.current), []);
  return [message, show];
}
