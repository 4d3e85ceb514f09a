import type { DealRow } from './deals.repository';

export type DealRole = 'creator' | 'counterpart' | 'dealmaker';

/** The user's role on a deal (DESIGN.md §5: roles are per deal), or null for an outsider. */
export function roleOf(deal: DealRow, userId: number): DealRole | null {
  if (deal.creatorId === userId) return 'creator';
  if (deal.counterpartId === userId) return 'counterpart';
  if (deal.dealmakerId === userId) return 'dealmaker';
  return null;
}

export const isDealer = (deal: DealRow, userId: number) =>
  deal.creatorId === userId || deal.counterpartId === userId;

export const isParticipant = (deal: DealRow, userId: number) => roleOf(deal, userId) !== null;

export const participantIds = (deal: DealRow) =>
  [deal.creatorId, deal.counterpartId, deal.dealmakerId].filter((id): id is number => id !== null);
