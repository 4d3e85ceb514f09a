import { Link } from 'react-router';
import type { WalletTransaction } from '../../../contract/wallet';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { ArrowLeftIcon, ArrowRightIcon, ClockIcon } from '../../components/ui/icons';
import { LoadingState } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import { formatMoney } from '../../lib/money';
import { formatDateTime } from '../../lib/time';
import { useWalletTransactions } from './wallet-api';
import { formatTransactionAmount, transactionDirection, transactionLabel } from './wallet-format';
import { walletLoadFailed } from './wallet-overview';

/** Every movement of the wallet, newest first, with the balance after it; older rows on demand. */
export function TransactionHistory() {
  const history = useWalletTransactions();
  const rows = history.data?.pages.flat() ?? [];

  return (
    <Card>
      <CardHeader>
        <CardTitle>Transaction History</CardTitle>
        <CardDescription>Deposits, withdrawals and escrow payments, newest first.</CardDescription>
      </CardHeader>
      <CardContent className="px-0 py-0">
        {history.isPending ? (
          <LoadingState label="Loading transactions..." />
        ) : history.isError && rows.length === 0 ? (
          <div className="space-y-3 px-6 py-5">
            <Alert variant="error">{walletLoadFailed}</Alert>
            <Button variant="outline" size="sm" onClick={() => history.refetch()}>
              Try again
            </Button>
          </div>
        ) : rows.length === 0 ? (
          <EmptyState
            icon={<ClockIcon size={28} />}
            title="No transactions yet"
            description="Your deposits, withdrawals and escrow payments will appear here."
          />
        ) : (
          <>
            <ul className="divide-y divide-slate-100">
              {rows.map((transaction) => (
                <TransactionRow key={transaction.id} transaction={transaction} />
              ))}
            </ul>
            {history.isFetchNextPageError && (
              <Alert variant="error" className="mx-6 mt-4">
                {walletLoadFailed}
              </Alert>
            )}
            {history.hasNextPage && (
              <div className="flex justify-center border-t border-slate-100 px-6 py-4">
                <Button
                  variant="outline"
                  loading={history.isFetchingNextPage}
                  onClick={() => history.fetchNextPage()}
                >
                  {history.isFetchingNextPage ? 'Loading...' : 'Load more'}
                </Button>
              </div>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

function TransactionRow({ transaction }: { transaction: WalletTransaction }) {
  const incoming = transactionDirection(transaction) === 'in';
  return (
    <li className="flex items-center gap-4 px-6 py-4">
      <span
        className={cn(
          'flex h-10 w-10 shrink-0 items-center justify-center rounded-full',
          incoming ? 'bg-emerald-50 text-emerald-600' : 'bg-rose-50 text-rose-600',
        )}
      >
        {incoming ? (
          <ArrowRightIcon size={18} className="rotate-90" />
        ) : (
          <ArrowLeftIcon size={18} className="rotate-90" />
        )}
      </span>
      <div className="min-w-0 flex-1">
        <p className="truncate font-medium text-slate-900 first-letter:uppercase">
          {transactionLabel(transaction)}
        </p>
        <p className="flex flex-wrap items-center gap-x-3 text-xs text-slate-500">
          <time dateTime={transaction.createdAt}>{formatDateTime(transaction.createdAt)}</time>
          {transaction.dealId !== undefined && (
            <Link to={`/deals/${transaction.dealId}`} className="text-indigo-600 hover:underline">
              View deal
            </Link>
          )}
        </p>
      </div>
      <div className="shrink-0 text-right">
        <p className={cn('font-semibold tabular-nums', incoming ? 'text-emerald-600' : 'text-rose-600')}>
          {formatTransactionAmount(transaction)}
        </p>
        <p className="text-xs text-slate-500 tabular-nums">
          Balance: {formatMoney(transaction.balanceAfter)}
        </p>
      </div>
    </li>
  );
}
