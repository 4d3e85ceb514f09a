import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

type EmptyStateProps = {
  icon?: ReactNode;
  title: string;
  description?: ReactNode;
  /** A button or link that helps the user move on. */
  action?: ReactNode;
  className?: string;
  /** Inside a dashed outline: 'page' for a page's empty list, 'inline' for a list inside a dialog. */
  framed?: keyof typeof frames;
};

const frames = {
  page: 'rounded-2xl border border-dashed border-slate-300 bg-white',
  inline: 'rounded-xl border border-dashed border-slate-300',
};

/** What a list or a page shows when there is nothing (yet). */
export function EmptyState({ icon, title, description, action, className, framed }: EmptyStateProps) {
  const state = (
    <div className={cn('flex flex-col items-center justify-center px-6 py-14 text-center', className)}>
      {icon && (
        <div className="mb-4 flex h-14 w-14 items-center justify-center rounded-2xl bg-slate-100 text-slate-500">
          {icon}
        </div>
      )}
      <h3 className="text-base font-semibold text-slate-900">{title}</h3>
      {description && <p className="mt-1 max-w-sm text-sm text-slate-500">{description}</p>}
      {action && <div className="mt-5">{action}</div>}
    </div>
  );
  return framed ? <div className={frames[framed]}>{state}</div> : state;
}
