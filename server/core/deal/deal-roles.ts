import type { DealRole, PublicDeal } from '../../../contract/deals';
import type { DealRow } from '../../db/schema';

export type { DealRole };
/** The half of the escrow a dealer pays: the creator's or the counterpart's. */
export type DealerSide = 'creator' | 'counterpart';

/** The user's role on a deal (DESIGN.md §5: roles are per deal), or null for an outsider. */
export function roleOf(deal: DealRow, userId: number): DealRole | null {
  if (deal.creatorId === userId) return 'creator';
  if (deal.counterpartId === userId) return 'counterpart';
  if (deal.dealmakerId === userId) return 'dealmaker';
  return null;
}

/** Which of the two dealers the user is, or null when they are neither. */
export function dealerSideOf(deal: DealRow, userId: number): DealerSide | null {
  if (deal.creatorId === userId) return 'creator';
  if (deal.counterpartId === userId) return 'counterpart';
  return null;
}

export const isDealer = (deal: DealRow, userId: number) => dealerSideOf(deal, userId) !== null;

export const isParticipant = (deal: DealRow, userId: number) => roleOf(deal, userId) !== null;

export const participantIds = (deal: DealRow) =>
  [deal.creatorId, deal.counterpartId, deal.dealmakerId].filter((id): id is number => id !== null);

/** The other dealer of the deal (null while nobody has joined). */
export const otherDealerOf = (deal: DealRow, side: DealerSide) =>
  side === 'creator' ? deal.counterpartId : deal.creatorId;

/** The username of a dealer of the deal's view. */
export const dealerNameOf = (deal: PublicDeal, side: DealerSide) =>
  side === 'creator' ? deal.dealer_creator : (deal.dealer_joined ?? '');
