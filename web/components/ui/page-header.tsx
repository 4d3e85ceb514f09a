import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

type PageHeaderProps = {
  title: string;
  description?: ReactNode;
  /** Buttons at the right (below the title on small screens). */
  actions?: ReactNode;
  className?: string;
};

/** A page's title (its one h1), a short description and its main actions; also sets the document title. */
export function PageHeader({ title, description, actions, className }: PageHeaderProps) {
  return (
    <div className={cn('mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between', className)}>
      <DocumentTitle title={title} />
      <div className="min-w-0">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
        {description && <p className="mt-1.5 text-sm text-slate-500 sm:text-base">{description}</p>}
      </div>
      {actions && <div className="flex shrink-0 flex-wrap gap-3">{actions}</div>}
    </div>
  );
}

/** The browser tab's title: 'Users · Dealmaker' (React places the element in the document head). */
export function DocumentTitle({ title }: { title?: string }) {
  return <title>{title ? `${title} · Dealmaker` : 'Dealmaker'}</title>;
}

/** The centered, width-limited column every page sits in. */
export function PageContainer({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <div className={cn('mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 sm:py-10 lg:px-8', className)}>
      {children}
    </div>
  );
}
