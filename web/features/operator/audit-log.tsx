import { type FormEvent, useState } from 'react';
import type { AuditEntry } from '../../../contract/operator';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ErrorRetry } from '../../components/ui/error-retry';
import { TextField } from '../../components/ui/input';
import { LoadMore } from '../../components/ui/load-more';
import { LoadingState } from '../../components/ui/spinner';
import { serverReason } from '../../lib/api';
import { cn } from '../../lib/cn';
import { formatDateTime } from '../../lib/time';
import { type AuditFilters, useAuditLog } from './operator-api';
import { OperatorSection } from './operator-section';

const noFilters: AuditFilters = { dealId: '', username: '' };

/** The audit table's columns: heading, cell, and how the cell is set. */
const auditColumns: Array<{ label: string; cell: (entry: AuditEntry) => string; className: string }> = [
  {
    label: 'Time',
    cell: (entry) => formatDateTime(entry.createdAt),
    className: 'whitespace-nowrap text-slate-600',
  },
  {
    label: 'Actor',
    cell: (entry) => (entry.actor ? `@${entry.actor.username}` : 'system'),
    className: 'whitespace-nowrap',
  },
  {
    label: 'Action',
    cell: (entry) => entry.action,
    className: 'font-medium whitespace-nowrap text-slate-900',
  },
  {
    label: 'Deal',
    cell: (entry) => (entry.dealId === null ? '—' : `#${entry.dealId}`),
    className: 'whitespace-nowrap',
  },
  { label: 'Subject', cell: (entry) => entry.subject ?? '—', className: 'whitespace-nowrap text-slate-600' },
  {
    label: 'Details',
    cell: (entry) => auditDetails(entry),
    className: 'min-w-[22rem] font-mono text-xs break-all text-slate-600',
  },
];

/** What an entry changed, in one line (the row after, or before for a deletion), cut short. */
export function auditDetails(entry: Pick<AuditEntry, 'before' | 'after'>, max = 140): string {
  const shown = entry.after ?? entry.before;
  if (shown === null || shown === undefined) return '';
  const text = JSON.stringify(shown);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The audit log, newest first, filtered by deal or username, page after page. */
export function AuditLogSection() {
  const [draft, setDraft] = useState<AuditFilters>(noFilters);
  const [filters, setFilters] = useState<AuditFilters>(noFilters);
  const [problem, setProblem] = useState<string | null>(null);
  const log = useAuditLog(filters);

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const dealId = draft.dealId.trim().replace(/^#/, '');
    if (dealId && !/^[1-9]\d{0,9}$/.test(dealId)) {
      setProblem('A deal id is a whole number, e.g. 42');
      return;
    }
    setProblem(null);
    setFilters({ dealId, username: draft.username.trim() });
  };

  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <OperatorSection
      title="Audit log"
      description="Every change of a deal, every money movement, sign-ins and operator actions, newest first."
    >
      <form
        aria-label="Filter the audit log"
        onSubmit={apply}
        noValidate
        className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-end"
      >
        <TextField
          label="Deal id"
          name="dealId"
          inputMode="numeric"
          autoComplete="off"
          value={draft.dealId}
          onChange={(event) => setDraft({ ...draft, dealId: event.target.value })}
          error={problem ?? undefined}
        />
        <TextField
          label="Username"
          name="username"
          autoComplete="off"
          value={draft.username}
          onChange={(event) => setDraft({ ...draft, username: event.target.value })}
        />
        <div className="flex gap-2">
          <Button type="submit">Apply filters</Button>
          <Button
            type="button"
            variant="outline"
            onClick={() => {
              setDraft(noFilters);
              setFilters(noFilters);
              setProblem(null);
            }}
          >
            Clear
          </Button>
        </div>
      </form>
      {log.isPending ? (
        <LoadingState label="Loading the audit log..." />
      ) : log.isError ? (
        <ErrorRetry detail={serverReason(log.error)} onRetry={log.refetch}>
          Failed to load the audit log.
        </ErrorRetry>
      ) : entries.length === 0 ? (
        <p className="text-sm text-slate-500">No audit entries match these filters.</p>
      ) : (
        <Card className="min-w-0 overflow-hidden">
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard */}
          <section className="overflow-x-auto" tabIndex={0} aria-label="Audit entries">
            <table className="w-full min-w-[60rem] text-left text-sm">
              <thead className="bg-slate-50 text-xs tracking-wide text-slate-500 uppercase">
                <tr>
                  {auditColumns.map((column) => (
                    <th key={column.label} scope="col" className="px-3 py-2 font-medium">
                      {column.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {entries.map((entry) => (
                  <tr key={entry.id} className="align-top">
                    {auditColumns.map((column) => (
                      <td key={column.label} className={cn('px-3 py-2', column.className)}>
                        {column.cell(entry)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </Card>
      )}
      <LoadMore query={log} />
    </OperatorSection>
  );
}
