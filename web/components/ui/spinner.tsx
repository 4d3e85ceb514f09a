import { cn } from '../../lib/cn';

const sizes = { sm: 'h-4 w-4 border-2', md: 'h-6 w-6 border-2', lg: 'h-10 w-10 border-[3px]' };

type SpinnerProps = {
  size?: keyof typeof sizes;
  /** What is loading, for screen readers; ignored when decorative. */
  label?: string;
  /** Inside something that already says it is busy (e.g. a button reading 'Saving...'). */
  decorative?: boolean;
  className?: string;
};

export function Spinner({ size = 'md', label = 'Loading', decorative = false, className }: SpinnerProps) {
  return (
    <span
      role={decorative ? undefined : 'status'}
      aria-hidden={decorative || undefined}
      className={cn('inline-block shrink-0', className)}
    >
      <span
        className={cn('block animate-spin rounded-full border-current border-r-transparent', sizes[size])}
      />
      {!decorative && <span className="sr-only">{label}</span>}
    </span>
  );
}

/** A centered spinner with a visible caption, for a page or a card that is loading. */
export function LoadingState({ label, className }: { label: string; className?: string }) {
  return (
    <div className={cn('flex flex-col items-center justify-center gap-3 py-16 text-slate-500', className)}>
      <Spinner size="lg" decorative className="text-indigo-500" />
      <p role="status" className="text-sm font-medium">
        {label}
      </p>
    </div>
  );
}
