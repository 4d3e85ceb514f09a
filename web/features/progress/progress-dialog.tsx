import { useState } from 'react';
import type { Deal } from '../../../contract/deals';
import type { Notice } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { ChartIcon } from '../../components/ui/icons';
import { QueryDialog } from '../../components/ui/query-dialog';
import { serverReason } from '../../lib/api';
import { useTimedMessage } from '../../lib/use-timed-message';
import { AddProgressItemForm } from './add-progress-item-form';
import { useChangeProgressStatus, useDealProgress } from './progress-api';
import { ProgressItemCard } from './progress-item-card';
import { inStepOrder, progressActions, statusWords } from './progress-labels';

/** Banners stay 3 seconds (spec §9). */
const bannerDurationMs = 3000;

export type ProgressDialogProps = {
  deal: Deal;
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/**
 * 'Deal Progress Tracking' (spec §2 Progress modal): the deal's progress steps as 'Step N'. The dealmaker
 * adds items and moves them along (`can.addProgress`); the dealers read.
 */
export function ProgressDialog({ deal, open, onOpenChange }: ProgressDialogProps) {
  const canManage = deal.can.addProgress;
  const progress = useDealProgress(deal.id, open);
  const [banner, showBanner] = useTimedMessage<Notice>(bannerDurationMs);
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
    <QueryDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setAdding(false);
        onOpenChange(next);
      }}
      title="Deal Progress Tracking"
      description={
        canManage
          ? `Track the progress steps of "${deal.title}" and move them along as the work advances.`
          : `The progress steps of "${deal.title}", as the dealmaker tracks them.`
      }
      notice={banner}
      actions={
        canManage &&
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
        ))
      }
      query={progress}
      loadingLabel="Loading progress..."
      errorText="Failed to fetch progress"
      empty={
        items.length === 0 && (
          <EmptyState
            icon={<ChartIcon size={28} />}
            title="No progress items found for this deal."
            description={canManage ? 'Click "Add Progress Item" to start tracking progress.' : undefined}
            className="py-10"
          />
        )
      }
    >
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
    </QueryDialog>
  );
}

/** 'Track Progress': opens the Deal Progress Tracking dialog. */
export function TrackProgressButton({ deal }: { deal: Deal }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <ChartIcon size={16} />
        Track Progress
      </Button>
      <ProgressDialog deal={deal} open={open} onOpenChange={setOpen} />
    </>
  );
}
