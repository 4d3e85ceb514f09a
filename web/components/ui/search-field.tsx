import type { ComponentPropsWithRef, ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { SearchIcon } from './icons';

type SearchFieldProps = Omit<ComponentPropsWithRef<'input'>, 'type'> & {
  id: string;
  /** The field's name for screen readers (the magnifier says it visually). */
  label: string;
  /** The wrapper's layout (width, margins). */
  wrapperClassName?: string;
  /** Drawn over the field's right end, e.g. a spinner while results load. */
  children?: ReactNode;
};

/** A search box with a magnifier inside its left edge. */
export function SearchField({
  id,
  label,
  className,
  wrapperClassName,
  children,
  ...props
}: SearchFieldProps) {
  return (
    <div className={cn('relative', wrapperClassName)}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <SearchIcon
        size={18}
        className="pointer-events-none absolute top-1/2 left-3.5 -translate-y-1/2 text-slate-500"
      />
      <input
        id={id}
        type="search"
        autoComplete="off"
        className={cn(
          'w-full rounded-xl border border-slate-300 bg-white pl-10 text-sm shadow-sm placeholder:text-slate-400 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none',
          className,
        )}
        {...props}
      />
      {children}
    </div>
  );
}
