import type { ReactNode } from 'react';
import { CheckCircleIcon } from '../../components/ui/icons';

type OutcomeFact = { label: string; value: ReactNode; valueClassName: string };

type DealOutcomeSectionProps = {
  /** The heading's id: the section is the region it names. */
  titleId: string;
  title: string;
  text: string;
  facts: OutcomeFact[];
};

/** A green section that says where a deal got to (Deal Finalized, Deal Completed), with two facts. */
export function DealOutcomeSection({ titleId, title, text, facts }: DealOutcomeSectionProps) {
  return (
    <section
      aria-labelledby={titleId}
      className="rounded-2xl border border-emerald-200 bg-emerald-50/70 px-6 py-5 shadow-sm"
    >
      <div className="flex items-start gap-3">
        <CheckCircleIcon size={24} className="mt-0.5 shrink-0 text-emerald-600" />
        <div className="min-w-0 flex-1">
          <h2 id={titleId} className="text-lg font-semibold text-emerald-900">
            {title}
          </h2>
          <p className="mt-0.5 text-sm text-emerald-800">{text}</p>
          <dl className="mt-4 grid gap-3 sm:grid-cols-2">
            {facts.map((fact) => (
              <div key={fact.label} className="rounded-xl bg-white px-4 py-3 ring-1 ring-emerald-100">
                <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{fact.label}</dt>
                <dd className={fact.valueClassName}>{fact.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </div>
    </section>
  );
}
