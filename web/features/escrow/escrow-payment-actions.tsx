import type { MouseEvent } from 'react';
import { Link } from 'react-router';
import type { Deal } from '../../../contract/deals';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { useConfirmationOf } from '../../components/ui/confirm-dialog';
import { formatMoney } from '../../lib/money';
import { useWallet } from '../wallet';
import { depositFirstLabel, payHalfConfirmation, takeHalfBackConfirmation } from './escrow-confirmations';
import type { EscrowView } from './escrow-state';
import type { useEscrowPayment } from './use-escrow-payment';

/**
 * The second (or later) click of a double click. 'Pay my half' and 'Take my half back' replace each
 * other in the same spot, so the rest of a double click (on the button, or on the confirmation's button
 * right after it closed) must not ask again for the other one. Keyboard activation has detail 0.
 */
const isRepeatClick = (event: MouseEvent<HTMLButtonElement>) => event.detail > 1;

type EscrowPaymentActionsProps = {
  deal: Pick<Deal, 'title'>;
  view: EscrowView;
  payment: ReturnType<typeof useEscrowPayment>;
};

/** Where a dealer short of money goes: the wallet, to deposit. */
const walletPath = '/deposit';

/**
 * A dealer's 'Pay my half' or 'Take my half back', each confirmed in numbers first, and the answer to the
 * last one. A balance short of the half is said before the click, with the way to the wallet, and the
 * payment is not offered.
 */
export function EscrowPaymentActions({ deal, view, payment }: EscrowPaymentActionsProps) {
  const { run, running, busy, result, dismiss } = payment;
  const balance = useWallet().data?.balance;
  const amount = view.myAmount ?? 0;
  // Built on every render while open: the balance may arrive after the click.
  const confirmation = useConfirmationOf((action: 'lock' | 'refund') => {
    if (action === 'refund') {
      return takeHalfBackConfirmation(deal, amount, balance, { onConfirm: () => run('refund') });
    }
    const pay = payHalfConfirmation(deal, amount, balance, { onConfirm: () => run('lock') });
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
  const askPay = () => confirmation.ask('lock');
  const askRefund = () => confirmation.ask('refund');
  return (
    <>
      {(view.canPay || view.canRefund || view.payBlockedReason) && (
        <div className="flex flex-wrap items-center gap-3">
          {(view.canPay || view.payBlockedReason) && (
            <Button
              variant="success"
              onClick={(event) => {
                if (!isRepeatClick(event)) askPay();
              }}
              disabled={!view.canPay}
              loading={running === 'lock'}
            >
              {running === 'lock' ? 'Paying...' : 'Pay my half'}
            </Button>
          )}
          {view.canPay && view.myAmount !== null && (
            <p className="text-sm text-slate-600">
              Your half: <span className="font-semibold">{formatMoney(view.myAmount)}</span>, paid from your
              wallet.
            </p>
          )}
          {view.canRefund && (
            <Button
              variant="outline"
              onClick={(event) => {
                if (!isRepeatClick(event)) askRefund();
              }}
              disabled={busy}
              loading={running === 'refund'}
            >
              {running === 'refund' ? 'Refunding...' : 'Take my half back'}
            </Button>
          )}
          {view.canRefund && (
            <p className="text-xs text-slate-500">
              You can take your half back until the other dealer pays theirs.
            </p>
          )}
        </div>
      )}
      {confirmation.dialog}
      {result && (
        <Alert
          variant={result.tone}
          // Its link must not vanish before it is followed: it stays until closed.
          onDismiss={result.needsDeposit ? dismiss : undefined}
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
