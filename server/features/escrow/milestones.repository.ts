import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { type MilestoneRow, milestonePlans, milestones, users } from '../../db/schema';

/** A deal's milestones and its proposed plans (staged escrow). */
export const milestonesRepository = {
  /** The deal's milestones in order, locked (the caller holds the deal and escrow locks: the lock order). */
  lockOfDeal(db: DbOrTx, dealId: number): Promise<MilestoneRow[]> {
    return db
      .select()
      .from(milestones)
      .where(eq(milestones.dealId, dealId))
      .orderBy(asc(milestones.position))
      .for('update');
  },

  listOfDeal(db: DbOrTx, dealId: number): Promise<MilestoneRow[]> {
    return db
      .select()
      .from(milestones)
      .where(eq(milestones.dealId, dealId))
      .orderBy(asc(milestones.position));
  },

  /** Which deal a milestone belongs to (read before anything is locked: the deal is locked first). */
  async dealIdOf(db: DbOrTx, id: number): Promise<number | undefined> {
    const [row] = await db
      .select({ dealId: milestones.dealId })
      .from(milestones)
      .where(eq(milestones.id, id));
    return row?.dealId;
  },

  async insertMany(db: DbOrTx, rows: Array<typeof milestones.$inferInsert>): Promise<MilestoneRow[]> {
    return db.insert(milestones).values(rows).returning();
  },

  async deleteOfDeal(db: DbOrTx, dealId: number) {
    await db.delete(milestones).where(eq(milestones.dealId, dealId));
  },

  async update(
    db: DbOrTx,
    id: number,
    values: Partial<typeof milestones.$inferInsert>,
  ): Promise<MilestoneRow> {
    const [row] = await db
      .update(milestones)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(milestones.id, id))
      .returning();
    return row!;
  },

  /** Stops (null) the auto-release timers of the deal's submitted milestones: a dispute was raised. */
  async pauseAutoRelease(db: DbOrTx, dealId: number): Promise<MilestoneRow[]> {
    return db
      .update(milestones)
      .set({ autoReleaseAt: null, updatedAt: new Date() })
      .where(and(eq(milestones.dealId, dealId), eq(milestones.status, 'submitted')))
      .returning();
  },

  /** Starts the timers of the deal's submitted milestones again (the last open dispute was resolved). */
  async resumeAutoRelease(db: DbOrTx, dealId: number, at: Date): Promise<MilestoneRow[]> {
    return db
      .update(milestones)
      .set({ autoReleaseAt: at, updatedAt: new Date() })
      .where(and(eq(milestones.dealId, dealId), eq(milestones.status, 'submitted')))
      .returning();
  },

  // ── Plans ──

  async insertPlan(db: DbOrTx, values: typeof milestonePlans.$inferInsert) {
    const [row] = await db.insert(milestonePlans).values(values).returning();
    return row!;
  },

  async lockPlan(db: DbOrTx, id: number) {
    const [row] = await db.select().from(milestonePlans).where(eq(milestonePlans.id, id)).for('update');
    return row;
  },

  async updatePlan(db: DbOrTx, id: number, values: Partial<typeof milestonePlans.$inferInsert>) {
    const [row] = await db.update(milestonePlans).set(values).where(eq(milestonePlans.id, id)).returning();
    return row!;
  },

  /** Marks the deal's open proposal superseded (a new one is made). */
  async supersedeOpen(db: DbOrTx, dealId: number) {
    await db
      .update(milestonePlans)
      .set({ status: 'superseded' })
      .where(and(eq(milestonePlans.dealId, dealId), eq(milestonePlans.status, 'open')));
  },

  plansOfDeal(db: DbOrTx, dealId: number) {
    return db
      .select()
      .from(milestonePlans)
      .where(eq(milestonePlans.dealId, dealId))
      .orderBy(desc(milestonePlans.id));
  },

  /** Usernames by user id, for presenting proposals. */
  async usernames(db: DbOrTx, ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await db
      .select({ id: users.id, username: users.username })
      .from(users)
      .where(inArray(users.id, [...new Set(ids)]));
    return new Map(rows.map((row) => [row.id, row.username]));
  },
};
