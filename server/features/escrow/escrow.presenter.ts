import type { Escrow, EscrowStatusValue } from '../../../contract/escrow';
import { centsToDollars } from '../../../contract/money';
import type { EscrowRow } from '../../db/schema';

export function presentEscrow(row: EscrowRow): Escrow {
  return {
    amount: centsToDollars(row.amountCents),
    status: row.status as EscrowStatusValue,
    creatorPaid: row.creatorPaid,
    counterpartPaid: row.counterpartPaid,
    creatorAmount: centsToDollars(row.creatorShareCents),
    counterpartAmount: centsToDollars(row.counterpartShareCents),
    expiresAt: row.loneHalfExpiresAt?.toISOString() ?? null,
  };
}
