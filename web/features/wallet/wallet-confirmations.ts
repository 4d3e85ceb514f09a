import { formatUsdCents } from '../../../contract/money';
import type { Confirmation } from '../../components/ui/confirm-dialog';
import type { MovementKind } from './wallet-api';

/** What Deposit and Withdraw ask before moving money; `balanceCents` is undefined while unknown. */
export function movementConfirmation(
  kind: MovementKind,
  cents: number,
  balanceCents: number | undefined,
  action: Pick<Confirmation, 'onConfirm'>,
): Confirmation {
  const afterCents =
    balanceCents === undefined ? undefined : balanceCents + (kind === 'deposit' ? cents : -cents);
  const balanceAfter = afterCents === undefined ? '' : ` Balance after: ${formatUsdCents(afterCents)}.`;
  const facts =
    balanceCents === undefined || afterCents === undefined
      ? undefined
      : [
          { label: 'Your balance now', value: formatUsdCents(balanceCents) },
          { label: 'Balance after', value: formatUsdCents(afterCents) },
        ];
  return kind === 'deposit'
    ? {
        title: 'Deposit into your wallet?',
        message: `Deposit ${formatUsdCents(cents)} into your wallet (simulated: no card or bank is charged).${balanceAfter}`,
        facts,
        confirmLabel: 'Deposit',
        busyLabel: 'Processing...',
        ...action,
      }
    : {
        title: 'Withdraw from your wallet?',
        message: `Withdraw ${formatUsdCents(cents)} from your wallet.${balanceAfter}`,
        facts,
        confirmLabel: 'Withdraw',
        busyLabel: 'Processing...',
        ...action,
      };
}
