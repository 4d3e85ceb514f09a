import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { cents, createdAt, optionalTimestamp, updatedAt } from './columns';
import { deals } from './deals';
import { users } from './users';

/**
 * One row per deal once it has a dealmaker: the sum of its milestones (below), as the spec's escrow
 * calls show it. `creatorPaid`/`counterpartPaid`, `status` pending and `loneHalfExpiresAt` are those of
 * the first milestone not funded yet (with one milestone, the spec's two halves); locked once every
 * milestone is funded; completed once every one is released.
 */
export const escrows = pgTable(
  'escrows',
  {
    dealId: integer('deal_id')
      .primaryKey()
      .references(() => deals.id, { onDelete: 'cascade' }),
    amountCents: cents('amount_cents').notNull(),
    creatorShareCents: cents('creator_share_cents').notNull(),
    counterpartShareCents: cents('counterpart_share_cents').notNull(),
    creatorPaid: boolean('creator_paid').notNull().default(false),
    counterpartPaid: boolean('counterpart_paid').notNull().default(false),
    /** pending → locked → completed, or settled by a dispute's settlement. */
    status: text('status').notNull().default('pending'),
    releasedAt: optionalTimestamp('released_at'),
    /**
     * While one half waits alone for the other: when it is refunded by itself
     * (ESCROW_HALF_TIMEOUT_HOURS after it was paid). Null otherwise.
     */
    loneHalfExpiresAt: optionalTimestamp('lone_half_expires_at'),
    /** Money of funded milestones not released yet (what a settlement splits), and the creator's part of it. */
    heldCents: cents('held_cents').notNull().default(0),
    heldCreatorShareCents: cents('held_creator_share_cents').notNull().default(0),
    /** Money released to the dealmaker milestone by milestone. */
    releasedCents: cents('released_cents').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      'escrows_amount_split',
      sql`${t.creatorShareCents} + ${t.counterpartShareCents} = ${t.amountCents}`,
    ),
  ],
);

export type EscrowRow = typeof escrows.$inferSelect;

/**
 * Staged escrow (contract/milestones.ts): the deal's escrow in milestones, each paid by both dealers
 * and released on its own. Every escrow has at least one: without an agreed plan, one holding the
 * whole budget. The escrow row above stays the deal's sum of them (what the spec's escrow calls show).
 */
export const milestones = pgTable(
  'milestones',
  {
    id: serial('id').primaryKey(),
    dealId: integer('deal_id')
      .notNull()
      .references(() => deals.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    title: text('title').notNull(),
    amountCents: cents('amount_cents').notNull(),
    creatorShareCents: cents('creator_share_cents').notNull(),
    counterpartShareCents: cents('counterpart_share_cents').notNull(),
    creatorPaid: boolean('creator_paid').notNull().default(false),
    counterpartPaid: boolean('counterpart_paid').notNull().default(false),
    /** open → funded → submitted → released, or refunded / settled when a settlement ends the deal. */
    status: text('status').notNull().default('open'),
    dueDate: optionalTimestamp('due_date'),
    /** While one share waits alone for the other: when it is refunded by itself. */
    loneHalfExpiresAt: optionalTimestamp('lone_half_expires_at'),
    submittedAt: optionalTimestamp('submitted_at'),
    note: text('note'),
    creatorApproved: boolean('creator_approved').notNull().default(false),
    counterpartApproved: boolean('counterpart_approved').notNull().default(false),
    /** When a submitted milestone is released by itself; null while a dispute is open. */
    autoReleaseAt: optionalTimestamp('auto_release_at'),
    releasedAt: optionalTimestamp('released_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('milestones_deal_position_key').on(t.dealId, t.position),
    check(
      'milestones_amount_split',
      sql`${t.creatorShareCents} + ${t.counterpartShareCents} = ${t.amountCents} and ${t.amountCents} > 0`,
    ),
    check(
      'milestones_status',
      sql`${t.status} in ('open', 'funded', 'submitted', 'released', 'refunded', 'settled')`,
    ),
  ],
);

/** A milestone plan proposed for a deal; agreed when its three participants have accepted it. */
export const milestonePlans = pgTable(
  'milestone_plans',
  {
    id: serial('id').primaryKey(),
    dealId: integer('deal_id')
      .notNull()
      .references(() => deals.id, { onDelete: 'cascade' }),
    proposedById: integer('proposed_by_id')
      .notNull()
      .references(() => users.id),
    /** The milestones as proposed: [{ title, amountCents, dueDate }] in order. */
    milestones: jsonb('milestones').$type<PlannedMilestone[]>().notNull(),
    /** The participants who accepted it (the proposer first). */
    acceptedByIds: integer('accepted_by_ids').array().notNull(),
    /** open → accepted, or superseded (a newer proposal) or withdrawn (by its proposer). */
    status: text('status').notNull().default('open'),
    createdAt: createdAt(),
  },
  (t) => [
    index('milestone_plans_deal_id').on(t.dealId),
    check('milestone_plans_status', sql`${t.status} in ('open', 'accepted', 'superseded', 'withdrawn')`),
  ],
);

export type PlannedMilestone = { title: string; amountCents: number; dueDate: string | null };
export type MilestoneRow = typeof milestones.$inferSelect;
export type MilestonePlanRow = typeof milestonePlans.$inferSelect;
