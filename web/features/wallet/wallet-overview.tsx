import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { ErrorRetry } from '../../components/ui/error-retry';
import { ArrowLeftIcon, ArrowRightIcon, WalletIcon } from '../../components/ui/icons';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import { formatMoney } from '../../lib/money';
import { useWallet } from './wallet-api';

export const walletLoadFailed = 'Failed to load wallet data';

/** Current Balance, Total Deposited and Total Withdrawn (spec §2 Wallet page). */
export function WalletOverview() {
  const wallet = useWallet();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Wallet Overview</CardTitle>
      </CardHeader>
      <CardContent>
        {wallet.isError ? (
          <ErrorRetry onRetry={wallet.refetch}>{walletLoadFailed}</ErrorRetry>
        ) : (
          <dl className="grid gap-4 sm:grid-cols-3">
            <Stat
              label="Current Balance"
              value={wallet.data?.balance}
              icon={<WalletIcon size={20} />}
              className="bg-indigo-600 text-white [&_dt]:text-indigo-100"
              iconClassName="bg-white/15 text-white"
            />
            <Stat
              label="Total Deposited"
              value={wallet.data?.totalDeposited}
              icon={<ArrowRightIcon size={20} className="rotate-90" />}
              className="bg-emerald-50 text-emerald-900 [&_dt]:text-emerald-800"
              iconClassName="bg-white text-emerald-600"
            />
            <Stat
              label="Total Withdrawn"
              value={wallet.data?.totalWithdrawn}
              icon={<ArrowLeftIcon size={20} className="rotate-90" />}
              className="bg-slate-50 text-slate-900 [&_dt]:text-slate-600"
              iconClassName="bg-white text-slate-500"
            />
          </dl>
        )}
      </CardContent>
    </Card>
  );
}

function Stat({
  label,
  value,
  icon,
  className,
  iconClassName,
}: {
  label: string;
  value: number | undefined;
  icon: ReactNode;
  className: string;
  iconClassName: string;
}) {
  return (
    // dt and dd sit directly in the stat (the icon inside dt), as a description list requires.
    <div className={cn('relative min-w-0 rounded-xl py-4 pr-5 pl-20', className)}>
      <dt className="text-xs font-medium tracking-wide uppercase">
        <span
          className={cn(
            'absolute top-1/2 left-5 flex h-11 w-11 -translate-y-1/2 items-center justify-center rounded-xl',
            iconClassName,
          )}
        >
          {icon}
        </span>
        {label}
      </dt>
      <dd className="mt-0.5 truncate text-2xl font-bold tabular-nums">
        {value === undefined ? <Spinner size="sm" label={`Loading ${label}`} /> : formatMoney(value)}
      </dd>
    </div>
  );
}
