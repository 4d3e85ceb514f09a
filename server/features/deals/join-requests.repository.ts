import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { dealJoinRequests, users } from '../../db/schema';

function selectJoinRequestViews(db: DbOrTx) {
  return db
    .select({ request: dealJoinRequests, username: users.username, fullName: users.fullName })
    .from(dealJoinRequests)
    .innerJoin(users, eq(users.id, dealJoinRequests.requesterId));
}

export type JoinRequestView = Awaited<
  ReturnType<ReturnType<typeof selectJoinRequestViews>['execute']>
>[number];

/** Requests to join deals posted with joinPolicy 'approval'. */
export const joinRequestsRepository = {
  async insert(db: DbOrTx, values: { dealId: number; requesterId: number; message: string }) {
    const [row] = await db.insert(dealJoinRequests).values(values).returning();
    return row!;
  },

  async lock(db: DbOrTx, id: number) {
    const [row] = await db.select().from(dealJoinRequests).where(eq(dealJoinRequests.id, id)).for('update');
    return row;
  },

  async view(db: DbOrTx, id: number) {
    const [row] = await selectJoinRequestViews(db).where(eq(dealJoinRequests.id, id));
    return row;
  },

  /** The deal's requests, newest first: all of them, or one requester's. */
  listOfDeal(db: DbOrTx, dealId: number, requesterId?: number) {
    return selectJoinRequestViews(db)
      .where(
        and(
          eq(dealJoinRequests.dealId, dealId),
          requesterId === undefined ? undefined : eq(dealJoinRequests.requesterId, requesterId),
        ),
      )
      .orderBy(desc(dealJoinRequests.id));
  },

  async findPending(db: DbOrTx, dealId: number, requesterId: number) {
    const [row] = await db
      .select()
      .from(dealJoinRequests)
      .where(
        and(
          eq(dealJoinRequests.dealId, dealId),
          eq(dealJoinRequests.requesterId, requesterId),
          eq(dealJoinRequests.status, 'pending'),
        ),
      );
    return row;
  },

  async decide(db: DbOrTx, id: number, status: 'accepted' | 'declined') {
    const [row] = await db
      .update(dealJoinRequests)
      .set({ status, decidedAt: new Date() })
      .where(eq(dealJoinRequests.id, id))
      .returning();
    return row!;
  },

  /** Declines the deal's other pending requests (someone was accepted); answers whose they were. */
  async declineOthers(db: DbOrTx, dealId: number, acceptedId: number): Promise<number[]> {
    const rows = await db
      .update(dealJoinRequests)
      .set({ status: 'declined', decidedAt: sql`now()` })
      .where(
        and(
          eq(dealJoinRequests.dealId, dealId),
          eq(dealJoinRequests.status, 'pending'),
          ne(dealJoinRequests.id, acceptedId),
        ),
      )
      .returning({ requesterId: dealJoinRequests.requesterId });
    return rows.map((row) => row.requesterId);
  },
};
