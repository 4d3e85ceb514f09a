import { type MouseEvent, useState } from 'react';
import { Link } from 'react-router';
import type { Deal } from '../../../contract/deals';
import { errorCodes } from '../../../contract/errors';
import type { Milestone } from '../../../contract/milestones';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { useConfirmationOf } from '../../components/ui/confirm-dialog';
import { CheckCircleIcon } from '../../components/ui/icons';
import { ApiError, errorMessage } from '../../lib/api';
import { cn } from '../../lib/cn';
import { useIdempotencyKeys } from '../../lib/idempotency-key';
import { useTimedMessage } from '../../lib/use-timed-message';
import type { DealViewer } from '../deals';
import { RaiseDisputeButton } from '../disputes';
import { depositFirstLabel } from '../escrow';
import { useWallet } from '../wallet';
import {
  approveConfirmation,
  payShareConfirmation,
  takeShareBackConfirmation,
} from './milestone-confirmations';
import { disputeTitleOf } from './milestone-texts';
import { type MilestoneAction, useMilestoneAction } from './milestones-api';
import { SubmitMilestoneDialog } from './submit-milestone-dialog';

/** Answers stay 5 seconds, as the escrow's (spec §9); one that links to the wallet stays until closed. */
const messageDurationMs = 5000;
/** Where a dealer short of money goes: the wallet, to deposit. */
const walletPath = '/deposit';

const failures: Record<MilestoneAction, string> = {
  pay: 'Failed to pay your share. Please try again.',
  refund: 'Failed to take your share back. Please try again.',
  submit: 'Failed to submit the milestone. Please try again.',
  approve: 'Failed to approve the milestone. Please try again.',
};

/** A second (or later) click of a double click: Pay and Take back replace each other in the same spot. */
const isRepeatClick = (event: MouseEvent<HTMLButtonElement>) => event.detail > 1;

type Result = { text: string; tone: 'success' | 'error'; needsDeposit?: boolean };

export type MilestoneActionsProps = {
  deal: Deal;
  viewer: DealViewer;
  milestone: Milestone;
  /**
   * The deal has one milestone (no plan agreed): its shares are the escrow's halves, paid and taken back
   * with the Escrow Payment Status box's buttons, so they are not offered twice.
   */
  single: boolean;
};

/**
 * A milestone's buttons, each shown only when the server says the viewer may (`milestone.can`): Pay my
 * share and Take my share back (confirmed in numbers, with an Idempotency-Key, a short balance said
 * before the click as the escrow's half does), Submit for approval (the dealmaker, with an optional
 * note), Approve (the dealers, confirmed), and Raise a dispute on a submitted milestone.
 */
