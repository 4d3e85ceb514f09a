import type { Milestone, MilestoneCan, MilestonePlan, MilestoneStatus } from '../../../contract/milestones';
import { centsToDollars } from '../../../contract/money';
import type { MilestonePlanRow, MilestoneRow } from '../../db/schema';

export function presentMilestone(row: MilestoneRow, can: MilestoneCan): Milestone {
  return {
    id: row.id,
    position: row.position,
    title: row.title,
    amount: centsToDollars(row.amountCents),
    creatorShare: centsToDollars(row.creatorShareCents),
    counterpartShare: centsToDollars(row.counterpartShareCents),
    creatorPaid: row.creatorPaid,
    counterpartPaid: row.counterpartPaid,
    status: row.status as MilestoneStatus,
    dueDate: row.dueDate?.toISOString() ?? null,
    submittedAt: row.submittedAt?.toISOString() ?? null,
    note: row.note,
    creatorApproved: row.creatorApproved,
    counterpartApproved: row.counterpartApproved,
    autoReleaseAt: row.autoReleaseAt?.toISOString() ?? null,
    releasedAt: row.releasedAt?.toISOString() ?? null,
    expiresAt: row.loneHalfExpiresAt?.toISOString() ?? null,
    can,
  };
}

/** A plan proposal, with its people's usernames (`usernames` by user id). */
export function presentPlan(row: MilestonePlanRow, usernames: Map<number, string>): MilestonePlan {
  return {
    id: row.id,
    dealId: row.dealId,
    proposedBy: { username: usernames.get(row.proposedById) ?? '' },
    milestones: row.milestones.map((milestone, index) => ({
      position: index + 1,
      title: milestone.title,
      amount: centsToDollars(milestone.amountCents),
      dueDate: milestone.dueDate,
    })),
    acceptedBy: row.acceptedByIds.map((id) => usernames.get(id) ?? ''),
    status: row.status as MilestonePlan['status'],
    createdAt: row.createdAt.toISOString(),
  };
}
