import { type ReactNode, useId } from 'react';

type OperatorSectionProps = {
  title: string;
  description: string;
  /** Buttons beside the title (e.g. Run again). */
  actions?: ReactNode;
  children: ReactNode;
};

/** One part of the Operator console: a titled region that never gets wider than the page. */
export function OperatorSection({ title, description, actions, children }: OperatorSectionProps) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="min-w-0 space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h2 id={titleId} className="text-xl font-semibold text-slate-900">
            {title}
          </h2>
          <p className="text-sm text-slate-500">{description}</p>
        </div>
        {actions}
      </div>
      {children}
    </section>
  );
}
