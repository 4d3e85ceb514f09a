import { useId } from 'react';
import type { OperatorDispute } from '../../../contract/operator';
import type { TimelineItem } from '../../../contract/timeline';
import { type Notice, NoticeAlert } from '../../components/ui/alert';
import { Card } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { ErrorRetry } from '../../components/ui/error-retry';
import { ShieldIcon } from '../../components/ui/icons';
import { LoadingState } from '../../components/ui/spinner';
import { serverReason } from '../../lib/api';
import { formatMoney } from '../../lib/money';
import { formatDate, formatDateTime } from '../../lib/time';
import { useTimedMessage } from '../../lib/use-timed-message';
import { useAuth } from '../auth';
import { escalationText, ProposalList, type SettlementPeople } from '../disputes';
import { isTimelineEntry } from '../timeline';
import { DealEvidence } from './deal-evidence';
import { useEscalatedDisputes } from './operator-api';
import { OperatorSection } from './operator-section';
import { OperatorSettleForm } from './operator-settle-form';
import { settleRefusalOf } from './settle-refusal';

/** Result messages stay 5 seconds, as money messages do (spec §9). */
const noticeDurationMs = 5000;
/** How much of a deal's timeline the queue shows. */
const timelineExcerpt = 5;

/**
 * The escalated disputes: each with its deal, escrow, proposals, recent timeline and the deal's messages
 * (read on demand, audited), and the settle form where this operator may settle.
 */
export function EscalatedDisputesSection() {
  const queue = useEscalatedDisputes();
  const [notice, showNotice] = useTimedMessage<Notice>(noticeDurationMs);
  return (
    <OperatorSection
      title="Escalated disputes"
      description="Open disputes the dealers could not settle: decide how each locked escrow is split."
    >
      {notice && <NoticeAlert notice={notice} />}
      {queue.isPending ? (
        <LoadingState label="Loading escalated disputes..." />
      ) : queue.isError ? (
        <ErrorRetry detail={serverReason(queue.error)} onRetry={queue.refetch}>
          Failed to load the escalated disputes.
        </ErrorRetry>
      ) : queue.data.length === 0 ? (
        <EmptyState icon={<ShieldIcon size={28} />} title="No escalated disputes." className="py-8" />
      ) : (
        <ul className="space-y-4">
          {queue.data.map((item) => (
            <li key={item.dispute.id}>
              <QueueItem item={item} onNotice={showNotice} />
            </li>
          ))}
        </ul>
      )}
    </OperatorSection>
  );
}

function QueueItem({ item, onNotice }: { item: OperatorDispute; onNotice: (notice: Notice) => void }) {
  const titleId = useId();
  const { user } = useAuth();
  const { deal, dispute, escrow, participants } = item;
  const refusal = settleRefusalOf(item, user?.username);
  const people: SettlementPeople = {
    creator: participants.creator,
    counterpart: participants.counterpart ?? '',
    dealmaker: participants.dealmaker ?? '',
  };
  const escalation = escalationText(dispute);
  return (
    <Card className="min-w-0 space-y-4 p-4 sm:p-5">
      <article aria-labelledby={titleId} className="space-y-4">
        <header className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h3 id={titleId} className="font-semibold break-words text-slate-900">
              {deal.title}
            </h3>
            <p className="text-xs text-slate-500">Deal #{deal.id}</p>
          </div>
          {escalation && <p className="text-xs font-medium text-amber-800">{escalation}</p>}
        </header>

        <div className="rounded-lg border border-rose-100 bg-rose-50/50 px-3 py-2.5">
          <p className="font-medium break-words text-slate-900">{dispute.title}</p>
          <p className="text-xs text-slate-500">
            Raised by {dispute.raiser.full_name || dispute.raisedByUsername} on{' '}
            {formatDate(dispute.createdAt)}
          </p>
          <p className="mt-1 text-sm break-words whitespace-pre-line text-slate-700">{dispute.description}</p>
        </div>

        <dl className="grid gap-2 text-sm sm:grid-cols-2">
          <Fact
            label="Escrow amount"
            value={escrow ? `${formatMoney(escrow.amount)} (${escrow.status})` : 'No escrow'}
          />
          <Fact label="Dealmaker" value={people.dealmaker ? `@${people.dealmaker}` : '—'} />
          <Fact
            label="Creator"
            value={`@${people.creator}${escrow ? ` · paid ${formatMoney(escrow.creatorPaid ? escrow.creatorAmount : 0)}` : ''}`}
          />
          <Fact
            label="Counterpart"
            value={`${people.counterpart ? `@${people.counterpart}` : '—'}${escrow ? ` · paid ${formatMoney(escrow.counterpartPaid ? escrow.counterpartAmount : 0)}` : ''}`}
          />
        </dl>

        <div className="space-y-2">
          <h4 className="text-sm font-semibold text-slate-900">Proposals</h4>
          {dispute.proposals.length > 0 ? (
            <ProposalList proposals={dispute.proposals} people={people} />
          ) : (
            <p className="text-sm text-slate-500">No settlement was proposed.</p>
          )}
        </div>

        <div className="space-y-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h4 className="text-sm font-semibold text-slate-900">Latest on the deal</h4>
            <DealEvidence deal={deal} />
          </div>
          {item.timeline.length > 0 && (
            <ol className="space-y-1 text-sm">
              {item.timeline.slice(0, timelineExcerpt).map((timelineItem) => (
                <li key={`${timelineItem.type}-${timelineItem.id}`} className="break-words text-slate-700">
                  <span className="text-xs text-slate-500">{formatDateTime(timelineItem.createdAt)}</span>{' '}
                  {timelineLine(timelineItem)}
                </li>
              ))}
            </ol>
          )}
        </div>

        {refusal === null && escrow ? (
          <OperatorSettleForm item={item} escrow={escrow} people={people} onNotice={onNotice} />
        ) : (
          <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">{refusal}</p>
        )}
      </article>
    </Card>
  );
}

/** A timeline entry's text, or a message's author and text. */
const timelineLine = (item: TimelineItem) =>
  isTimelineEntry(item) ? item.message : `@${item.senderUsername}: ${item.content}`;

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0 rounded-lg bg-slate-50 px-3 py-2">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="font-medium break-words text-slate-900 tabular-nums">{value}</dd>
    </div>
  );
}
