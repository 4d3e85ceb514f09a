import { useState } from 'react';
import type { Deal } from '../../../contract/deals';
import type { Notice } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { AlertCircleIcon, ShieldIcon } from '../../components/ui/icons';
import { QueryDialog } from '../../components/ui/query-dialog';
import { useTimedMessage } from '../../lib/use-timed-message';
import type { DealViewer } from '../deals';
import { useSettleableEscrow } from '../escrow';
import { DisputeCard } from './dispute-card';
import { RaiseDisputeForm } from './dispute-forms';
import { useDealDisputes } from './disputes-api';

/** Banners stay 3 seconds (spec §9). */
const bannerDurationMs = 3000;

export type DisputesDialogProps = {
  deal: Deal;
  viewer: DealViewer;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Opens with the Raise New Dispute form showing, its title filled in (e.g. 'Milestone 2 "Design"'). */
  draftTitle?: string;
};

/**
 * 'Deal Disputes' (spec §2 Disputes modal): the dealers raise disputes once the deal has a dealmaker;
 * the dealmaker resolves open ones with a resolution. Everyone on the deal reads them.
 */
export function DisputesDialog({ deal, viewer, open, onOpenChange, draftTitle }: DisputesDialogProps) {
  const isDealmaker = viewer.role === 'dealmaker';
  const canRaise = deal.can.raiseDispute;
  const disputes = useDealDisputes(deal.id, open);
  // What a settlement splits: the money the deal's milestones hold (with one milestone, the locked escrow).
  const escrow = useSettleableEscrow(deal.id, open && !!deal.dealmaker);
  const [banner, showBanner] = useTimedMessage<Notice>(bannerDurationMs);
  const [raising, setRaising] = useState(open && draftTitle !== undefined);
  // Opened with a draft: the form shows at once (state adjusted while rendering, as the prop changes).
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open && draftTitle !== undefined) setRaising(true);
  }

  return (
    <QueryDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setRaising(false);
        onOpenChange(next);
      }}
      title="Deal Disputes"
      description={`Disagreements about "${deal.title}" and how the dealmaker resolved them.`}
      notice={banner}
      actions={
        canRaise &&
        (raising ? (
          <RaiseDisputeForm
            dealId={deal.id}
            initialTitle={draftTitle}
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
        ))
      }
      query={disputes}
      loadingLabel="Loading disputes..."
      errorText="Failed to fetch disputes"
      empty={
        disputes.data?.length === 0 && (
          <EmptyState
            icon={<ShieldIcon size={28} />}
            title="No disputes found for this deal."
            className="py-10"
          />
        )
      }
    >
      <ul className="space-y-3">
        {disputes.data?.map((dispute) => (
          <li key={dispute.id}>
            <DisputeCard
              dispute={dispute}
              canResolve={isDealmaker && dispute.status === 'open'}
              onResolved={() => showBanner({ tone: 'success', text: 'Dispute resolved successfully' })}
              onResolveFailed={(detail) =>
                showBanner({ tone: 'error', text: 'Failed to resolve dispute', detail })
              }
              settling={{ deal, viewer, escrow }}
              onNotice={showBanner}
            />
          </li>
        ))}
      </ul>
    </QueryDialog>
  );
}

/** 'Manage Disputes': opens the Deal Disputes dialog. */
export function ManageDisputesButton({ deal, viewer }: { deal: Deal; viewer: DealViewer }) {
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

type RaiseDisputeButtonProps = {
  deal: Deal;
  viewer: DealViewer;
  /** The dispute's title to start from, e.g. 'Milestone 2 "Design"'. */
  title: string;
  /**
   * Whether the button shows. Its dialog stays while open even when the button goes (a settlement
   * proposed in it may end what the button was about).
   */
  shown: boolean;
};

/**
 * 'Raise a dispute' about one part of the deal (a milestone): opens the Deal Disputes dialog with the
 * Raise New Dispute form showing and `title` filled in.
 */
export function RaiseDisputeButton({ deal, viewer, title, shown }: RaiseDisputeButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      {shown && (
        <Button size="sm" variant="danger" onClick={() => setOpen(true)}>
          <AlertCircleIcon size={16} />
          Raise a dispute
        </Button>
      )}
      <DisputesDialog deal={deal} viewer={viewer} open={open} onOpenChange={setOpen} draftTitle={title} />
    </>
  );
}
