import { type ReactNode, useId } from 'react';
import { Card, CardContent } from '../../components/ui/card';

type SecurityCardProps = {
  title: string;
  description: ReactNode;
  /** Beside the title: the state at a glance (On / Off). */
  badge?: ReactNode;
  children: ReactNode;
};

/** One part of the Security section: a card named by its heading (a level below the section's). */
export function SecurityCard({ title, description, badge, children }: SecurityCardProps) {
  const titleId = useId();
  return (
    <Card role="region" aria-labelledby={titleId}>
      <div className="flex flex-col gap-1 border-b border-slate-100 px-6 py-5">
        <div className="flex flex-wrap items-center gap-2">
          <h3 id={titleId} className="text-lg font-semibold text-slate-900">
            {title}
          </h3>
          {badge}
        </div>
        <p className="text-sm text-slate-600">{description}</p>
      </div>
      <CardContent className="space-y-4">{children}</CardContent>
    </Card>
  );
}
