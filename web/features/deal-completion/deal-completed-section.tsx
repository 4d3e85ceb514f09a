import type { Deal } from '../../../contract/deals';
import { CheckCircleIcon } from '../../components/ui/icons';
import { formatMoney } from '../../lib/money';
import { formatDateTime } from '../../lib/time';

/** 'Deal Completed': once both dealers marked it finished, with the final budget and the completion date. */
export function DealCompletedSection({ deal }: { deal: Deal }) {
  if (!deal.is_completed) return null;
  return (
    <section
      aria-labelledby={`deal-completed-title-${deal.id}`}
      className="rounded-2xl border border-emerald-200 bg-emerald-50/70 px-6 py-5 shadow-sm"
    >
      <div className="flex items-start gap-3">
        <CheckCircleIcon size={24} className="mt-0.5 shrink-0 text-emerald-600" />
        <div className="min-w-0 flex-1">
          <h2 id={`deal-completed-title-${deal.id}`} className="text-lg font-semibold text-emerald-900">
            Deal Completed
          </h2>
          <p className="mt-0.5 text-sm text-emerald-800">
            Both dealers marked this deal as finished and the escrow was released to the dealmaker.
          </p>
          <dl className="mt-4 grid gap-3 sm:grid-cols-2">
            <div className="rounded-xl bg-white px-4 py-3 ring-1 ring-emerald-100">
              <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">Final Budget</dt>
              <dd className="mt-0.5 text-lg font-semibold text-slate-900">{formatMoney(deal.budget)}</dd>
            </div>
            <div className="rounded-xl bg-white px-4 py-3 ring-1 ring-emerald-100">
              <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">Completed On</dt>
              <dd className="mt-0.5 text-sm text-slate-900">
                {deal.completion_date ? formatDateTime(deal.completion_date) : '—'}
              </dd>
            </div>
          </dl>
        </div>
      </div>
    </section>
  );
}
