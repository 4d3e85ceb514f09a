import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { cents, createdAt, optionalTimestamp, updatedAt } from './columns';
import { deals } from './deals';

/** One row per deal once it has a dealmaker: the two halves and where the money is. */
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
