import type { Deal } from '../../../contract/deals';
import { Button, type ButtonVariant } from '../../components/ui/button';
import { useConfirmation } from '../../components/ui/confirm-dialog';
import { ShieldIcon } from '../../components/ui/icons';
import { useDeleteBid } from './bids-api';
import type { DealCardAction } from './card-actions';
import {
  deleteBidConfirmation,
  deleteDealConfirmation,
  leaveDealConfirmation,
  removeCounterpartConfirmation,
} from './deal-confirmations';
import type { OpenDealDialog } from './deal-dialogs';
import { dealTexts, failure, type ShowFlash, success } from './deal-flash';
import { useDeleteDealWithFlash, useLeaveDealWithFlash } from './deal-membership-actions';
import { useJoinDeal, useRemoveCounterpart } from './deals-api';

type DealCardActionsProps = {
  deal: Deal;
  actions: readonly DealCardAction[];
  onFlash: ShowFlash;
  /** Opens the bid, edit or ask-to-join dialog of the page. */
  onOpen: OpenDealDialog;
};

type ActionButton = {
  label: string;
  variant: ButtonVariant;
  className?: string;
  /** The call this button started is under way. */
  pending?: boolean;
  onClick: () => void;
};

/** The replacements of Delete Deal and Leave Deal once an escrow half is paid. */
const protectedNotes: Partial<Record<DealCardAction, string>> = {
  'delete-protected': 'Deal is protected - escrow payment made',
  'leave-protected': 'Cannot leave - escrow payment made',
};

/** The buttons of a deal card, in the order dealCardActions gives; each reports to the flash strip. */
export function DealCardActions({ deal, actions, onFlash, onOpen }: DealCardActionsProps) {
  // The messages go through the hooks' own callbacks: a deleted deal's card is gone when the answer arrives.
  const join = useJoinDeal({
    onSuccess: () => onFlash(success(dealTexts.joined)),
    onError: (error) => onFlash(failure(dealTexts.joinFailed, error)),
  });
  const leave = useLeaveDealWithFlash(onFlash);
  const remove = useDeleteDealWithFlash(onFlash);
  const deleteBid = useDeleteBid({
    onSuccess: () => onFlash(success(dealTexts.bidDeleted)),
    onError: (error) => onFlash(failure(dealTexts.bidDeleteFailed, error)),
  });
  const removeCounterpart = useRemoveCounterpart({
    onSuccess: () => onFlash(success(dealTexts.counterpartRemoved)),
    onError: (error) => onFlash(failure(dealTexts.removeCounterpartFailed, error)),
  });
  const busy =
    join.isPending ||
    leave.isPending ||
    remove.isPending ||
    deleteBid.isPending ||
    removeCounterpart.isPending;
  const confirmation = useConfirmation();
  const myBid = deal.my_bid;

  const buttons: Partial<Record<DealCardAction, ActionButton>> = {
    edit: { label: 'Edit Deal', variant: 'outline', onClick: () => onOpen({ kind: 'edit', deal }) },
    delete: {
      label: 'Delete Deal',
      variant: 'danger',
      pending: remove.isPending,
      onClick: () =>
        confirmation.ask(deleteDealConfirmation(deal, { onConfirm: () => remove.mutateSettled(deal.id) })),
    },
    'remove-counterpart': {
      label: 'Remove Counterpart',
      variant: 'outline',
      className: 'text-rose-700 hover:bg-rose-50',
      pending: removeCounterpart.isPending,
      onClick: () =>
        confirmation.ask(
          removeCounterpartConfirmation(deal, {
            onConfirm: () => removeCounterpart.mutateSettled(deal.id),
          }),
        ),
    },
    leave: {
      label: 'Leave Deal',
      variant: 'outline',
      pending: leave.isPending,
      onClick: () =>
        confirmation.ask(leaveDealConfirmation(deal, { onConfirm: () => leave.mutateSettled(deal.id) })),
    },
    join: {
      label: 'Join Deal',
      variant: 'primary',
      pending: join.isPending,
      onClick: () => join.mutate(deal.id),
    },
    'ask-to-join': {
      label: 'Ask to Join',
      variant: 'primary',
      onClick: () => onOpen({ kind: 'ask-to-join', deal }),
    },
    bid: { label: 'Bid as Dealmaker', variant: 'outline', onClick: () => onOpen({ kind: 'bid', deal }) },
    'update-bid': { label: 'Update Bid', variant: 'outline', onClick: () => onOpen({ kind: 'bid', deal }) },
    'delete-bid': {
      label: 'Delete Bid',
      variant: 'ghost',
      className: 'text-rose-700 hover:bg-rose-50',
      pending: deleteBid.isPending,
      onClick: () => {
        if (!myBid) return;
        confirmation.ask(
          deleteBidConfirmation(deal, myBid.price, {
            onConfirm: () => deleteBid.mutateSettled({ bidId: myBid.id, dealId: deal.id }),
          }),
        );
      },
    },
  };

  return (
    <>
      {actions.map((action) => {
        const note = protectedNotes[action];
        if (note) return <ProtectedNote key={action}>{note}</ProtectedNote>;
        const button = buttons[action];
        if (!button) return null;
        return (
          <Button
            key={action}
            variant={button.variant}
            size="sm"
            className={button.className}
            loading={button.pending}
            disabled={busy}
            onClick={button.onClick}
          >
            {button.label}
          </Button>
        );
      })}
      {confirmation.dialog}
    </>
  );
}

function ProtectedNote({ children }: { children: string }) {
  return (
    <p className="inline-flex items-center gap-1.5 rounded-lg bg-emerald-50 px-3 py-1.5 text-sm font-medium text-emerald-800">
      <ShieldIcon size={16} className="shrink-0" />
      {children}
    </p>
  );
}
