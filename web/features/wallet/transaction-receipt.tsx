import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { balanceBefore, transactionReference, type WalletTransaction } from '../../../contract/wallet';
import { Dialog } from '../../components/ui/dialog';
import { formatMoney } from '../../lib/money';
import { formatDateTime } from '../../lib/time';
import { useDeal } from '../deals';
import { counterpartOf, transactionTypeLabels } from './transaction-labels';
import { formatTransactionAmount, transactionLabel } from './wallet-format';

/**
 * The receipt of one movement: type, amount, balance before and after, when, the deal it belongs to,
 * the other side, and a reference to quote.
 */
export function TransactionReceipt({
  transaction,
  onClose,
}: {
  transaction: WalletTransaction | null;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={transaction !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Receipt"
      description={transaction ? transactionReference(transaction.id) : undefined}
      size="md"
    >
      {transaction && <ReceiptBody transaction={transaction} />}
    </Dialog>
  );
}

function ReceiptBody({ transaction }: { transaction: WalletTransaction }) {
  const dealId = transaction.dealId ?? Number.NaN;
  const deal = useDeal(dealId);
  const incoming = formatTransactionAmount(transaction).startsWith('+');
  return (
    <div className="space-y-5">
      <div className="rounded-xl bg-slate-50 px-4 py-4 text-center">
        <p className="text-sm font-medium text-slate-600">{transactionTypeLabels[transaction.type]}</p>
        <p
          className={`mt-1 text-3xl font-bold tabular-nums ${incoming ? 'text-emerald-700' : 'text-rose-700'}`}
        >
          {formatTransactionAmount(transaction)}
        </p>
        <p className="mt-1 text-sm break-words text-slate-600">{transactionLabel(transaction)}</p>
      </div>
      <dl className="divide-y divide-slate-100 text-sm">
        <Line label="Balance before">{formatMoney(balanceBefore(transaction))}</Line>
        <Line label="Balance after">{formatMoney(transaction.balanceAfter)}</Line>
        <Line label="Date and time">
          <time dateTime={transaction.createdAt}>{formatDateTime(transaction.createdAt)}</time>
        </Line>
        {transaction.dealId !== undefined && (
          <Line label="Deal">
            <Link
              to={`/deals/${transaction.dealId}`}
              className="text-indigo-700 underline-offset-2 hover:underline"
            >
              {deal.data?.title ?? `Deal #${transaction.dealId}`}
            </Link>
          </Line>
        )}
        <Line label="Other side">{counterpartOf(transaction, deal.data)}</Line>
        <Line label="Reference">
          <span className="font-mono">{transactionReference(transaction.id)}</span>
        </Line>
      </dl>
    </div>
  );
}

function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-2.5 sm:grid-cols-[9rem_minmax(0,1fr)] sm:gap-4">
      <dt className="text-slate-600">{label}</dt>
      <dd className="min-w-0 font-medium break-words text-slate-900 tabular-nums">{children}</dd>
    </div>
  );
}
