import type { Deal } from '../../../contract/deals';
import type { DealViewer } from './deal-viewer';

/** A button of a deal card (and of the deal page's Take part and Manage Deal sections), in display order. */
export type DealCardAction =
  /** The creator's Edit Deal, while the deal has no dealmaker. */
  | 'edit'
  | 'delete'
  /** The creator's Delete Deal, replaced once an escrow half is paid. */
  | 'delete-protected'
  /** The creator's Remove Counterpart, while no escrow half is paid. */
  | 'remove-counterpart'
  | 'leave'
  /** The counterpart's Leave Deal, replaced once an escrow half is paid. */
  | 'leave-protected'
  | 'join'
  /** Join Deal's place on a deal whose creator accepts who joins it (joinPolicy 'approval'). */
  | 'ask-to-join'
  | 'bid'
  | 'update-bid'
  | 'delete-bid';

/**
 * The buttons a deal card shows, in display order, as the server answered what the viewer may do
 * (`deal.can`, spec §2 Deals page). The creator's Delete Deal and the counterpart's Leave Deal give way
 * to a note once an escrow half is paid (`escrow_paid`): the reason the server refuses them then.
 */
export function dealCardActions(deal: Deal, viewer: Pick<DealViewer, 'role'>): DealCardAction[] {
  const { can } = deal;
  const actions: DealCardAction[] = [];
  if (can.edit) actions.push('edit');
  if (can.delete) actions.push('delete');
  else if (viewer.role === 'creator' && deal.escrow_paid) actions.push('delete-protected');
  if (can.removeCounterpart) actions.push('remove-counterpart');
  if (can.leave) actions.push('leave');
  else if (viewer.role === 'counterpart' && deal.escrow_paid) actions.push('leave-protected');
  if (can.join) actions.push('join');
  if (can.askToJoin) actions.push('ask-to-join');
  if (can.bid) actions.push('bid');
  if (can.updateBid) actions.push('update-bid');
  if (can.deleteBid) actions.push('delete-bid');
  return actions;
}

/** The creator's buttons on the deal page (Manage Deal): correcting the deal and removing its counterpart. */
export const creatorPageActions: readonly DealCardAction[] = ['edit', 'remove-counterpart'];
