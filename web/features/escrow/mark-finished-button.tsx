import type { Deal } from '../../../contract/deals';
import type { Notice } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { useConfirmation } from '../../components/ui/confirm-dialog';
import { CheckCircleIcon } from '../../components/ui/icons';
import { serverReason } from '../../lib/api';
import type { DealViewer } from '../deals';
import { completionFailed, completionMessageTone } from './completion-texts';
import { useMarkFinished } from './escrow-api';
import { markFinishedConfirmation } from './escrow-confirmations';
import { markFinishedState } from './mark-finished-state';

export type MarkFinishedButtonProps = {
  deal: Deal;
  viewer: DealViewer;
  /** What the call answered, for the caller to show (5 seconds, spec §9). */
  onResult: (result: Notice) => void;
};

/**
 * 'Mark as Finished' for a dealer once the deal has a dealmaker; a disabled 'Completed' once their own
 * side is done. The server refuses it while the escrow is not locked or a dispute is open, and says why.
 */
export function MarkFinishedButton({ deal, viewer, onResult }: MarkFinishedButtonProps) {
  const mark = useMarkFinished();
  const confirmation = useConfirmation();
  const state = markFinishedState(deal, viewer);
  const otherSideDone = viewer.role === 'creator' ? deal.completed_by_counterpart : deal.completed_by_creator;
  const markFinished = () =>
    mark.mutateSettled(deal.id, {
      onSuccess: (answer) => onResult({ text: answer.message, tone: completionMessageTone(answer.message) }),
      onError: (error) => {
        console.error('Marking the deal finished failed', error);
        onResult({ text: completionFailed, tone: 'error', detail: serverReason(error) });
      },
    });
  if (state === 'hidden') return null;
  if (state === 'done') {
    return (
      <Button variant="success" disabled>
        <CheckCircleIcon size={16} />
        Completed
      </Button>
    );
  }
  return (
    <>
      <Button
        variant="success"
        loading={mark.isPending}
        onClick={() =>
          confirmation.ask(markFinishedConfirmation(deal, otherSideDone, { onConfirm: markFinished }))
        }
      >
        {mark.isPending ? 'Marking...' : 'Mark as Finished'}
      </Button>
      {confirmation.dialog}
    </>
  );
}
