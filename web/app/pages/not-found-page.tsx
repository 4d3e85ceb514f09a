import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button';
import { CompassIcon } from '../../components/ui/icons';
import { DocumentTitle } from '../../components/ui/page-header';

export function NotFoundPage() {
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-20">
      <DocumentTitle title="Page not found" />
      <div className="max-w-md text-center">
        <div className="mx-auto mb-6 flex h-16 w-16 items-center justify-center rounded-2xl bg-indigo-50 text-indigo-600">
          <CompassIcon size={32} />
        </div>
        <p className="text-sm font-semibold tracking-wide text-indigo-600">404</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900">Page not found</h1>
        <p className="mt-3 text-slate-500">The page you are looking for does not exist or has moved.</p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Link to="/" className={buttonClasses()}>
            Go back home
          </Link>
          <Link to="/deals" className={buttonClasses({ variant: 'outline' })}>
            Browse deals
          </Link>
        </div>
      </div>
    </div>
  );
}
