import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { bytea, createdAt, optionalTimestamp } from './columns';
import { users } from './users';

/**
 * One row per sign-in (the auth feature's): the token names it (`sid`), so
 * ending the row ends the token on every instance. Ended sessions stay, so a
 * later sign-in can tell a known device from a new one.
 */
export const sessions = pgTable(
  'sessions',
  {
    /** Random; the token's `sid` claim. */
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: optionalTimestamp('last_seen_at').defaultNow().notNull(),
    expiresAt: optionalTimestamp('expires_at').notNull(),
    userAgent: text('user_agent'),
    /** "Chrome on Linux", from the user agent. */
    device: text('device').notNull(),
    address: text('address'),
    /** sha256 of the browser's device cookie: a sign-in from a device the account has not used before is told. */
    deviceKeyHash: text('device_key_hash'),
    /** When a second factor (or, for an account without one, the password) was last given in this session. */
    factorAt: optionalTimestamp('factor_at'),
    endedAt: optionalTimestamp('ended_at'),
    /** Why it ended: 'signed-out', 'ended-elsewhere', 'password-changed', 'password-reset'. */
    endReason: text('end_reason'),
  },
  (t) => [
    index('sessions_user_id_open').on(t.userId, t.createdAt).where(sql`${t.endedAt} is null`),
    index('sessions_user_id_device_key').on(t.userId, t.deviceKeyHash),
  ],
);

/** An authenticator app (TOTP, RFC 6238): one per account; active once confirmed with a code. */
export const totpAuthenticators = pgTable('totp_authenticators', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The shared secret, encrypted (AES-256-GCM, server/lib/encryption.ts). */
  secretEncrypted: text('secret_encrypted').notNull(),
  /** Null while set up but not confirmed: sign-in does not ask for it yet. */
  confirmedAt: optionalTimestamp('confirmed_at'),
  /** The last 30-second step whose code was accepted: a code is accepted once. */
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** Single-use codes for when the authenticator is lost; only their sha256 is kept. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: optionalTimestamp('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('recovery_codes_user_code').on(t.userId, t.codeHash)],
);

/** WebAuthn credentials (passkeys) registered by a user. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential id, base64url, as the authenticator names it. */
    credentialId: text('credential_id').notNull(),
    publicKey: bytea('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    deviceType: text('device_type').notNull(),
    backedUp: boolean('backed_up').notNull().default(false),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: optionalTimestamp('last_used_at'),
  },
  (t) => [
    uniqueIndex('passkeys_credential_id_key').on(t.credentialId),
    index('passkeys_user_id').on(t.userId),
  ],
);

/**
 * The half-done sign-in of an account with a second factor: the password was right, a code or a
 * passkey is awaited. Only the sha256 of the challenge token is kept.
 */
export const signInChallenges = pgTable('sign_in_challenges', {
  tokenHash: text('token_hash').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: optionalTimestamp('expires_at').notNull(),
  failedAttempts: integer('failed_attempts').notNull().default(0),
  completedAt: optionalTimestamp('completed_at'),
  createdAt: createdAt(),
});

/** A WebAuthn challenge handed out with options and awaited back in a response; used once. */
export const webauthnChallenges = pgTable('webauthn_challenges', {
  challenge: text('challenge').primaryKey(),
  /** 'register', 'sign-in' (a passkey alone), 'second-factor', 'step-up'. */
  purpose: text('purpose').notNull(),
  /** The user it was made for; null for a sign-in with a passkey alone (the passkey names the user). */
  userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
  /** The session asking (register, step-up), or the sign-in challenge's hash (second factor). */
  boundTo: text('bound_to'),
  expiresAt: optionalTimestamp('expires_at').notNull(),
  usedAt: optionalTimestamp('used_at'),
  createdAt: createdAt(),
});

/** A change of email address waiting for the link mailed to the new address. */
export const emailChanges = pgTable(
  'email_changes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    newEmail: text('new_email').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: optionalTimestamp('expires_at').notNull(),
    usedAt: optionalTimestamp('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('email_changes_token_hash_key').on(t.tokenHash)],
);

export type SessionRow = typeof sessions.$inferSelect;
export type PasskeyRow = typeof passkeys.$inferSelect;
