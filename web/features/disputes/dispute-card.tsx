import { useState } from 'react';
import type { Dispute } from '../../../contract/disputes';
import type { Notice } from '../../components/ui/alert';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { formatDate } from '../../lib/time';
import { ResolveDisputeForm } from './dispute-forms';
import { EscalationLine } from './escalation-line';
import { SettlementPanel, type SettlementPanelProps } from './settlement-panel';

const statusTones: Record<Dispute['status'], BadgeTone> = {
  open: 'amber',
  resolved: 'green',
  closed: 'neutral',
};

type DisputeCardProps = {
  dispute: Dispute;
  /** The dealmaker, on an open dispute: Resolve Dispute opens the resolution form. */
  canResolve: boolean;
  onResolved: () => void;
  onResolveFailed: (detail: string | undefined) => void;
  /** The deal, its viewer and its escrow: settling the escrow and escalating. */
  settling: Omit<SettlementPanelProps, 'dispute' | 'onNotice'>;
  onNotice: (notice: Notice) => void;
};

/**
 * One dispute: who raised it and when, its status and description, when it goes to an operator, how
 * the escrow may be (or was) settled, and how it was resolved.
 */
export function DisputeCard({
  dispute,
  canResolve,
  onResolved,
  onResolveFailed,
  settling,
  onNotice,
}: DisputeCardProps) {
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

      <EscalationLine
        dispute={dispute}
        deal={settling.deal}
        canEscalate={settling.viewer.isDealer}
        onNotice={onNotice}
      />
      <SettlementPanel dispute={dispute} onNotice={onNotice} {...settling} />

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
