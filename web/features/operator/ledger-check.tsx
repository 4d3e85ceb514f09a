import type { LedgerCheck } from '../../../contract/operator';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ErrorRetry } from '../../components/ui/error-retry';
import { LoadingState } from '../../components/ui/spinner';
import { serverReason } from '../../lib/api';
import { cn } from '../../lib/cn';
import { formatDateTime } from '../../lib/time';
import { useLedgerCheck } from './operator-api';
import { OperatorSection } from './operator-section';

const countLabels: Record<keyof LedgerCheck['counts'], string> = {
  transfers: 'Transfers',
  wallets: 'Wallets',
  escrows: 'Escrows',
  walletTransactions: 'Wallet transactions',
};

/** 'All 6 checks pass' or '2 of 6 checks fail'. */
export function ledgerVerdict(check: Pick<LedgerCheck, 'checks'>): string {
  const failing = check.checks.filter((one) => !one.ok).length;
  const total = check.checks.length;
  return failing === 0 ? `All ${total} checks pass` : `${failing} of ${total} checks fail`;
}

/** Every money invariant with its verdict and what breaks it; Run again checks anew. */
export function LedgerCheckSection() {
  const ledger = useLedgerCheck();
  return (
    <OperatorSection
      title="Ledger check"
      description="The money invariants: every transfer balanced, no wallet or escrow below zero, each balance chain intact."
      actions={
        <Button
          variant="outline"
          loading={ledger.isFetching}
          onClick={() => {
            if (!ledger.isFetching) void ledger.refetch();
          }}
        >
          {ledger.isFetching ? 'Checking...' : 'Run again'}
        </Button>
      }
    >
      {ledger.isPending ? (
        <LoadingState label="Loading the ledger check..." />
      ) : ledger.isError ? (
        <ErrorRetry detail={serverReason(ledger.error)} onRetry={ledger.refetch}>
          Failed to run the ledger check.
        </ErrorRetry>
      ) : (
        <LedgerReport check={ledger.data} />
      )}
    </OperatorSection>
  );
}

function LedgerReport({ check }: { check: LedgerCheck }) {
  return (
    <Card className="min-w-0 space-y-4 p-4 sm:p-5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className={cn('font-semibold', check.ok ? 'text-emerald-700' : 'text-rose-700')}>
          {ledgerVerdict(check)}
        </p>
        <p className="text-xs text-slate-500">Checked {formatDateTime(check.checkedAt)}</p>
      </div>
      <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
        {(Object.keys(countLabels) as Array<keyof LedgerCheck['counts']>).map((key) => (
          <div key={key} className="rounded-lg bg-slate-50 px-3 py-2">
            <dt className="text-xs text-slate-500">{countLabels[key]}</dt>
            <dd className="font-semibold text-slate-900 tabular-nums">{check.counts[key]}</dd>
          </div>
        ))}
      </dl>
      <ul className="space-y-2">
        {check.checks.map((one) => (
          <li
            key={one.name}
            aria-label={one.name}
            className="min-w-0 rounded-lg border border-slate-200 px-3 py-2.5"
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="min-w-0 text-sm font-medium break-words text-slate-900">{one.description}</p>
              <Badge tone={one.ok ? 'green' : 'red'}>{one.ok ? 'Pass' : 'Fail'}</Badge>
            </div>
            <p className="text-xs text-slate-500">
              Looks for: {one.name} ·{' '}
              {one.violations.length === 1 ? '1 violation' : `${one.violations.length} violations`}
            </p>
            {one.violations.length > 0 && (
              <pre className="mt-2 max-h-48 overflow-auto rounded bg-rose-50 p-2 text-xs text-rose-900">
                {one.violations.map((violation) => JSON.stringify(violation)).join('\n')}
              </pre>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}
