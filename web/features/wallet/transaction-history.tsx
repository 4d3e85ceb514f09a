import { useState } from 'react';
import {
  type WalletTransaction,
  type WalletTransactionType,
  walletTransactionTypes,
} from '../../../contract/wallet';
import { Alert } from '../../components/ui/alert';
import { buttonClasses } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { ErrorRetry } from '../../components/ui/error-retry';
import { ClockIcon } from '../../components/ui/icons';
import { LoadMore } from '../../components/ui/load-more';
import { LoadingState } from '../../components/ui/spinner';
import { transactionTypeLabels } from './transaction-labels';
import { TransactionReceipt } from './transaction-receipt';
import { TransactionRow } from './transaction-row';
import { transactionsCsvUrl, useWalletTransactions } from './wallet-api';
import { walletLoadFailed } from './wallet-overview';

/**
 * Every movement of the wallet, newest first, with the balance after it; older rows on demand, one type
 * at a time if asked, the whole history as CSV, and each row's receipt.
 */
export function TransactionHistory() {
  const [type, setType] = useState<WalletTransactionType | ''>('');
  const [receipt, setReceipt] = useState<WalletTransaction | null>(null);
  const history = useWalletTransactions(type);
  const rows = history.data?.pages.flat() ?? [];

  return (
    <Card>
      <CardHeader className="gap-3">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <CardTitle>Transaction History</CardTitle>
            <CardDescription>Newest first. Open a movement for its receipt.</CardDescription>
          </div>
          <a
            href={transactionsCsvUrl(type)}
            download
            className={buttonClasses({ variant: 'outline', size: 'sm' })}
          >
            Download CSV
          </a>
        </div>
        <div className="flex items-center gap-3">
          <label htmlFor="transaction-type" className="text-sm font-medium text-slate-700">
            Type
          </label>
          <select
            id="transaction-type"
            value={type}
            onChange={(event) => setType(event.target.value as WalletTransactionType | '')}
            className="h-10 min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none sm:flex-none"
          >
            <option value="">All types</option>
            {walletTransactionTypes.map((value) => (
              <option key={value} value={value}>
                {transactionTypeLabels[value]}
              </option>
            ))}
          </select>
        </div>
      </CardHeader>
      <CardContent className="px-0 py-0">
        {history.isPending ? (
          <LoadingState label="Loading transactions..." />
        ) : history.isError && rows.length === 0 ? (
          <ErrorRetry onRetry={history.refetch} className="px-6 py-5">
            {walletLoadFailed}
          </ErrorRetry>
        ) : rows.length === 0 ? (
          <EmptyState
            icon={<ClockIcon size={28} />}
            title={type ? `No ${transactionTypeLabels[type].toLowerCase()} yet` : 'No transactions yet'}
            description="Your deposits, withdrawals and escrow payments will appear here."
          />
        ) : (
          <>
            <ul className="divide-y divide-slate-100">
              {rows.map((transaction) => (
                <TransactionRow key={transaction.id} transaction={transaction} onOpen={setReceipt} />
              ))}
            </ul>
            {history.isFetchNextPageError && (
              <Alert variant="error" className="mx-6 mt-4">
                {walletLoadFailed}
              </Alert>
            )}
            <LoadMore query={history} className="border-t border-slate-100 px-6 py-4" />
          </>
        )}
      </CardContent>
      <TransactionReceipt transaction={receipt} onClose={() => setReceipt(null)} />
    </Card>
  );
}
