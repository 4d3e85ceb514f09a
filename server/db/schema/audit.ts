import { bigserial, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

/**
 * The audit log: every change of a deal's rows and every money movement
 * (written by database triggers, so no code path can forget one), every
 * sign-in, password reset and operator action (written by the server). It
 * keeps ids and names without foreign keys, so it outlives what it tells of,
 * and the database refuses to change or delete its rows.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: createdAt(),
    /** The signed-in user whose request made the change; null for the server itself (timers, commands). */
    actorId: integer('actor_id'),
    actorUsername: text('actor_username'),
    /** `<table>.<insert|update|delete>` for row changes, e.g. `auth.sign-in` or `operator.settle` for the rest. */
    action: text('action').notNull(),
    dealId: integer('deal_id'),
    /** What changed, e.g. `escrows:12`, `user:7`. */
    subject: text('subject'),
    before: jsonb('before'),
    after: jsonb('after'),
    /** The address of the request that made the change. */
    address: text('address'),
  },
  (t) => [
    index('audit_log_deal_id').on(t.dealId, t.id),
    index('audit_log_actor_username').on(t.actorUsername, t.id),
  ],
);

export type AuditRow = typeof auditLog.$inferSelect;
