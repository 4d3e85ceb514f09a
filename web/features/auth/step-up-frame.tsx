import { Dialog } from '../../components/ui/dialog';
import { StepUpForm } from './step-up-form';
import type { useStepUpRequests } from './use-step-up';

/** The "Confirm it is you" dialog itself (step-up-dialog.tsx loads it when first needed). */
export function StepUpFrame({ reason, confirmed, cancelled }: ReturnType<typeof useStepUpRequests>) {
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
      <StepUpForm onConfirmed={confirmed} onCancel={cancelled} />
    </Dialog>
  );
}
