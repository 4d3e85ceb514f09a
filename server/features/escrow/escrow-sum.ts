import type { DealerSide } from '../../core/deal/deal-roles';
import type { EscrowRow, MilestoneRow } from '../../db/schema';

/** A funded milestone not released yet: its money is held in escrow (what a settlement splits). */
export const isHeld = (milestone: Pick<MilestoneRow, 'status'>) =>
  milestone.status === 'funded' || milestone.status === 'submitted';

/** The first milestone not funded yet: the one the spec's escrow calls pay and refund. */
export const currentMilestone = <M extends Pick<MilestoneRow, 'status'>>(milestones: readonly M[]) =>
  milestones.find((milestone) => milestone.status === 'open');

export const shareOf = (
  row: Pick<MilestoneRow, 'creatorShareCents' | 'counterpartShareCents'>,
  side: DealerSide,
) => (side === 'creator' ? row.creatorShareCents : row.counterpartShareCents);

export const paidBy = (row: Pick<MilestoneRow, 'creatorPaid' | 'counterpartPaid'>, side: DealerSide) =>
  side === 'creator' ? row.creatorPaid : row.counterpartPaid;

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/**
 * The escrow row as the sum of its milestones (the spec's escrow, schema/escrow.ts): the halves,
 * pending status and lone-half deadline of the first milestone not funded; locked once all are funded,
 * completed once all are released; settled stays settled.
 */
export function escrowSumOf(escrow: Pick<EscrowRow, 'status'>, milestones: readonly MilestoneRow[]) {
  const current = currentMilestone(milestones);
  const held = milestones.filter(isHeld);
  const released = milestones.filter((milestone) => milestone.status === 'released');
  const status =
    escrow.status === 'settled'
      ? 'settled'
      : released.length === milestones.length
        ? 'completed'
        : current
          ? 'pending'
          : 'locked';
  return {
    creatorPaid: current ? current.creatorPaid : true,
    counterpartPaid: current ? current.counterpartPaid : true,
    status,
    loneHalfExpiresAt: current?.loneHalfExpiresAt ?? null,
    heldCents: sum(held.map((milestone) => milestone.amountCents)),
    heldCreatorShareCents: sum(held.map((milestone) => milestone.creatorShareCents)),
    releasedCents: sum(released.map((milestone) => milestone.amountCents)),
  };
}

/**
 * How texts name a milestone: nothing for a deal's only milestone (its texts are the spec's escrow
 * texts), else `milestone 2 "Design"`.
 */
export function milestoneName(
  milestone: Pick<MilestoneRow, 'position' | 'title'>,
  count: number,
): string | null {
  return count === 1 ? null : `milestone ${milestone.position} "${milestone.title}"`;
}
