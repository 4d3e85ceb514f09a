import type { ProgressItem, ProgressStatus } from '../../../contract/progress';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { formatDateTime } from '../../lib/time';
import { type progressActions, progressStatusLabels } from './progress-labels';

const statusTones: Record<ProgressStatus, BadgeTone> = {
  pending: 'neutral',
  in_progress: 'blue',
  completed: 'green',
};

type ProgressItemCardProps = {
  item: ProgressItem;
  /** The moves the viewer may make (none for the dealers, who only read). */
  actions: ReturnType<typeof progressActions>;
  busy: boolean;
  onChange: (to: ProgressStatus) => void;
};

/** One progress step as 'Step N': title, status, description, dates, and the dealmaker's buttons. */
export function ProgressItemCard({ item, actions, busy, onChange }: ProgressItemCardProps) {
  const completer = item.completedByUser?.full_name || item.completedByUsername;
  return (
    <article
      aria-label={`Step ${item.position}: ${item.title}`}
      className={cn(
        'rounded-xl border px-4 py-4',
        item.status === 'completed' ? 'border-emerald-200 bg-emerald-50/50' : 'border-slate-200 bg-white',
      )}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="text-xs font-semibold tracking-wide text-indigo-600 uppercase">
            Step {item.position}
          </p>
          <h3 className="font-semibold break-words text-slate-900">{item.title}</h3>
        </div>
        <Badge tone={statusTones[item.status]}>{progressStatusLabels[item.status]}</Badge>
      </div>
      {item.description && (
        <p className="mt-2 text-sm break-words whitespace-pre-line text-slate-600">{item.description}</p>
      )}
      <div className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-500">
        <span>Created {formatDateTime(item.createdAt)}</span>
        {item.status === 'completed' && item.completedAt && (
          <span className="text-emerald-700">
            Completed {formatDateTime(item.completedAt)}
            {completer && ` by ${completer}`}
          </span>
        )}
      </div>
      {actions.length > 0 && (
        <div className="mt-3 flex flex-wrap gap-2">
          {actions.map((action) => (
            <Button
              key={action.to}
              size="sm"
              variant={
                action.to === 'pending' ? 'outline' : action.to === 'completed' ? 'success' : 'primary'
              }
              disabled={busy}
              onClick={() => onChange(action.to)}
            >
              {action.label}
            </Button>
          ))}
        </div>
      )}
    </article>
  );
}
