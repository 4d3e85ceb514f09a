import type { Deal } from '../../../contract/deals';
import type { Dispute } from '../../../contract/disputes';
import type { Notice } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { useConfirmation } from '../../components/ui/confirm-dialog';
import { ClockIcon } from '../../components/ui/icons';
import { serverReason } from '../../lib/api';
import { useEscalateDispute } from './settlement-api';
import { escalateConfirmation } from './settlement-confirmations';
import { escalationText } from './settlement-texts';

type EscalationLineProps = {
  dispute: Dispute;
  deal: Pick<Deal, 'title'>;
  /** A dealer, on a dispute not escalated yet: 'Escalate now'. */
  canEscalate: boolean;
  onNotice: (notice: Notice) => void;
};

/** When an open dispute goes to the operators by itself (or went), and Escalate now for the dealers. */
export function EscalationLine({ dispute, deal, canEscalate, onNotice }: EscalationLineProps) {
  const confirmation = useConfirmation();
  const escalate = useEscalateDispute({
    onSuccess: () => onNotice({ tone: 'success', text: 'Dispute escalated to an operator' }),
    onError: (error) =>
      onNotice({ tone: 'error', text: 'Failed to escalate the dispute', detail: serverReason(error) }),
  });
  const text = escalationText(dispute);
  if (!text) return null;
  return (
    <div className="mt-3 flex flex-wrap items-center justify-between gap-2 rounded-lg bg-amber-50/70 px-3 py-2 ring-1 ring-amber-100">
      <p className="inline-flex items-center gap-1.5 text-xs font-medium text-amber-900">
        <ClockIcon size={14} />
        {text}
      </p>
      {canEscalate && !dispute.escalated && (
        <Button
          size="sm"
          variant="outline"
          onClick={() =>
            confirmation.ask(
              escalateConfirmation(dispute, deal, { onConfirm: () => escalate.mutateSettled(dispute) }),
            )
          }
        >
          Escalate now
        </Button>
      )}
      {confirmation.dialog}
    </div>
  );
}
