import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * A message that disappears by itself after `durationMs` (e.g. the 3-second success banners of spec §9).
 * Showing a new message restarts the clock.
 */
export function useTimedMessage<T>(durationMs: number): [T | null, (message: T | null) => void] {
  const [message, setMessage] = useState<T | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const show = useCallback(
    (next: T | null) => {
      clearTimeout(timer.current);
      setMessage(next);
      if (next !== null) timer.current = setTimeout(() => setMessage(null), durationMs);
    },
    [durationMs],
  );

  useEffect(() => () => clearTimeout(timer.current), []);
  return [message, show];
}
