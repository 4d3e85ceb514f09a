import type { DealAccess } from '../../core/deal/deal-access';
import type { Tx } from '../../db/client';
import type { EscrowService } from '../escrow/escrow.service';
import { bidsRepository } from './bids.repository';
import { dealmakerRequestsRepository } from './dealmaker-requests.repository';

/**
 * Gives a locked deal its dealmaker (DESIGN.md §5): by a jointly selected bid
 * (keepBidId, the budget becomes its price) or by an accepted request (budget
 * unchanged). Every other bid and every pending request of the deal is
 * removed, and the deal's escrow is opened for the final budget, all in the
 * caller's transaction. Returns the users whose bid or request was removed.
 */
export async function assignDealmaker(
  tx: Tx,
  { deals, escrow }: { deals: DealAccess; escrow: EscrowService },
  dealId: number,
  dealmakerId: number,
  options: { keepBidId: number | null; budgetCents: number },
) {
  await deals.update(tx, dealId, {
    dealmakerId,
    budgetCents: options.budgetCents,
    // Finalizing keeps both selections on the kept bid; otherwise they would point at removed bids.
    ...(options.keepBidId === null ? { selectedBidByCreator: null, selectedBidByCounterpart: null } : {}),
  });
  const removedBidders = await bidsRepository.deleteOthers(tx, dealId, options.keepBidId);
  const removedRequests = await dealmakerRequestsRepository.deletePendingOfDeal(tx, dealId);
  await escrow.open(tx, dealId, options.budgetCents);
  return {
    removedBidderIds: removedBidders,
    removedRequestReceiverIds: removedRequests.map((r) => r.receiverId).filter((id) => id !== dealmakerId),
  };
}
