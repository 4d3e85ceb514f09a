import { useState } from 'react';
import type { TimelineItem } from '../../../contract/timeline';
import { Button } from '../../components/ui/button';
import { LoadMore } from '../../components/ui/load-more';
import { QueryDialog } from '../../components/ui/query-dialog';
import { formatDateTime } from '../../lib/time';
import { isTimelineEntry } from '../timeline';
import { useDealEvidence } from './operator-api';

/**
 * 'Read the deal's messages': the deal's chat and timeline as evidence for a dispute, read-only. The
 * server records each read in the audit log, so nothing is fetched until the operator opens it.
 */
export function DealEvidence({ deal }: { deal: { id: number; title: string } }) {
  const [open, setOpen] = useState(false);
  const evidence = useDealEvidence(deal.id, open);
  const items = evidence.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <>
      <Button variant="outline" size="sm" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Read the deal's messages
      </Button>
      <QueryDialog
        open={open}
        onOpenChange={setOpen}
        title="The deal's messages and timeline"
        description="Read-only, newest first. Each read is recorded in the audit log under your name."
        query={evidence}
        loadingLabel="Loading the deal's messages..."
        errorText="Failed to load the deal's messages"
        subject={{ label: 'Deal', value: deal.title }}
        empty={
          items.length === 0 && (
            <p className="text-sm text-slate-500">Nothing was written on this deal yet.</p>
          )
        }
      >
        <section
          aria-label="Messages and timeline entries, newest first"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the dialog scrolls, and a keyboard needs a stop inside to scroll it
          tabIndex={0}
          className="rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
        >
          <ol className="space-y-2">
            {items.map((item) => (
              <EvidenceItem key={`${item.type}-${item.id}`} item={item} />
            ))}
          </ol>
        </section>
        <LoadMore
          query={evidence}
          label="Load older entries"
          className="pt-1"
          errorText="Failed to load older entries"
        />
      </QueryDialog>
    </>
  );
}

/** A message or a timeline entry of the deal, as evidence. */
function EvidenceItem({ item }: { item: TimelineItem }) {
  const time = <span className="text-xs text-slate-500">{formatDateTime(item.createdAt)}</span>;
  if (isTimelineEntry(item)) {
    return (
      <li className="rounded-lg bg-slate-50 px-3 py-2 text-sm break-words text-slate-600">
        {time} <span className="sr-only">Timeline entry: </span>
        {item.message}
      </li>
    );
  }
  return (
    <li className="rounded-lg border border-slate-200 px-3 py-2 text-sm break-words">
      <p>
        {time} <span className="font-medium text-slate-900">@{item.senderUsername}</span>
        <span className="sr-only"> wrote:</span>
      </p>
      <p className="whitespace-pre-line text-slate-800">{item.content}</p>
    </li>
  );
}