export function MilestoneActions({ deal, viewer, milestone, single }: MilestoneActionsProps) {
  const keys = useIdempotencyKeys();
  const [result, showResult] = useTimedMessage<Result>(messageDurationMs, {
    stays: (message) => !!message.needsDeposit,
  });
  const act = useMilestoneAction();
  const [submitting, setSubmitting] = useState(false);
  const balance = useWallet().data?.balance;
  const side = viewer.role === 'creator' || viewer.role === 'counterpart' ? viewer.role : null;
  const myShare = side === 'creator' ? milestone.creatorShare : milestone.counterpartShare;

  /** Runs the call; settles when its answer is in (a confirmation waits on it). */
  const run = (action: MilestoneAction, note?: string | null) => {
    const name = `${action}:${milestone.id}`;
    const money = action === 'pay' || action === 'refund';
    showResult(null);
    return act.mutateSettled(
      {
        dealId: deal.id,
        milestoneId: milestone.id,
        action,
        note,
        idempotencyKey: money ? keys.keyFor(name) : undefined,
      },
      {
        onSuccess: (answer) => {
          if (money) keys.succeeded(name);
          showResult({ text: answer.message, tone: 'success' });
        },
        onError: (error) => {
          console.error(`Milestone ${action} failed`, error);
          showResult({
            text: errorMessage(error, failures[action]),
            tone: 'error',
            needsDeposit: error instanceof ApiError && error.code === errorCodes.insufficientFunds,
          });
        },
      },
    );
  };

  const people = {
    dealmaker: deal.dealmaker ?? '',
    otherDealer: (side === 'creator' ? deal.dealer_joined : deal.dealer_creator) ?? '',
  };
  const otherApproved = side === 'creator' ? milestone.counterpartApproved : milestone.creatorApproved;
  // Built on every render while open: the balance may arrive after the click.
  const confirmation = useConfirmationOf((action: 'pay' | 'refund' | 'approve') => {
    if (action === 'approve') {
      return approveConfirmation(milestone, people, otherApproved, { onConfirm: () => run('approve') });
    }
    if (action === 'refund') {
      return takeShareBackConfirmation(deal, milestone, myShare, balance, { onConfirm: () => run('refund') });
    }
    const pay = payShareConfirmation(deal, milestone, myShare, balance, { onConfirm: () => run('pay') });
    if (!pay.blocked) return pay;
    const remedy = (
      <>
        <Link to={walletPath} className="font-semibold underline underline-offset-2">
          {depositFirstLabel}
        </Link>
        .
      </>
    );
    return { ...pay, blocked: { ...pay.blocked, remedy } };
  });

  const running = act.isPending ? act.variables?.action : undefined;
  const { can } = milestone;
  const canPay = !!can.pay && !single;
  const canRefund = !!can.refund && !single;
  const canDispute = viewer.isDealer && milestone.status === 'submitted' && !!deal.can.raiseDispute;
  const anything = canPay || canRefund || can.submit || can.approve || canDispute;

  return (
    <>
      {/* Kept while empty: the dispute dialog opened from here outlives its button (its portal shows). */}
      {(anything || viewer.isDealer) && (
        <div className={cn('flex flex-wrap items-center gap-2', !anything && 'hidden')}>
          {canPay && (
            <Button
              size="sm"
              variant="success"
              onClick={(event) => {
                if (!isRepeatClick(event)) confirmation.ask('pay');
              }}
              loading={running === 'pay'}
            >
              {running === 'pay' ? 'Paying...' : 'Pay my share'}
            </Button>
          )}
          {canRefund && (
            <Button
              size="sm"
              variant="outline"
              onClick={(event) => {
                if (!isRepeatClick(event)) confirmation.ask('refund');
              }}
              disabled={act.isPending}
              loading={running === 'refund'}
            >
              {running === 'refund' ? 'Refunding...' : 'Take my share back'}
            </Button>
          )}
          {can.submit && (
            <Button size="sm" onClick={() => setSubmitting(true)} loading={running === 'submit'}>
              {running === 'submit' ? 'Submitting...' : 'Submit for approval'}
            </Button>
          )}
          {can.approve && (
            <Button
              size="sm"
              variant="success"
              onClick={() => confirmation.ask('approve')}
              loading={running === 'approve'}
            >
              <CheckCircleIcon size={16} />
              {running === 'approve' ? 'Approving...' : 'Approve'}
            </Button>
          )}
          {viewer.isDealer && (
            <RaiseDisputeButton
              deal={deal}
              viewer={viewer}
              title={disputeTitleOf(milestone)}
              shown={canDispute}
            />
          )}
        </div>
      )}
      {canPay && (
        <p className="text-xs text-slate-500">
          Your share is paid from your wallet; you can take it back until the other dealer pays theirs.
        </p>
      )}
      {confirmation.dialog}
      <SubmitMilestoneDialog
        milestone={milestone}
        open={submitting}
        onOpenChange={setSubmitting}
        onSubmit={(note) => run('submit', note)}
      />
      {result && (
        <Alert
          variant={result.tone}
          // Its link must not vanish before it is followed: it stays until closed.
          onDismiss={result.needsDeposit ? () => showResult(null) : undefined}
          detail={
            result.needsDeposit ? (
              <Link to={walletPath} className="font-medium underline">
                Go to Wallet & Deposits
              </Link>
            ) : undefined
          }
        >
          {result.text}
        </Alert>
      )}
    </>
  );
}
