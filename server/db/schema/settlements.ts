import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { cents, createdAt, optionalTimestamp } from './columns';
import { deals } from './deals';
import { disputes } from './disputes';
import { users } from './users';

/** A proposed split of a locked escrow, made while a dispute is open; all three participants must accept it. */
export const settlementProposals = pgTable(
  'settlement_proposals',
  {
    id: serial('id').primaryKey(),
    disputeId: integer('dispute_id')
      .notNull()
      .references(() => disputes.id, { onDelete: 'cascade' }),
    dealId: integer('deal_id')
      .notNull()
      .references(() => deals.id, { onDelete: 'cascade' }),
    proposedById: integer('proposed_by_id')
      .notNull()
      .references(() => users.id),
    toDealmakerCents: cents('to_dealmaker_cents').notNull(),
    refundToCreatorCents: cents('refund_to_creator_cents').notNull(),
    refundToCounterpartCents: cents('refund_to_counterpart_cents').notNull(),
    /** open → accepted | superseded | withdrawn */
    status: text('status').notNull().default('open'),
    createdAt: createdAt(),
    decidedAt: optionalTimestamp('decided_at'),
  },
  (t) => [
    index('settlement_proposals_dispute_id').on(t.disputeId, t.id),
    // At most one open proposal per dispute: a new one supersedes it.
    uniqueIndex('settlement_proposals_one_open').on(t.disputeId).where(sql`${t.status} = 'open'`),
    check(
      'settlement_proposals_amounts',
      sql`${t.toDealmakerCents} >= 0 and ${t.refundToCreatorCents} >= 0 and ${t.refundToCounterpartCents} >= 0`,
    ),
  ],
);

/** Who has accepted a proposal (its proposer, by proposing). */
export const settlementAcceptances = pgTable(
  'settlement_acceptances',
  {
    proposalId: integer('proposal_id')
      .notNull()
      .references(() => settlementProposals.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [primaryKey({ columns: [t.proposalId, t.userId] })],
);

/**
 * How a locked escrow was split: by an agreed proposal or by an operator.
 * One per deal (its primary key): a deal is settled at most once.
 */
export const settlements = pgTable(
  'settlements',
  {
    dealId: integer('deal_id')
      .primaryKey()
      .references(() => deals.id, { onDelete: 'cascade' }),
    disputeId: integer('dispute_id')
      .notNull()
      .references(() => disputes.id, { onDelete: 'cascade' }),
    /** The agreed proposal; null when an operator settled. */
    proposalId: integer('proposal_id').references(() => settlementProposals.id),
    /** The operator who settled; null when the participants agreed. */
    operatorId: integer('operator_id').references(() => users.id),
    toDealmakerCents: cents('to_dealmaker_cents').notNull(),
    refundToCreatorCents: cents('refund_to_creator_cents').notNull(),
    refundToCounterpartCents: cents('refund_to_counterpart_cents').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('settlements_dispute_id_key').on(t.disputeId)],
);

export type SettlementProposalRow = typeof settlementProposals.$inferSelect;
export type SettlementRow = typeof settlements.$inferSelect;
