import { CheckCircleIcon } from '../../../components/ui/icons';
import { formatMoney } from '../../../lib/money';
import { UserProfileLink } from '../user-profile-link';
import type { DealSectionProps } from './deal-section';

/** Once a dealmaker is chosen (and until the deal is completed): who it is and the final budget. */
export function DealFinalizedSection({ deal }: DealSectionProps) {
  if (!deal.dealmaker || deal.is_completed) return null;
  return (
    <section
      aria-labelledby="deal-finalized-title"
      className="rounded-2xl border border-emerald-200 bg-emerald-50/70 px-6 py-5 shadow-sm"
    >
      <div className="flex items-start gap-3">
        <CheckCircleIcon size={24} className="mt-0.5 shrink-0 text-emerald-600" />
        <div className="min-w-0 flex-1">
          <h2 id="deal-finalized-title" className="text-lg font-semibold text-emerald-900">
            Deal Finalized
          </h2>
          <p className="mt-0.5 text-sm text-emerald-800">
            The dealmaker is chosen and the final budget is set.
          </p>
          <dl className="mt-4 grid gap-3 sm:grid-cols-2">
            <div className="rounded-xl bg-white px-4 py-3 ring-1 ring-emerald-100">
              <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">Dealmaker</dt>
              <dd className="mt-0.5 text-sm">
                <UserProfileLink username={deal.dealmaker} />
              </dd>
            </div>
            <div className="rounded-xl bg-white px-4 py-3 ring-1 ring-emerald-100">
              <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">Final Budget</dt>
              <dd className="mt-0.5 text-lg font-semibold text-slate-900">{formatMoney(deal.budget)}</dd>
            </div>
          </dl>
        </div>
      </div>
    </section>
  );
}
