import { lazy } from 'react';
import type { Deal } from '../../../contract/deals';
import { BidDialog } from './bid-dialog';
import type { ShowFlash } from './deal-flash';

// Opened by few (a creator correcting a deal, someone asking to join): loaded when first opened, so that
// the Deals page stays within its weight budget (scripts/bundle-size.mjs).
const EditDealDialog = lazy(() => import('./edit-deal-dialog').then((m) => ({ default: m.EditDealDialog })));
const AskToJoinDialog = lazy(() =>
  import('./ask-to-join-dialog').then((m) => ({ default: m.AskToJoinDialog })),
);

/** A dialog a deal's button opens, and the deal it is about. */
export type DealDialog = { kind: 'bid' | 'edit' | 'ask-to-join'; deal: Deal };

/** Opens one of the dialogs for a deal. */
export type OpenDealDialog = (dialog: DealDialog) => void;

type DealDialogsProps = {
  /** The dialog open now, if any. */
  open: DealDialog | null;
  onClose: () => void;
  onFlash: ShowFlash;
};

/**
 * The dialogs a deal's buttons open — Bid as Dealmaker (or Update Bid), Edit Deal, Ask to Join — once
 * for a whole page of deals, each reporting to the page's flash strip.
 */
export function DealDialogs({ open, onClose, onFlash }: DealDialogsProps) {
  const dealFor = (kind: DealDialog['kind']) => (open?.kind === kind ? open.deal : null);
  return (
    <>
      <BidDialog deal={dealFor('bid')} onClose={onClose} onFlash={onFlash} />
      <EditDealDialog deal={dealFor('edit')} onClose={onClose} onFlash={onFlash} />
      <AskToJoinDialog deal={dealFor('ask-to-join')} onClose={onClose} onFlash={onFlash} />
    </>
  );
}
