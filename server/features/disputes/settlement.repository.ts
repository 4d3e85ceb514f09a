import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { settlementAcceptances, settlementProposals, settlements, users } from '../../db/schema';

export type NewProposal = {
  disputeId: number;
  dealId: number;
  proposedById: number;
  toDealmakerCents: number;
  refundToCreatorCents: number;
  refundToCounterpartCents: number;
};

export const settlementRepository = {
  /** Supersedes the dispute's open proposal, if any, and stores the new one accepted by its proposer. */
  async propose(db: DbOrTx, proposal: NewProposal) {
    await this.closeOpen(db, proposal.disputeId, 'superseded');
    const [row] = await db.insert(settlementProposals).values(proposal).returning();
    await this.accept(db, row!.id, proposal.proposedById);
    return row!;
  },

  /** The dispute's open proposal leaves the table of choices ('superseded' or 'withdrawn'). */
  async closeOpen(db: DbOrTx, disputeId: number, status: 'superseded' | 'withdrawn') {
    await db
      .update(settlementProposals)
      .set({ status, decidedAt: new Date() })
      .where(and(eq(settlementProposals.disputeId, disputeId), eq(settlementProposals.status, 'open')));
  },

  async lock(db: DbOrTx, proposalId: number) {
    const [row] = await db
      .select()
      .from(settlementProposals)
      .where(eq(settlementProposals.id, proposalId))
      .for('update');
    return row;
  },

  async setStatus(db: DbOrTx, proposalId: number, status: 'accepted' | 'withdrawn') {
    await db
      .update(settlementProposals)
      .set({ status, decidedAt: new Date() })
      .where(eq(settlementProposals.id, proposalId));
  },

  /** Records the user's acceptance (again: nothing changes); answers who has accepted so far. */
  async accept(db: DbOrTx, proposalId: number, userId: number): Promise<number[]> {
    await db.insert(settlementAcceptances).values({ proposalId, userId }).onConflictDoNothing();
    const rows = await db
      .select({ userId: settlementAcceptances.userId })
      .from(settlementAcceptances)
      .where(eq(settlementAcceptances.proposalId, proposalId));
    return rows.map((row) => row.userId);
  },

  async insertSettlement(db: DbOrTx, values: typeof settlements.$inferInsert) {
    await db.insert(settlements).values(values);
  },

  /** The proposals of these disputes, newest first, with their proposer and accepters (in order). */
  async proposalsOf(db: DbOrTx, disputeIds: number[]) {
    if (disputeIds.length === 0) return [];
    return db
      .select({
        proposal: settlementProposals,
        proposerUsername: users.username,
        acceptedBy: sql<string[]>`coalesce((
          select array_agg(u.username order by a.accepted_at, a.user_id)
            from ${settlementAcceptances} a join ${users} u on u.id = a.user_id
           where a.proposal_id = ${settlementProposals.id}), '{}')`,
      })
      .from(settlementProposals)
      .innerJoin(users, eq(users.id, settlementProposals.proposedById))
      .where(inArray(settlementProposals.disputeId, disputeIds))
      .orderBy(desc(settlementProposals.id));
  },

  async settlementsOf(db: DbOrTx, disputeIds: number[]) {
    if (disputeIds.length === 0) return [];
    return db
      .select()
      .from(settlements)
      .where(inArray(settlements.disputeId, disputeIds))
      .orderBy(asc(settlements.disputeId));
  },
};

export type ProposalView = Awaited<ReturnType<typeof settlementRepository.proposalsOf>>[number];
