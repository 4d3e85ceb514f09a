import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { Alert } from './alert';
import { Button } from './button';
import { Card } from './card';
import { EmptyState } from './empty-state';
import { AlertCircleIcon } from './icons';

type ErrorRetryProps = {
  /** The screen's own text, e.g. 'Failed to fetch disputes'. */
  children: ReactNode;
  /** The server's reason, under the text. */
  detail?: ReactNode;
  onRetry: () => unknown;
  className?: string;
};

/** Something failed to load: the message, and a Try again button that loads it again. */
export function ErrorRetry({ children, detail, onRetry, className }: ErrorRetryProps) {
  return (
    <div className={cn('space-y-3', className)}>
      <Alert variant="error" detail={detail}>
        {children}
      </Alert>
      <Button variant="outline" size="sm" onClick={() => onRetry()}>
        Try again
      </Button>
    </div>
  );
}

/** A page's own data failed to load: a card that says so, with Try again. */
export function LoadFailedCard({
  title,
  icon = <AlertCircleIcon size={28} />,
  onRetry,
}: {
  title: string;
  icon?: ReactNode;
  onRetry: () => unknown;
}) {
  return (
    <Card>
      <EmptyState
        icon={icon}
        title={title}
        description="Please check your connection and try again."
        action={<Button onClick={() => onRetry()}>Try again</Button>}
      />
    </Card>
  );
}
