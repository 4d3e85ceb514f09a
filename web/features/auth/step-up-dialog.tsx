import { lazy, Suspense } from 'react';
import { Dialog } from '../../components/ui/dialog';
import { LoadingState } from '../../components/ui/spinner';
import { useStepUpRequests } from './use-step-up';

// Loaded the first time a step-up is asked for, not with every page.
const StepUpForm = lazy(() => import('./step-up-form').then((m) => ({ default: m.StepUpForm })));

/**
 * Asks "is it you?" in place whenever a money or account change needs a recent second factor, then lets
 * the change go through (the API client sends it again). Rendered once, by the app's providers.
 */
export function StepUpDialog() {
  const { reason, confirmed, cancelled } = useStepUpRequests();
  return (
    <Dialog
      open={reason !== null}
      onOpenChange={(open) => {
        if (!open) cancelled();
      }}
      title="Confirm it is you"
      description={reason}
    >
      {/* Inside the dialog's content, so every question starts with a fresh form. */}
      <Suspense fallback={<LoadingState label="Loading..." className="py-6" />}>
        <StepUpForm onConfirmed={confirmed} onCancel={cancelled} />
      </Suspense>
    </Dialog>
  );
}
