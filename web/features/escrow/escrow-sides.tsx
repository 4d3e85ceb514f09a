import { Badge } from '../../components/ui/badge';
import { CheckCircleIcon, ClockIcon } from '../../components/ui/icons';
import { cn } from '../../lib/cn';
import { formatMoney } from '../../lib/money';
import type { EscrowView } from './escrow-state';

/** Released, Settled, Locked, or Pending (with '1 of 2 paid' once one half is in). */
export function EscrowStatusBadge({ view }: { view: EscrowView }) {
  if (view.status === 'completed') return <Badge tone="green">Released</Badge>;
  if (view.status === 'settled') return <Badge tone="green">Settled</Badge>;
  if (view.status === 'locked') return <Badge tone="indigo">Locked</Badge>;
  const paid = Number(view.creatorPaid) + Number(view.counterpartPaid);
  return <Badge tone="amber">{paid === 1 ? 'Pending · 1 of 2 paid' : 'Pending'}</Badge>;
}

/** The two halves: who pays each, how much, and whether it is paid. */
export function EscrowSides({
  view,
  creator,
  counterpart,
}: {
  view: EscrowView;
  creator: string;
  counterpart: string | null;
}) {
  return (
    <ul className="grid gap-3 sm:grid-cols-2">
      <SideRow
        label="Creator's half"
        username={creator}
        amount={view.creatorAmount}
        paid={view.creatorPaid}
        mine={view.mySide === 'creator'}
      />
      <SideRow
        label="Counterpart's half"
        username={counterpart}
        amount={view.counterpartAmount}
        paid={view.counterpartPaid}
        mine={view.mySide === 'counterpart'}
      />
    </ul>
  );
}

type SideRowProps = { label: string; username: string | null; amount: number; paid: boolean; mine: boolean };

function SideRow({ label, username, amount, paid, mine }: SideRowProps) {
  return (
    <li
      className={cn(
        'flex items-center justify-between gap-3 rounded-xl border px-4 py-3',
        paid ? 'border-emerald-200 bg-emerald-50/60' : 'border-slate-200',
      )}
    >
      <div className="min-w-0">
        <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</p>
        <p className="truncate text-sm text-slate-900">
          {username ? `@${username}` : <span className="text-slate-500 italic">No counterpart yet</span>}
          {mine && <span className="ml-1.5 text-xs font-medium text-indigo-600">(you)</span>}
        </p>
        <p className="text-sm font-semibold text-slate-900 tabular-nums">{formatMoney(amount)}</p>
      </div>
      <span
        className={cn(
          'inline-flex shrink-0 items-center gap-1 text-sm font-medium',
          paid ? 'text-emerald-700' : 'text-slate-500',
        )}
      >
        {paid ? <CheckCircleIcon size={18} /> : <ClockIcon size={18} />}
        {paid ? 'Paid' : 'Not paid'}
      </span>
    </li>
  );
}
