import { bigint, customType, timestamp } from 'drizzle-orm/pg-core';

/** Integer cents; numbers stay exact far beyond any amount the limits allow. */
export const cents = (name: string) => bigint(name, { mode: 'number' });

export const createdAt = () => timestamp('created_at', { withTimezone: true }).defaultNow().notNull();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).defaultNow().notNull();
export const optionalTimestamp = (name: string) => timestamp(name, { withTimezone: true });

export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});

/** A full-text search document (PostgreSQL tsvector): only the database reads it. */
export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
