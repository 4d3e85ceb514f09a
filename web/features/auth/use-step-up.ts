import { useCallback, useEffect, useRef, useState } from 'react';
import { setStepUpHandler } from '../../lib/api';

const defaultReason = 'Please confirm it is you before this change.';

type Waiting = { promise: Promise<void>; resolve: () => void; reject: (reason: Error) => void };

/**
 * Answers the API client's step-ups (web/lib/api.ts): a call refused with STEP_UP_REQUIRED waits here
 * until the person confirmed it is them (then it is sent again) or gave up (then it fails). Calls refused
 * while the question is open wait for the same answer.
 */
export function useStepUpRequests() {
  const [reason, setReason] = useState<string | null>(null);
  const waiting = useRef<Waiting | null>(null);

  useEffect(() => {
    const unregister = setStepUpHandler((refusal) => {
      if (!waiting.current) {
        let resolve!: () => void;
        let reject!: (reason: Error) => void;
        const promise = new Promise<void>((res, rej) => {
          resolve = res;
          reject = rej;
        });
        waiting.current = { promise, resolve, reject };
        setReason(refusal.serverMessage ?? defaultReason);
      }
      return waiting.current.promise;
    });
    return () => {
      unregister();
      waiting.current?.reject(new Error('The step-up was abandoned.'));
      waiting.current = null;
    };
  }, []);

  const settle = useCallback((confirmed: boolean) => {
    const current = waiting.current;
    waiting.current = null;
    setReason(null);
    if (confirmed) current?.resolve();
    else current?.reject(new Error('The step-up was cancelled.'));
  }, []);

  return {
    /** The server's words for why it asks; null while nobody waits. */
    reason,
    confirmed: useCallback(() => settle(true), [settle]),
    cancelled: useCallback(() => settle(false), [settle]),
  };
}
