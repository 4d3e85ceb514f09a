import type { Tx } from '../../db/client';
import { bidsRepository } from './bids.repository';
import { dealmakerRequestsRepository } from './dealmaker-requests.repository';
import { dealsRepository } from './deals.repository';

/**
 * Gives a locked deal its dealmaker (DESIGN.md §5): by a jointly selected bid
 * (keepBidId, budget = its price) or by an accepted request (budget unchanged).
 * Every other bid and every pending request of the deal is removed.
 * Returns the users whose bid or request was removed.
 */
export async function assignDealmaker(
  tx: Tx,
  dealId: number,
  dealmakerId: number,
  options: { keepBidId: number | null; budgetCents?: number },
) {
  await dealsRepository.update(tx, dealId, {
    dealmakerId,
    ...(options.budgetCents !== undefined ? { budgetCents: options.budgetCents } : {}),
    // Finalizing keeps both selections on the kept bid; otherwise they would point at removed bids.
    ...(options.keepBidId === null ? { selectedBidByCreator: null, selectedBidByCounterpart: null } : {}),
  });
  const removedBidders = await bidsRepository.deleteOthers(tx, dealId, options.keepBidId);
  const removedRequests = await dealmakerRequestsRepository.deletePendingOfDeal(tx, dealId);
  return {
    removedBidderIds: removedBidders,
    removedRequestReceiverIds: removedRequests.map((r) => r.receiverId).filter((id) => id !== dealmakerId),
  };
}
