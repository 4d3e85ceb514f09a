import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea, createdAt, optionalTimestamp, updatedAt } from './columns';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    fullName: text('full_name').notNull(),
    passwordHash: text('password_hash').notNull(),
    verifiedAt: optionalTimestamp('verified_at'),
    /** sha256 of the emailed verification key; kept once verified, so a second click says so. */
    verificationKeyHash: text('verification_key_hash'),
    /** Bumped by a password reset: tokens carrying an older version stop working. */
    tokenVersion: integer('token_version').notNull().default(0),
    dateOfBirth: text('date_of_birth'),
    address: text('address'),
    occupation: text('occupation'),
    pictureId: text('picture_id'),
    /** Granted and revoked only by `npm run operator` on the server: no HTTP call changes it. */
    isOperator: boolean('is_operator').notNull().default(false),
    /** Who sees the email, date of birth and address: 'everyone', 'deal-partners' or 'only-me'. */
    emailVisibility: text('email_visibility').notNull().default('deal-partners'),
    dateOfBirthVisibility: text('date_of_birth_visibility').notNull().default('deal-partners'),
    addressVisibility: text('address_visibility').notNull().default('deal-partners'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_verification_key_hash_key').on(t.verificationKeyHash),
    index('users_username_trgm').using('gin', sql`${t.username} gin_trgm_ops`),
    index('users_full_name_trgm').using('gin', sql`${t.fullName} gin_trgm_ops`),
    check(
      'users_email_visibility_check',
      sql`${t.emailVisibility} in ('everyone', 'deal-partners', 'only-me')`,
    ),
    check(
      'users_date_of_birth_visibility_check',
      sql`${t.dateOfBirthVisibility} in ('everyone', 'deal-partners', 'only-me')`,
    ),
    check(
      'users_address_visibility_check',
      sql`${t.addressVisibility} in ('everyone', 'deal-partners', 'only-me')`,
    ),
  ],
);

export const profilePictures = pgTable('profile_pictures', {
  /** Random, so the public URL of a picture changes whenever the picture does. */
  id: text('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  contentType: text('content_type').notNull(),
  bytes: bytea('bytes').notNull(),
  createdAt: createdAt(),
});

export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: optionalTimestamp('expires_at').notNull(),
    usedAt: optionalTimestamp('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('password_resets_token_hash_key').on(t.tokenHash)],
);

/** Server-wide values generated once, such as the JWT secret when none is configured. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export type UserRow = typeof users.$inferSelect;
