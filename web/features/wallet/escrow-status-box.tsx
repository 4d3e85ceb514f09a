import type { MouseEvent } from 'react';
import { Link } from 'react-router';
import type { Deal } from '../../../contract/deals';
import { errorCodes } from '../../../contract/errors';
import { Alert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { CheckCircleIcon, ClockIcon, ShieldIcon } from '../../components/ui/icons';
import { Spinner } from '../../components/ui/spinner';
import { ApiError, errorMessage } from '../../lib/api';
import { cn } from '../../lib/cn';
import { formatMoney } from '../../lib/money';
import { useTimedMessage } from '../../lib/use-timed-message';
import { type EscrowView, escrowMessageTone, escrowViewOf } from './escrow-state';
import { useIdempotencyKeys } from './idempotency-key';
import { type EscrowAction, useEscrowAction, useEscrowStatus } from './wallet-api';

/** Result messages stay 5 seconds (spec §9). */
const messageDurationMs = 5000;

type Result = { text: string; tone: 'success' | 'error'; needsDeposit?: boolean };

/**
 * The second (or later) click of a double click. 'Pay my half' and 'Take my half back' replace each
 * other in the same spot, so once the first click's answer is in, the rest of a double click would
 * land on the other button and undo the payment (or pay again). Keyboard activation has detail 0.
 */
const isRepeatClick = (event: MouseEvent<HTMLButtonElement>) => event.detail > 1;

export type EscrowStatusBoxProps = {
  deal: Deal;
  /** The signed-in user. */
  viewer: { username: string };
};

const isParticipant = (deal: Deal, username: string) =>
  [deal.dealer_creator, deal.dealer_joined, deal.dealmaker].some(
    (name) => !!name && name.toLowerCase() === username.toLowerCase(),
  );

/**
 * 'Escrow Payment Status' (spec §2, §4 Escrow): shown to the deal's participants once it has a
 * dealmaker. Each dealer pays their own half from their wallet; both halves lock the escrow until
 * completion, which releases it to the dealmaker. A dealer may take an unlocked half back.
 */
export function EscrowStatusBox({ deal, viewer }: EscrowStatusBoxProps) {
  const visible = !!deal.dealmaker && isParticipant(deal, viewer.username);
  const status = useEscrowStatus(deal.id, visible);
  const keys = useIdempotencyKeys();
  const [result, showResult] = useTimedMessage<Result>(messageDurationMs);
  const act = useEscrowAction();

  if (!visible) return null;

  const view = escrowViewOf(deal, status.data?.escrow ?? null, viewer.username);

  const run = (action: EscrowAction) => {
    const name = `${action}:${deal.id}`;
    showResult(null);
    act.mutate(
      { dealId: deal.id, action, idempotencyKey: keys.keyFor(name) },
      {
        onSuccess: (answer) => {
          keys.succeeded(name);
          // A payment's message is coloured by what it says (spec §8); a refund always went well.
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

  return (
    <Card className="overflow-hidden">
      <section aria-labelledby={`escrow-title-${deal.id}`}>
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-100 px-6 py-4">
          <div className="flex items-center gap-3">
            <span className="flex h-9 w-9 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600">
              <ShieldIcon size={20} />
            </span>
            <h2 id={`escrow-title-${deal.id}`} className="text-lg font-semibold text-slate-900">
              Escrow Payment Status
            </h2>
          </div>
          {status.data && <StatusBadge view={view} />}
        </div>
        <div className="space-y-4 px-6 py-5">
          {status.isPending ? (
            <div className="flex justify-center py-6 text-indigo-500">
              <Spinner label="Loading escrow status" />
            </div>
          ) : status.isError ? (
            <div className="space-y-3">
              <Alert variant="error" detail={errorMessage(status.error, '') || undefined}>
                Failed to load the escrow status.
              </Alert>
              <Button variant="outline" size="sm" onClick={() => status.refetch()}>
                Try again
              </Button>
            </div>
          ) : (
            <>
              <div className="flex flex-wrap items-baseline justify-between gap-2 rounded-xl bg-slate-50 px-4 py-3">
                <span className="text-sm font-medium text-slate-600">Total escrow amount</span>
                <span className="text-xl font-bold text-slate-900 tabular-nums">
                  {formatMoney(view.total)}
                </span>
              </div>
              <ul className="grid gap-3 sm:grid-cols-2">
                <SideRow
                  label="Creator's half"
                  username={deal.dealer_creator}
                  amount={view.creatorAmount}
                  paid={view.creatorPaid}
                  mine={view.mySide === 'creator'}
                />
                <SideRow
                  label="Counterpart's half"
                  username={deal.dealer_joined}
                  amount={view.counterpartAmount}
                  paid={view.counterpartPaid}
                  mine={view.mySide === 'counterpart'}
                />
              </ul>

              {view.notice && <Alert variant="success">{view.notice}</Alert>}
              {view.payBlockedReason && <Alert variant="info">{view.payBlockedReason}</Alert>}
              {!view.notice && view.mySide === null && (
                <p className="text-sm text-slate-500">
                  Each dealer pays half of the budget into escrow; it is released to you when both mark the
                  deal as finished.
                </p>
              )}

              {(view.canPay || view.canRefund || view.payBlockedReason) && (
                <div className="flex flex-wrap items-center gap-3">
                  {(view.canPay || view.payBlockedReason) && (
                    <Button
                      variant="success"
                      onClick={(event) => {
                        if (!isRepeatClick(event)) run('lock');
                      }}
                      disabled={!view.canPay}
                      loading={act.isPending && act.variables?.action === 'lock'}
                    >
                      {act.isPending && act.variables?.action === 'lock' ? 'Paying...' : 'Pay my half'}
                    </Button>
                  )}
                  {view.canPay && view.myAmount !== null && (
                    <p className="text-sm text-slate-600">
                      Your half: <span className="font-semibold">{formatMoney(view.myAmount)}</span>, paid
                      from your wallet.
                    </p>
                  )}
                  {view.canRefund && (
                    <Button
                      variant="outline"
                      onClick={(event) => {
                        if (!isRepeatClick(event)) run('refund');
                      }}
                      disabled={act.isPending}
                      loading={act.isPending && act.variables?.action === 'refund'}
                    >
                      {act.isPending && act.variables?.action === 'refund'
                        ? 'Refunding...'
                        : 'Take my half back'}
                    </Button>
                  )}
                  {view.canRefund && (
                    <p className="text-xs text-slate-500">
                      You can take your half back until the other dealer pays theirs.
                    </p>
                  )}
                </div>
              )}

              {result && (
                <Alert
                  variant={result.tone}
                  detail={
                    result.needsDeposit ? (
                      <Link to="/deposit" className="font-medium underline">
                        Go to Wallet & Deposits
                      </Link>
                    ) : undefined
                  }
                >
                  {result.text}
                </Alert>
              )}
            </>
          )}
        </div>
      </section>
    </Card>
  );
}

function StatusBadge({ view }: { view: EscrowView }) {
  if (view.status === 'completed') return <Badge tone="green">Released</Badge>;
  if (view.status === 'locked') return <Badge tone="indigo">Locked</Badge>;
  const paid = Number(view.creatorPaid) + Number(view.counterpartPaid);
  return <Badge tone="amber">{paid === 1 ? 'Pending · 1 of 2 paid' : 'Pending'}</Badge>;
}

function SideRow({
  label,
  username,
  amount,
  paid,
  mine,
}: {
  label: string;
  username: string | null;
  amount: number;
  paid: boolean;
  mine: boolean;
}) {
  return (
    <li
      className={cn(
        'flex items-center justify-between gap-3 rounded-xl border px-4 py-3',
        paid ? 'border-emerald-200 bg-emerald-50/60' : 'border-slate-200',
      )}
    >
      <div className="min-w-0">
        <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</p>
        <p className="truncate text-sm text-slate-900">
          {username ? `@${username}` : <span className="text-slate-400 italic">No counterpart yet</span>}
          {mine && <span className="ml-1.5 text-xs font-medium text-indigo-600">(you)</span>}
        </p>
        <p className="text-sm font-semibold text-slate-900 tabular-nums">{formatMoney(amount)}</p>
      </div>
      <span
        className={cn(
          'inline-flex shrink-0 items-center gap-1 text-sm font-medium',
          paid ? 'text-emerald-700' : 'text-slate-500',
        )}
      >
        {paid ? <CheckCircleIcon size={18} /> : <ClockIcon size={18} />}
        {paid ? 'Paid' : 'Not paid'}
      </span>
    </li>
  );
}
