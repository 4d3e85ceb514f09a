import { lazy, Suspense, useState } from 'react';
import { useStepUpRequests } from './use-step-up';

// The dialog (its frame and form) is downloaded the first time a step-up is asked for, not with every page;
// the calls that ask for one are answered from the start.
const StepUpFrame = lazy(() => import('./step-up-frame').then((m) => ({ default: m.StepUpFrame })));

/**
 * Asks "is it you?" in place whenever a money or account change needs a recent second factor, then lets
 * the change go through (the API client sends it again). Rendered once, by the app's providers.
 */
export function StepUpDialog() {
  const request = useStepUpRequests();
  const [asked, setAsked] = useState(false);
  if (request.reason !== null && !asked) setAsked(true);
  // Kept once asked: the dialog then closes with its animation.
  if (!asked) return null;
  return (
    <Suspense fallback={null}>
      <StepUpFrame {...request} />
    </Suspense>
  );
}
