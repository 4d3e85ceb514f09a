import type { DbOrTx } from '../../db/client';
import { escrowRepository } from './escrow.repository';

/** The escrow of each deal that has a dealmaker. */
export class EscrowService {
  /** Whether any half of the deal's escrow is paid: the deal is then protected from delete, leave and changes. */
  async anyHalfPaid(tx: DbOrTx, dealId: number): Promise<boolean> {
    const escrow = await escrowRepository.findByDealId(tx, dealId);
    return !!escrow && (escrow.creatorPaid || escrow.counterpartPaid);
  }
}
