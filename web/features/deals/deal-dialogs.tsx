import type { Deal } from '../../../contract/deals';
import { loadedWhenOpened } from '../../lib/loaded-when-opened';
import type { ShowFlash } from './deal-flash';

type DialogProps = { deal: Deal | null; onClose: () => void; onFlash: ShowFlash };

// Downloaded when first opened, not with the page of deals: bidding (or changing a bid), correcting a
// deal (its creator), asking to join.
const BidDialog = loadedWhenOpened<DialogProps>(
  () => import('./bid-dialog').then((module) => module.BidDialog),
  (props) => props.deal !== null,
);
const EditDealDialog = loadedWhenOpened<DialogProps>(
  () => import('./edit-deal-dialog').then((module) => module.EditDealDialog),
  (props) => props.deal !== null,
);
const AskToJoinDialog = loadedWhenOpened<DialogProps>(
  () => import('./ask-to-join-dialog').then((module) => module.AskToJoinDialog),
  (props) => props.deal !== null,
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
