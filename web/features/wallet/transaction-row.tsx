import type { WalletTransaction } from '../../../contract/wallet';
import { ArrowLeftIcon, ArrowRightIcon } from '../../components/ui/icons';
import { cn } from '../../lib/cn';
import { formatMoney } from '../../lib/money';
import { formatDateTime } from '../../lib/time';
import { formatTransactionAmount, transactionDirection, transactionLabel } from './wallet-format';

/** One movement: what, when, how much and the balance after it; the whole row opens its receipt. */
export function TransactionRow({
  transaction,
  onOpen,
}: {
  transaction: WalletTransaction;
  onOpen: (transaction: WalletTransaction) => void;
}) {
  const incoming = transactionDirection(transaction) === 'in';
  return (
    <li>
      <button
        type="button"
        onClick={() => onOpen(transaction)}
        aria-haspopup="dialog"
        className="flex w-full cursor-pointer items-center gap-3 px-4 py-4 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-500 sm:gap-4 sm:px-6"
      >
        <span
          className={cn(
            'hidden h-10 w-10 shrink-0 items-center justify-center rounded-full sm:flex',
            incoming ? 'bg-emerald-50 text-emerald-700' : 'bg-rose-50 text-rose-700',
          )}
        >
          {incoming ? (
            <ArrowRightIcon size={18} className="rotate-90" />
          ) : (
            <ArrowLeftIcon size={18} className="rotate-90" />
          )}
        </span>
        <span className="min-w-0 flex-1">
          <span className="block font-medium break-words text-slate-900 first-letter:uppercase">
            {transactionLabel(transaction)}
          </span>
          <time dateTime={transaction.createdAt} className="block text-xs text-slate-600">
            {formatDateTime(transaction.createdAt)}
          </time>
        </span>
        <span className="shrink-0 text-right">
          <span
            className={cn(
              'block font-semibold tabular-nums',
              incoming ? 'text-emerald-700' : 'text-rose-700',
            )}
          >
            {formatTransactionAmount(transaction)}
          </span>
          <span className="block text-xs text-slate-600 tabular-nums">
            Balance: {formatMoney(transaction.balanceAfter)}
          </span>
        </span>
      </button>
    </li>
  );
}
