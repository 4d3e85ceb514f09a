import type { Deal } from '../../../contract/deals';
import { CheckCircleIcon, ClockIcon, ShieldIcon } from '../../components/ui/icons';
import { cn } from '../../lib/cn';
import { completionParts, completionState, settledLine } from './completion-texts';

const stateColours = {
  completed: 'text-emerald-700',
  pending: 'text-amber-800',
  settled: 'text-indigo-700',
} as const;

/**
 * The Participants box's 'Marked as Complete' lines: one per dealer, '✅ Completed' or '⏳ Pending' — or
 * Settled for a dealer who had not marked it when a dispute's settlement completed the deal.
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
        {sides.map((side) => {
          const state = completionState(side.done, deal.settled);
          return (
            <div key={side.label} className="flex flex-wrap items-center justify-between gap-2 text-sm">
              <dt className="text-slate-600">
                {side.label}
                {side.username && <span className="text-slate-500"> (@{side.username})</span>}
              </dt>
              <dd className={cn('inline-flex items-center gap-1.5 font-medium', stateColours[state])}>
                {state === 'settled' ? (
                  <>
                    <ShieldIcon size={16} className="shrink-0" />
                    {settledLine}
                  </>
                ) : (
                  <CompletionMark done={side.done} />
                )}
              </dd>
            </div>
          );
        })}
      </dl>
    </div>
  );
}

/**
 * '✅ Completed' / '⏳ Pending' as an icon and the word: the glyph stays in the text for screen readers
 * and the spec, but is not drawn, since machines without an emoji font show it as an empty box.
 */
function CompletionMark({ done }: { done: boolean }) {
  const { mark, word } = completionParts(done);
  const Icon = done ? CheckCircleIcon : ClockIcon;
  return (
    <>
      <Icon size={16} className="shrink-0" />
      <span className="sr-only">{mark} </span>
      {word}
    </>
  );
}
