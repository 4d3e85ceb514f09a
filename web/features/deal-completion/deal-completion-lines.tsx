import type { Deal } from '../../../contract/deals';
import { completionLine } from './completion-rules';

/**
 * The Participants box's 'Marked as Complete' lines: one per dealer, '✅ Completed' or '⏳ Pending'.
 * Shown once the deal has a dealmaker (before that there is nothing to finish).
 */
export function DealCompletionLines({ deal }: { deal: Deal }) {
  if (!deal.dealmaker) return null;
  const sides = [
    { label: 'Creator', username: deal.dealer_creator, done: deal.completed_by_creator },
    { label: 'Counterpart', username: deal.dealer_joined, done: deal.completed_by_counterpart },
  ];
  return (
    <div className="mt-4 rounded-xl border border-slate-200 bg-slate-50/70 px-4 py-3">
      <h3 className="text-xs font-medium tracking-wide text-slate-500 uppercase">Marked as Complete</h3>
      <dl className="mt-2 grid gap-x-10 gap-y-2 sm:grid-cols-2">
        {sides.map((side) => (
          <div key={side.label} className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <dt className="text-slate-600">
              {side.label}
              {side.username && <span className="text-slate-400"> (@{side.username})</span>}
            </dt>
            <dd className={side.done ? 'font-medium text-emerald-700' : 'font-medium text-amber-700'}>
              {completionLine(side.done)}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
