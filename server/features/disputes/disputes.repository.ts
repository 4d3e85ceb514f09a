import { and, desc, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { disputes, users } from '../../db/schema';

const raiser = alias(users, 'raiser');
const resolver = alias(users, 'resolver');

function selectDisputeViews(db: DbOrTx) {
  return db
    .select({
      dispute: disputes,
      raiserUsername: raiser.username,
      raiserFullName: raiser.fullName,
      resolverUsername: resolver.username,
      resolverFullName: resolver.fullName,
    })
    .from(disputes)
    .innerJoin(raiser, eq(raiser.id, disputes.raisedById))
    .leftJoin(resolver, eq(resolver.id, disputes.resolvedById));
}

export type DisputeView = Awaited<ReturnType<ReturnType<typeof selectDisputeViews>['execute']>>[number];

export const disputesRepository = {
  async insert(db: DbOrTx, values: typeof disputes.$inferInsert) {
    const [row] = await db.insert(disputes).values(values).returning();
    return row!;
  },

  async findById(db: DbOrTx, id: number) {
    const [row] = await db.select().from(disputes).where(eq(disputes.id, id));
    return row;
  },

  async lock(db: DbOrTx, id: number) {
    const [row] = await db.select().from(disputes).where(eq(disputes.id, id)).for('update');
    return row;
  },

  async resolve(db: DbOrTx, id: number, values: { resolution: string; resolvedById: number | null }) {
    await db
      .update(disputes)
      .set({ ...values, status: 'resolved', resolvedAt: new Date() })
      .where(eq(disputes.id, id));
  },

  /** The deal's other open disputes: a settlement pays the escrow out, which ends them too. */
  async openOfDeal(db: DbOrTx, dealId: number) {
    return db
      .select()
      .from(disputes)
      .where(and(eq(disputes.dealId, dealId), eq(disputes.status, 'open')))
      .for('update');
  },

  async update(db: DbOrTx, id: number, values: Partial<typeof disputes.$inferInsert>) {
    await db.update(disputes).set(values).where(eq(disputes.id, id));
  },

  /**
   * Open disputes that have no escalation deadline yet (raised before
   * deadlines existed), claimed with their deadline set; another instance
   * doing the same at the same moment skips the claimed rows.
   */
  async claimMissingDeadlines(db: DbOrTx, escalationMs: number) {
    return db
      .update(disputes)
      .set({
        escalatesAt: sql`greatest(${disputes.createdAt} + ${`${escalationMs} milliseconds`}::interval, now())`,
      })
      .where(
        sql`${disputes.id} in (select id from disputes
              where status = 'open' and escalated_at is null and escalates_at is null
              for update skip locked)`,
      )
      .returning({ id: disputes.id, escalatesAt: disputes.escalatesAt });
  },

  async view(db: DbOrTx, id: number) {
    const [row] = await selectDisputeViews(db).where(eq(disputes.id, id));
    return row;
  },

  listOfDeal(db: DbOrTx, dealId: number) {
    return selectDisputeViews(db).where(eq(disputes.dealId, dealId)).orderBy(desc(disputes.id));
  },

  /** The operators' queue: newest first, by status and escalation. */
  list(
    db: DbOrTx,
    options: { status: 'open' | 'resolved' | 'all'; escalated?: boolean; beforeId?: number; limit: number },
  ) {
    return selectDisputeViews(db)
      .where(
        and(
          options.status === 'all' ? undefined : eq(disputes.status, options.status),
          options.escalated === undefined
            ? undefined
            : options.escalated
              ? isNotNull(disputes.escalatedAt)
              : isNull(disputes.escalatedAt),
          options.beforeId ? lt(disputes.id, options.beforeId) : undefined,
        ),
      )
      .orderBy(desc(disputes.id))
      .limit(options.limit);
  },
};
