import type { OperatorDispute } from '../../../contract/operator';

/**
 * Why this operator may not settle the dispute, or null when they may. The server's rules (an operator
 * settles only escalated disputes of deals they take no part in, on a locked escrow) mirrored, so the
 * console shows the reason instead of a form the server would refuse.
 */
export function settleRefusalOf(
  item: Pick<OperatorDispute, 'dispute' | 'escrow' | 'participants'>,
  operatorUsername: string | undefined,
): string | null {
  const me = operatorUsername?.toLowerCase();
  const { creator, counterpart, dealmaker } = item.participants;
  // Usernames are unique whatever their case.
  if (me && [creator, counterpart, dealmaker].some((name) => name?.toLowerCase() === me)) {
    return 'You take part in this deal: another operator must settle it.';
  }
  if (item.dispute.status !== 'open') return 'This dispute is no longer open.';
  if (!item.dispute.escalated) {
    return 'This dispute has not been escalated to the operators yet: its participants may still settle it.';
  }
  if (item.escrow?.status !== 'locked') {
    return 'The escrow is not locked: there is no money to split until both halves are paid.';
  }
  return null;
}
