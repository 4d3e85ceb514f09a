import type { ReactNode } from 'react';
import { serverReason } from '../../lib/api';
import { Alert, type Notice, NoticeAlert } from './alert';
import { Dialog, type DialogSize } from './dialog';
import { ErrorRetry } from './error-retry';
import { LoadingState } from './spinner';

/** What the frame reads of a query; a TanStack Query result fits. */
export type QueryState = { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };

type QueryDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  size?: DialogSize;
  /** A result message above everything else (e.g. 'Dispute created successfully'). */
  notice?: Notice | null;
  /** Above the data whatever its state: a button that opens a form, or the form. */
  actions?: ReactNode;
  /** The query whose data the dialog shows. */
  query: QueryState;
  loadingLabel: string;
  /** The screen's text when the query failed; the server's reason goes under it, with Try again. */
  errorText: string;
  /** false: a failure shows the text alone (no server reason, no Try again). */
  retry?: boolean;
  /** Once loaded: a line naming what the data is about (e.g. the deal's title). */
  subject?: { label: string; value: string };
  /** Once loaded and there is nothing to list: shown instead of `children`. */
  empty?: ReactNode;
  /** The loaded data. */
  children?: ReactNode;
};

/**
 * The frame of a dialog that shows one query's data (a deal's progress, disputes, reviewable users,
 * my deals, incoming requests):
 * title, result message, actions, then loading, error (with Try again), empty, or the data. The
 * dialog's body scrolls when it is long.
 */
export function QueryDialog({
  open,
  onOpenChange,
  title,
  description,
  size = 'xl',
  notice,
  actions,
  query,
  loadingLabel,
  errorText,
  retry = true,
  subject,
  empty,
  children,
}: QueryDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} description={description} size={size}>
      <div className="space-y-5">
        {notice && <NoticeAlert notice={notice} />}
        {actions}
        {query.isPending ? (
          <LoadingState label={loadingLabel} className="py-10" />
        ) : query.isError && !retry ? (
          <Alert variant="error">{errorText}</Alert>
        ) : query.isError ? (
          <ErrorRetry detail={serverReason(query.error)} onRetry={query.refetch}>
            {errorText}
          </ErrorRetry>
        ) : (
          <>
            {subject && (
              <p className="rounded-xl bg-slate-50 px-4 py-3 text-sm text-slate-600">
                {subject.label}: <span className="font-semibold text-slate-900">{subject.value}</span>
              </p>
            )}
            {empty || children}
          </>
        )}
      </div>
    </Dialog>
  );
}
