import { type FormEvent, useState } from 'react';
import type { ProgressItem } from '../../../contract/collaboration';
import type { Deal } from '../../../contract/deals';
import { limits } from '../../../contract/limits';
import { Alert } from '../../components/ui/alert';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { EmptyState } from '../../components/ui/empty-state';
import { ChartIcon } from '../../components/ui/icons';
import { Field, Input, Textarea } from '../../components/ui/input';
import { LoadingState } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api';
import { cn } from '../../lib/cn';
import { formatDateTime } from '../../lib/time';
import { useTimedMessage } from '../../lib/use-timed-message';
import { useChangeProgressStatus, useCreateProgressItem, useDealProgress } from './progress-api';
import { inStepOrder, progressActions, progressStatusLabels, statusWords } from './progress-labels';

/** Banners stay 3 seconds (spec §9). */
const bannerDurationMs = 3000;

type Banner = { tone: 'success' | 'error'; text: string; detail?: string };

export type ProgressDialogProps = {
  deal: Deal;
  viewer: { username: string };
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

const statusTones: Record<ProgressItem['status'], BadgeTone> = {
  pending: 'neutral',
  in_progress: 'blue',
  completed: 'green',
};

const same = (a: string | null, b: string) => !!a && a.toLowerCase() === b.toLowerCase();

/**
 * 'Deal Progress Tracking' (spec §2 Progress modal): the deal's milestones as 'Step N'. The dealmaker
 * adds items and moves them along; the dealers read.
 */
export function ProgressDialog({ deal, viewer, open, onOpenChange }: ProgressDialogProps) {
  const isDealmaker = same(deal.dealmaker, viewer.username);
  const canManage = isDealmaker && !deal.is_completed;
  const progress = useDealProgress(deal.id, open);
  const [banner, showBanner] = useTimedMessage<Banner>(bannerDurationMs);
  const [adding, setAdding] = useState(false);

  const change = useChangeProgressStatus({
    onSuccess: (item) =>
      showBanner({ tone: 'success', text: `Progress updated to ${statusWords(item.status)}` }),
    onError: (error) => {
      console.error('Changing a progress status failed', error);
      showBanner({ tone: 'error', text: 'Failed to update progress status', detail: serverReason(error) });
    },
  });

  const items = progress.data ? inStepOrder(progress.data) : [];

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setAdding(false);
        onOpenChange(next);
      }}
      title="Deal Progress Tracking"
      description={
        canManage
          ? `Track the milestones of "${deal.title}" and move them along as the work advances.`
          : `The milestones of "${deal.title}", as the dealmaker tracks them.`
      }
      size="xl"
    >
      <div className="space-y-5">
        {banner && (
          <Alert variant={banner.tone} detail={banner.detail}>
            {banner.text}
          </Alert>
        )}

        {canManage &&
          (adding ? (
            <AddProgressItemForm
              dealId={deal.id}
              onDone={(created) => {
                setAdding(false);
                if (created) showBanner({ tone: 'success', text: 'Progress item created successfully' });
              }}
              onFailed={(detail) =>
                showBanner({ tone: 'error', text: 'Failed to create progress item', detail })
              }
            />
          ) : (
            <Button onClick={() => setAdding(true)}>Add Progress Item</Button>
          ))}

        {progress.isPending ? (
          <LoadingState label="Loading progress..." className="py-10" />
        ) : progress.isError ? (
          <div className="space-y-3">
            <Alert variant="error" detail={serverReason(progress.error)}>
              Failed to fetch progress
            </Alert>
            <Button variant="outline" size="sm" onClick={() => progress.refetch()}>
              Try again
            </Button>
          </div>
        ) : items.length === 0 ? (
          <EmptyState
            icon={<ChartIcon size={28} />}
            title="No progress items found for this deal."
            description={canManage ? 'Click "Add Progress Item" to start tracking progress.' : undefined}
            className="py-10"
          />
        ) : (
          <ol className="space-y-3">
            {items.map((item) => (
              <li key={item.id}>
                <ProgressItemCard
                  item={item}
                  actions={canManage ? progressActions(item.status) : []}
                  busy={change.isPending}
                  onChange={(to) => change.mutate({ item, status: to })}
                />
              </li>
            ))}
          </ol>
        )}
      </div>
    </Dialog>
  );
}

/** The server's reason for a refusal, shown under the screen's own message. */
const serverReason = (error: unknown) => errorMessage(error, '') || undefined;

function ProgressItemCard({
  item,
  actions,
  busy,
  onChange,
}: {
  item: ProgressItem;
  actions: ReturnType<typeof progressActions>;
  busy: boolean;
  onChange: (to: ProgressItem['status']) => void;
}) {
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

function AddProgressItemForm({
  dealId,
  onDone,
  onFailed,
}: {
  dealId: number;
  onDone: (created: boolean) => void;
  onFailed: (detail: string | undefined) => void;
}) {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateProgressItem();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!title.trim()) {
      setProblem('Title is required');
      return;
    }
    setProblem(null);
    create.mutate(
      { dealId, title: title.trim(), description: description.trim() },
      {
        onSuccess: () => onDone(true),
        onError: (error) => {
          console.error('Creating a progress item failed', error);
          onFailed(serverReason(error));
        },
      },
    );
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="Add Progress Item"
      className="space-y-4 rounded-xl border border-indigo-100 bg-indigo-50/40 p-4"
    >
      <h3 className="font-semibold text-slate-900">Add Progress Item</h3>
      <Field label="Title" error={problem ?? undefined}>
        {(control) => (
          <Input
            {...control}
            name="title"
            maxLength={limits.progress.title.max}
            value={title}
            onChange={(event) => {
              setTitle(event.target.value);
              setProblem(null);
            }}
            placeholder="e.g. Draft the partnership agreement"
          />
        )}
      </Field>
      <Field label="Description" hint="Optional.">
        {(control) => (
          <Textarea
            {...control}
            name="description"
            rows={3}
            maxLength={limits.progress.description.max}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
          />
        )}
      </Field>
      <div className="flex justify-end gap-3">
        <Button variant="outline" onClick={() => onDone(false)} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={create.isPending}>
          {create.isPending ? 'Adding...' : 'Add Item'}
        </Button>
      </div>
    </form>
  );
}

/** 'Track Progress': opens the Deal Progress Tracking dialog. */
export function TrackProgressButton({ deal, viewer }: { deal: Deal; viewer: { username: string } }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <ChartIcon size={16} />
        Track Progress
      </Button>
      <ProgressDialog deal={deal} viewer={viewer} open={open} onOpenChange={setOpen} />
    </>
  );
}
