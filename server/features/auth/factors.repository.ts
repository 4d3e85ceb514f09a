import { and, asc, count, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  passkeys,
  recoveryCodes,
  signInChallenges,
  totpAuthenticators,
  webauthnChallenges,
} from '../../db/schema';

/** Second factors: authenticator apps, recovery codes, passkeys and the challenges that await them. */
export const factorsRepository = {
  // ── Authenticator app ──

  async totpOf(db: DbOrTx, userId: number) {
    const [row] = await db.select().from(totpAuthenticators).where(eq(totpAuthenticators.userId, userId));
    return row;
  },

  /** Starts (or restarts) a setup: a new secret, not active until confirmed. */
  async putPendingTotp(db: DbOrTx, userId: number, secretEncrypted: string) {
    await db
      .insert(totpAuthenticators)
      .values({ userId, secretEncrypted })
      .onConflictDoUpdate({
        target: totpAuthenticators.userId,
        set: { secretEncrypted, confirmedAt: null, lastUsedStep: null, createdAt: new Date() },
        // An active authenticator is never replaced by a new setup.
        setWhere: isNull(totpAuthenticators.confirmedAt),
      });
  },

  /**
   * Accepts the code of `step` once: records it as the last step used unless that step (or a later one)
   * was used already — the guard against replaying a code within its 30 seconds. `confirm` also turns
   * the pending authenticator on. False when the step was used.
   */
  async spendTotpStep(db: DbOrTx, userId: number, step: number, confirm: boolean) {
    const rows = await db
      .update(totpAuthenticators)
      .set({ lastUsedStep: step, ...(confirm ? { confirmedAt: new Date() } : {}) })
      .where(
        and(
          eq(totpAuthenticators.userId, userId),
          confirm ? isNull(totpAuthenticators.confirmedAt) : isNotNull(totpAuthenticators.confirmedAt),
          or(isNull(totpAuthenticators.lastUsedStep), lt(totpAuthenticators.lastUsedStep, step)),
        ),
      )
      .returning({ userId: totpAuthenticators.userId });
    return rows.length === 1;
  },

  async deleteTotp(db: DbOrTx, userId: number) {
    await db.delete(totpAuthenticators).where(eq(totpAuthenticators.userId, userId));
  },

  // ── Recovery codes ──

  async replaceRecoveryCodes(db: DbOrTx, userId: number, codeHashes: string[]) {
    await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await db.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
  },

  async deleteRecoveryCodes(db: DbOrTx, userId: number) {
    await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  },

  /** Uses an unused recovery code; false when there is no such code (or it was used). */
  async spendRecoveryCode(db: DbOrTx, userId: number, codeHash: string) {
    const rows = await db
      .update(recoveryCodes)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(recoveryCodes.userId, userId),
          eq(recoveryCodes.codeHash, codeHash),
          isNull(recoveryCodes.usedAt),
        ),
      )
      .returning({ id: recoveryCodes.id });
    return rows.length === 1;
  },

  async unusedRecoveryCodes(db: DbOrTx, userId: number) {
    const [row] = await db
      .select({ n: count() })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
    return row?.n ?? 0;
  },

  // ── Passkeys ──

  passkeysOf(db: DbOrTx, userId: number) {
    return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.id));
  },

  async passkeyByCredentialId(db: DbOrTx, credentialId: string) {
    const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId));
    return row;
  },

  async insertPasskey(db: DbOrTx, values: typeof passkeys.$inferInsert) {
    const [row] = await db.insert(passkeys).values(values).returning();
    return row!;
  },

  async renamePasskey(db: DbOrTx, userId: number, id: number, name: string) {
    const [row] = await db
      .update(passkeys)
      .set({ name })
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
      .returning();
    return row;
  },

  async deletePasskey(db: DbOrTx, userId: number, id: number) {
    const rows = await db
      .delete(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
      .returning({ id: passkeys.id });
    return rows.length === 1;
  },

  /**
   * Records a use of the passkey. The signature counter must grow when the authenticator keeps one (a
   * clone of the key would lag behind); authenticators that keep none always report 0.
   */
  async recordPasskeyUse(db: DbOrTx, id: number, newCounter: number) {
    const rows = await db
      .update(passkeys)
      .set({ counter: newCounter, lastUsedAt: new Date() })
      .where(and(eq(passkeys.id, id), or(eq(passkeys.counter, 0), lt(passkeys.counter, newCounter))))
      .returning({ id: passkeys.id });
    return rows.length === 1;
  },

  // ── A sign-in awaiting its second factor ──

  async insertSignInChallenge(db: DbOrTx, values: typeof signInChallenges.$inferInsert) {
    await db.insert(signInChallenges).values(values);
  },

  /** The challenge, locked, if it may still be answered (not expired, completed or worn out by wrong codes). */
  async lockLiveSignInChallenge(db: DbOrTx, tokenHash: string, maxWrong: number) {
    const [row] = await db
      .select()
      .from(signInChallenges)
      .where(
        and(
          eq(signInChallenges.tokenHash, tokenHash),
          isNull(signInChallenges.completedAt),
          gt(signInChallenges.expiresAt, sql`now()`),
          lt(signInChallenges.failedAttempts, maxWrong),
        ),
      )
      .for('update');
    return row;
  },

  async countWrongCode(db: DbOrTx, tokenHash: string) {
    const [row] = await db
      .update(signInChallenges)
      .set({ failedAttempts: sql`${signInChallenges.failedAttempts} + 1` })
      .where(eq(signInChallenges.tokenHash, tokenHash))
      .returning({ failedAttempts: signInChallenges.failedAttempts });
    return row?.failedAttempts ?? 0;
  },

  async completeSignInChallenge(db: DbOrTx, tokenHash: string) {
    await db
      .update(signInChallenges)
      .set({ completedAt: new Date() })
      .where(eq(signInChallenges.tokenHash, tokenHash));
  },

  // ── WebAuthn challenges ──

  async insertWebauthnChallenge(db: DbOrTx, values: typeof webauthnChallenges.$inferInsert) {
    await db.insert(webauthnChallenges).values(values);
  },

  /** Uses the challenge once: it must be unused, unexpired and made for this purpose (and user, binding). */
  async spendWebauthnChallenge(
    db: DbOrTx,
    challenge: string,
    expect: { purpose: string; userId?: number | null; boundTo?: string | null },
  ) {
    const rows = await db
      .update(webauthnChallenges)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(webauthnChallenges.challenge, challenge),
          eq(webauthnChallenges.purpose, expect.purpose),
          isNull(webauthnChallenges.usedAt),
          gt(webauthnChallenges.expiresAt, sql`now()`),
          expect.userId === undefined
            ? undefined
            : expect.userId === null
              ? isNull(webauthnChallenges.userId)
              : eq(webauthnChallenges.userId, expect.userId),
          expect.boundTo === undefined
            ? undefined
            : expect.boundTo === null
              ? isNull(webauthnChallenges.boundTo)
              : eq(webauthnChallenges.boundTo, expect.boundTo),
        ),
      )
      .returning({ challenge: webauthnChallenges.challenge });
    return rows.length === 1;
  },

  /** Forgets the challenges (WebAuthn and sign-in) that can no longer be answered: now and then, not on every one. */
  async deleteStaleChallenges(db: DbOrTx) {
    await db
      .delete(webauthnChallenges)
      .where(lt(webauthnChallenges.expiresAt, sql`now() - interval '1 day'`));
    await db.delete(signInChallenges).where(lt(signInChallenges.expiresAt, sql`now() - interval '1 day'`));
  },
};
