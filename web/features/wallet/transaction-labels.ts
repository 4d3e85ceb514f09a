import type { Deal } from '../../../contract/deals';
import type { WalletTransaction, WalletTransactionType } from '../../../contract/wallet';

/** Each type of movement in words (filter options, receipts). */
export const transactionTypeLabels: Record<WalletTransactionType, string> = {
  deposit: 'Deposit',
  withdraw: 'Withdrawal',
  escrow_lock: 'Escrow payment',
  escrow_refund: 'Escrow refund',
  payment_received: 'Payment received',
};

type DealPeople = Pick<Deal, 'title' | 'dealer_creator' | 'dealer_joined' | 'dealmaker' | 'is_completed'> &
  Partial<Pick<Deal, 'settled'>>;

/**
 * The other side of a movement, for its receipt: where the money came from or went to. `deal` is the
 * movement's deal once loaded (undefined while loading or when it cannot be read). A deal a dispute's
 * settlement completed (`settled`) had its escrow split, not released whole to its dealmaker.
 */
export function counterpartOf(
  transaction: Pick<WalletTransaction, 'type' | 'dealId'>,
  deal: DealPeople | undefined,
): string {
  const escrow = deal ? `the escrow of '${deal.title}'` : `the escrow of deal #${transaction.dealId ?? '?'}`;
  switch (transaction.type) {
    case 'deposit':
      return 'From outside Dealmaker (a simulated deposit: no card or bank was charged)';
    case 'withdraw':
      return 'To outside Dealmaker (a withdrawal)';
    case 'escrow_lock':
      if (deal?.settled) return `To ${escrow}, split by a dispute's settlement when the deal was completed`;
      if (!deal?.dealmaker) return `To ${escrow}`;
      return deal.is_completed
        ? `To ${escrow}, released to @${deal.dealmaker} when the deal was completed`
        : `To ${escrow}, for @${deal.dealmaker} once the deal is completed`;
    case 'escrow_refund':
      return `From ${escrow}, your half taken back`;
    case 'payment_received': {
      if (deal?.settled) return `From ${escrow}, the dealmaker's share of a dispute's settlement`;
      const payers = deal ? [deal.dealer_creator, deal.dealer_joined].filter(Boolean) : [];
      return payers.length > 0
        ? `From ${escrow}, paid in by ${payers.map((name) => `@${name}`).join(' and ')}`
        : `From ${escrow}`;
    }
  }
}
