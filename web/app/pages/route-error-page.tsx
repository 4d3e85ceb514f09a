import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Button } from '../../components/ui/button';
import { AlertCircleIcon } from '../../components/ui/icons';
import { DocumentTitle } from '../../components/ui/page-header';

/** Shown instead of a page that failed to render, so one broken screen never leaves a blank window. */
export function RouteErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : undefined;
  return (
    <div className="flex min-h-dvh items-center justify-center bg-slate-50 px-4">
      <DocumentTitle title="Something went wrong" />
      <div className="max-w-md text-center">
        <div className="mx-auto mb-6 flex h-16 w-16 items-center justify-center rounded-2xl bg-rose-50 text-rose-600">
          <AlertCircleIcon size={32} />
        </div>
        <h1 className="text-2xl font-bold text-slate-900">Something went wrong</h1>
        <p className="mt-3 text-slate-500">This page could not be shown. Reloading usually helps.</p>
        {detail && <p className="mt-2 font-mono text-xs break-words text-slate-500">{detail}</p>}
        <div className="mt-8 flex justify-center gap-3">
          <Button onClick={() => window.location.reload()}>Reload</Button>
          <Button variant="outline" onClick={() => window.location.assign('/')}>
            Go back home
          </Button>
        </div>
      </div>
    </div>
  );
}
