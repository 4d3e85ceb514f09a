import type { Deal } from '../../../contract/deals';
import { Button } from '../../components/ui/button';
import { CheckCircleIcon } from '../../components/ui/icons';
import { errorMessage } from '../../lib/api';
import { useMarkFinished } from './completion-api';
import { completionFailed, completionMessageTone, markFinishedState } from './completion-rules';

export type CompletionResult = { text: string; tone: 'success' | 'error'; detail?: string };

export type MarkFinishedButtonProps = {
  deal: Deal;
  viewer: { username: string };
  /** What the call answered, for the caller to show (5 seconds, spec §9). */
  onResult: (result: CompletionResult) => void;
};

/**
 * 'Mark as Finished' for a dealer once the deal has a dealmaker; a disabled 'Completed' once their own
 * side is done. The server refuses it while the escrow is not locked or a dispute is open, and says why.
 */
export function MarkFinishedButton({ deal, viewer, onResult }: MarkFinishedButtonProps) {
  const mark = useMarkFinished();
  const state = markFinishedState(deal, viewer.username);
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
    <Button
      variant="success"
      loading={mark.isPending}
      onClick={() =>
        mark.mutate(deal.id, {
          onSuccess: (answer) =>
            onResult({ text: answer.message, tone: completionMessageTone(answer.message) }),
          onError: (error) => {
            console.error('Marking the deal finished failed', error);
            const reason = errorMessage(error, '');
            onResult({ text: completionFailed, tone: 'error', detail: reason || undefined });
          },
        })
      }
    >
      {mark.isPending ? 'Marking...' : 'Mark as Finished'}
    </Button>
  );
}
