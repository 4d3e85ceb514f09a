import { type FormEvent, useState } from 'react';
import type { Dispute } from '../../../contract/collaboration';
import type { Deal } from '../../../contract/deals';
import { limits } from '../../../contract/limits';
import { Alert } from '../../components/ui/alert';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { EmptyState } from '../../components/ui/empty-state';
import { AlertCircleIcon, ShieldIcon } from '../../components/ui/icons';
import { Field, Input, Textarea } from '../../components/ui/input';
import { LoadingState } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/time';
import { useTimedMessage } from '../../lib/use-timed-message';
import { useDealDisputes, useRaiseDispute, useResolveDispute } from './disputes-api';

/** Banners stay 3 seconds (spec §9). */
const bannerDurationMs = 3000;

type Banner = { tone: 'success' | 'error'; text: string; detail?: string };

const statusTones: Record<Dispute['status'], BadgeTone> = {
  open: 'amber',
  resolved: 'green',
  closed: 'neutral',
};

const same = (a: string | null, b: string) => !!a && a.toLowerCase() === b.toLowerCase();
const serverReason = (error: unknown) => errorMessage(error, '') || undefined;

export type DisputesDialogProps = {
  deal: Deal;
  viewer: { username: string };
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/**
 * 'Deal Disputes' (spec §2 Disputes modal): the dealers raise disputes once the deal has a dealmaker;
 * the dealmaker resolves open ones with a resolution. Everyone on the deal reads them.
 */
export function DisputesDialog({ deal, viewer, open, onOpenChange }: DisputesDialogProps) {
  const isDealer = same(deal.dealer_creator, viewer.username) || same(deal.dealer_joined, viewer.username);
  const isDealmaker = same(deal.dealmaker, viewer.username);
  const canRaise = isDealer && !!deal.dealmaker && !deal.is_completed;
  const disputes = useDealDisputes(deal.id, open);
  const [banner, showBanner] = useTimedMessage<Banner>(bannerDurationMs);
  const [raising, setRaising] = useState(false);

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setRaising(false);
        onOpenChange(next);
      }}
      title="Deal Disputes"
      description={`Disagreements about "${deal.title}" and how the dealmaker resolved them.`}
      size="xl"
    >
      <div className="space-y-5">
        {banner && (
          <Alert variant={banner.tone} detail={banner.detail}>
            {banner.text}
          </Alert>
        )}

        {canRaise &&
          (raising ? (
            <RaiseDisputeForm
              dealId={deal.id}
              onDone={(created) => {
                setRaising(false);
                if (created) showBanner({ tone: 'success', text: 'Dispute created successfully' });
              }}
              onFailed={(detail) => showBanner({ tone: 'error', text: 'Failed to create dispute', detail })}
            />
          ) : (
            <Button variant="danger" onClick={() => setRaising(true)}>
              <AlertCircleIcon size={16} />
              Raise New Dispute
            </Button>
          ))}

        {disputes.isPending ? (
          <LoadingState label="Loading disputes..." className="py-10" />
        ) : disputes.isError ? (
          <div className="space-y-3">
            <Alert variant="error" detail={serverReason(disputes.error)}>
              Failed to fetch disputes
            </Alert>
            <Button variant="outline" size="sm" onClick={() => disputes.refetch()}>
              Try again
            </Button>
          </div>
        ) : disputes.data.length === 0 ? (
          <EmptyState
            icon={<ShieldIcon size={28} />}
            title="No disputes found for this deal."
            className="py-10"
          />
        ) : (
          <ul className="space-y-3">
            {disputes.data.map((dispute) => (
              <li key={dispute.id}>
                <DisputeCard
                  dispute={dispute}
                  canResolve={isDealmaker && dispute.status === 'open'}
                  onResolved={() => showBanner({ tone: 'success', text: 'Dispute resolved successfully' })}
                  onResolveFailed={(detail) =>
                    showBanner({ tone: 'error', text: 'Failed to resolve dispute', detail })
                  }
                />
              </li>
            ))}
          </ul>
        )}
      </div>
    </Dialog>
  );
}

