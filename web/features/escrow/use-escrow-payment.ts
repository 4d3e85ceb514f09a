import { errorCodes } from '../../../contract/errors';
import { ApiError, errorMessage } from '../../lib/api';
import { useIdempotencyKeys } from '../../lib/idempotency-key';
import { useTimedMessage } from '../../lib/use-timed-message';
import { type EscrowAction, useEscrowAction } from './escrow-api';
import { escrowMessageTone } from './escrow-state';

/** Result messages stay 5 seconds (spec §9); one that links to the wallet stays until closed. */
const messageDurationMs = 5000;

export type EscrowResult = { text: string; tone: 'success' | 'error'; needsDeposit?: boolean };

/**
 * Paying my half ('lock') and taking it back ('refund'), each with its Idempotency-Key, and the
 * answer to show: a payment's message is coloured by what it says (spec §8), a refund always went
 * well; a refusal for lack of money points to the wallet, and stays until closed (`dismiss`) so that
 * its link can be followed.
 */
export function useEscrowPayment(dealId: number) {
  const keys = useIdempotencyKeys();
  const [result, showResult] = useTimedMessage<EscrowResult>(messageDurationMs, {
    stays: (message) => !!message.needsDeposit,
  });
  const act = useEscrowAction();

  /** Runs the call; settles when its answer is in (a confirmation waits on it). */
  const run = (action: EscrowAction) => {
    const name = `${action}:${dealId}`;
    showResult(null);
    return act.mutateSettled(
      { dealId, action, idempotencyKey: keys.keyFor(name) },
      {
        onSuccess: (answer) => {
          keys.succeeded(name);
          showResult({
            text: answer.message,
            tone: action === 'lock' ? escrowMessageTone(answer.message) : 'success',
          });
        },
        onError: (error) => {
          console.error(`Escrow ${action} failed`, error);
          const text = errorMessage(
            error,
            action === 'lock'
              ? 'Failed to lock escrow. Please try again.'
              : 'Failed to take your half back. Please try again.',
          );
          showResult({
            text,
            tone: action === 'lock' ? escrowMessageTone(text) : 'error',
            needsDeposit: error instanceof ApiError && error.code === errorCodes.insufficientFunds,
          });
        },
      },
    );
  };

  /** The action under way, if any. */
  const running = act.isPending ? act.variables?.action : undefined;
  return { run, running, busy: act.isPending, result, dismiss: () => showResult(null) };
}
