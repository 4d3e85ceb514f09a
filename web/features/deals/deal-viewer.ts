import type { Deal, DealRole } from '../../../contract/deals';
import { sameUser } from '../../lib/same-user';

/**
 * "Who am I on this deal": the one place that compares the signed-in username with a deal's people.
 * Every screen that shows or offers something by the viewer's part in a deal asks this.
 */

/** The viewer's relation to a deal: one of its three roles, a bidder on it (has `my_bid`), or an outsider. */
export type DealRelation = DealRole | 'bidder' | 'outsider';

/** The people of a deal, as far as the viewer's relation depends on them. */
export type DealPeople = Pick<Deal, 'dealer_creator' | 'dealer_joined' | 'dealmaker'> &
  Partial<Pick<Deal, 'my_bid'>>;

/** The viewer of a deal, as every section of the detail view receives it. */
export type DealViewer = {
  username: string;
  relation: DealRelation;
  /** The viewer's part in the deal, or null for anyone else (bidders included). */
  role: DealRole | null;
  /** Creator or counterpart: pays escrow, selects bids, marks finished, raises disputes. */
  isDealer: boolean;
  /** Creator, counterpart or dealmaker: sees escrow, progress, disputes and the chat. */
  isParticipant: boolean;
};

export function dealViewerOf(deal: DealPeople, username: string | null | undefined): DealViewer {
  const relation: DealRelation = sameUser(deal.dealer_creator, username)
    ? 'creator'
    : sameUser(deal.dealer_joined, username)
      ? 'counterpart'
      : sameUser(deal.dealmaker, username)
        ? 'dealmaker'
        : deal.my_bid
          ? 'bidder'
          : 'outsider';
  const role = relation === 'bidder' || relation === 'outsider' ? null : relation;
  return {
    username: username ?? '',
    relation,
    role,
    isDealer: role === 'creator' || role === 'counterpart',
    isParticipant: role !== null,
  };
}

/** The viewer's part in a deal (creator, counterpart, dealmaker), or null for anyone else. */
export const dealRoleOf = (deal: DealPeople, username: string | null | undefined): DealRole | null =>
  dealViewerOf(deal, username).role;
