import type { ReactNode } from 'react';
import type { Deal } from '../../../contract/deals';
import { Card } from '../../components/ui/card';
import { cn } from '../../lib/cn';
import type { DealViewer } from './deal-viewer';

/** What every section of the deal detail view receives; a section decides by itself whether it shows. */
export type DealSectionProps = { deal: Deal; viewer: DealViewer };

type DetailSectionProps = {
  /** The section's heading (h2), which also names the region. */
  title: ReactNode;
  /** Beside the heading (a count, a badge, a button). */
  aside?: ReactNode;
  description?: ReactNode;
  className?: string;
  children: ReactNode;
};

/** The frame of one section of the deal detail view: a card with a heading. */
export function DetailSection({ title, aside, description, className, children }: DetailSectionProps) {
  return (
    <Card className={cn('overflow-hidden', className)}>
      <section aria-label={typeof title === 'string' ? title : undefined}>
        <div className="border-b border-slate-100 px-6 py-4">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
            {aside}
          </div>
          {description && <p className="mt-0.5 text-sm text-slate-500">{description}</p>}
        </div>
        <div className="px-6 py-5">{children}</div>
      </section>
    </Card>
  );
}
