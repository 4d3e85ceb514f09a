import { cn } from '../../lib/cn';
import { Alert } from './alert';
import { Button } from './button';

/** What the button reads of a paged query; a TanStack infinite query result fits. */
type PagedQuery = {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError?: boolean;
  fetchNextPage: () => unknown;
};

/**
 * Loads the next page of a list, reading 'Loading...' meanwhile; nothing once the list is complete.
 * With `errorText`, a failed page is said above the button (which tries again).
 */
export function LoadMore({
  query,
  label = 'Load more',
  className,
  errorText,
  errorClassName,
}: {
  query: PagedQuery;
  label?: string;
  /** The row's spacing around the centred button. */
  className?: string;
  errorText?: string;
  /** The error's spacing. */
  errorClassName?: string;
}) {
  const error = errorText && query.isFetchNextPageError && (
    <Alert variant="error" className={errorClassName}>
      {errorText}
    </Alert>
  );
  if (!query.hasNextPage) return error || null;
  return (
    <>
      {error}
      <div className={cn('flex justify-center', className)}>
        <Button
          variant="outline"
          loading={query.isFetchingNextPage}
          onClick={() => {
            if (!query.isFetchingNextPage) void query.fetchNextPage();
          }}
        >
          {query.isFetchingNextPage ? 'Loading...' : label}
        </Button>
      </div>
    </>
  );
}
