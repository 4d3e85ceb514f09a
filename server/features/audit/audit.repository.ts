import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { auditLog } from '../../db/schema';

export type NewAuditEntry = typeof auditLog.$inferInsert;

export const auditRepository = {
  async insert(db: DbOrTx, entry: NewAuditEntry) {
    await db.insert(auditLog).values(entry);
  },

  /** Newest first, older than `beforeId`, about one deal and/or by one actor (username, any case). */
  list(db: DbOrTx, options: { limit: number; beforeId?: number; dealId?: number; username?: string }) {
    return db
      .select()
      .from(auditLog)
      .where(
        and(
          options.beforeId ? lt(auditLog.id, options.beforeId) : undefined,
          options.dealId ? eq(auditLog.dealId, options.dealId) : undefined,
          options.username ? sql`lower(${auditLog.actorUsername}) = lower(${options.username})` : undefined,
        ),
      )
      .orderBy(desc(auditLog.id))
      .limit(options.limit);
  },
};