function DisputeCard({
  dispute,
  canResolve,
  onResolved,
  onResolveFailed,
}: {
  dispute: Dispute;
  canResolve: boolean;
  onResolved: () => void;
  onResolveFailed: (detail: string | undefined) => void;
}) {
  const [resolving, setResolving] = useState(false);
  const raiser = dispute.raiser.full_name || dispute.raisedByUsername;
  const resolver = dispute.resolver?.full_name || dispute.resolvedByUsername;
  return (
    <article aria-label={dispute.title} className="rounded-xl border border-slate-200 bg-white px-4 py-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-semibold break-words text-slate-900">{dispute.title}</h3>
          <p className="text-xs text-slate-500">
            Raised by {raiser} on {formatDate(dispute.createdAt)}
          </p>
        </div>
        <Badge tone={statusTones[dispute.status]} className="tracking-wide uppercase">
          {dispute.status.toUpperCase()}
        </Badge>
      </div>
      <p className="mt-3 text-sm break-words whitespace-pre-line text-slate-700">{dispute.description}</p>

      {dispute.status !== 'open' && dispute.resolution && (
        <div className="mt-3 rounded-lg border border-emerald-100 bg-emerald-50/70 px-3 py-2.5">
          <p className="text-xs font-semibold tracking-wide text-emerald-800 uppercase">Resolution</p>
          <p className="mt-0.5 text-sm break-words whitespace-pre-line text-emerald-900">
            {dispute.resolution}
          </p>
          {(resolver || dispute.resolvedAt) && (
            <p className="mt-1 text-xs text-emerald-700">
              Resolved{resolver && ` by ${resolver}`}
              {dispute.resolvedAt && ` on ${formatDate(dispute.resolvedAt)}`}
            </p>
          )}
        </div>
      )}

      {canResolve &&
        (resolving ? (
          <ResolveDisputeForm
            dispute={dispute}
            onDone={(resolved) => {
              setResolving(false);
              if (resolved) onResolved();
            }}
            onFailed={onResolveFailed}
          />
        ) : (
          <Button size="sm" variant="success" className="mt-3" onClick={() => setResolving(true)}>
            Resolve Dispute
          </Button>
        ))}
    </article>
  );
}

function RaiseDisputeForm({
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
  const raise = useRaiseDispute();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!title.trim() || !description.trim()) {
      setProblem('Title and description are required');
      return;
    }
    setProblem(null);
    raise.mutate(
      { dealId, title: title.trim(), description: description.trim() },
      {
        onSuccess: () => onDone(true),
        onError: (error) => {
          console.error('Raising a dispute failed', error);
          onFailed(serverReason(error));
        },
      },
    );
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="Raise New Dispute"
      className="space-y-4 rounded-xl border border-rose-100 bg-rose-50/40 p-4"
    >
      <h3 className="font-semibold text-slate-900">Raise New Dispute</h3>
      {problem && <Alert variant="error">{problem}</Alert>}
      <Field label="Title">
        {(control) => (
          <Input
            {...control}
            name="title"
            maxLength={limits.dispute.title.max}
            value={title}
            onChange={(event) => setTitle(event.target.value)}
            placeholder="e.g. Delivery is two weeks late"
          />
        )}
      </Field>
      <Field label="Description">
        {(control) => (
          <Textarea
            {...control}
            name="description"
            rows={4}
            maxLength={limits.dispute.description.max}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            placeholder="What went wrong, and what would settle it?"
          />
        )}
      </Field>
      <div className="flex justify-end gap-3">
        <Button variant="outline" onClick={() => onDone(false)} disabled={raise.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant="danger" loading={raise.isPending}>
          {raise.isPending ? 'Submitting...' : 'Submit Dispute'}
        </Button>
      </div>
    </form>
  );
}

function ResolveDisputeForm({
  dispute,
  onDone,
  onFailed,
}: {
  dispute: Dispute;
  onDone: (resolved: boolean) => void;
  onFailed: (detail: string | undefined) => void;
}) {
  const [resolution, setResolution] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const resolve = useResolveDispute();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!resolution.trim()) {
      setProblem('Resolution is required');
      return;
    }
    setProblem(null);
    resolve.mutate(
      { dispute, resolution: resolution.trim() },
      {
        onSuccess: () => onDone(true),
        onError: (error) => {
          console.error('Resolving a dispute failed', error);
          onFailed(serverReason(error));
        },
      },
    );
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={`Resolve Dispute: ${dispute.title}`}
      className="mt-3 space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-3"
    >
      <Field label="Resolution" error={problem ?? undefined}>
        {(control) => (
          <Textarea
            {...control}
            name="resolution"
            rows={3}
            maxLength={limits.dispute.resolution.max}
            value={resolution}
            onChange={(event) => {
              setResolution(event.target.value);
              setProblem(null);
            }}
            placeholder="How was this settled?"
          />
        )}
      </Field>
      <div className="flex justify-end gap-2">
        <Button size="sm" variant="outline" onClick={() => onDone(false)} disabled={resolve.isPending}>
          Cancel
        </Button>
        <Button size="sm" type="submit" variant="success" loading={resolve.isPending}>
          {resolve.isPending ? 'Resolving...' : 'Submit Resolution'}
        </Button>
      </div>
    </form>
  );
}

/** 'Manage Disputes': opens the Deal Disputes dialog. */
export function ManageDisputesButton({ deal, viewer }: { deal: Deal; viewer: { username: string } }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <ShieldIcon size={16} />
        Manage Disputes
      </Button>
      <DisputesDialog deal={deal} viewer={viewer} open={open} onOpenChange={setOpen} />
    </>
  );
}
