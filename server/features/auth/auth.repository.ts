import { and, eq, gt, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { emailChanges, passwordResets, settings } from '../../db/schema';

const usable = (tokenHash: string) =>
  and(
    eq(passwordResets.tokenHash, tokenHash),
    isNull(passwordResets.usedAt),
    gt(passwordResets.expiresAt, new Date()),
  );

export const authRepository = {
  async insertPasswordReset(db: DbOrTx, values: typeof passwordResets.$inferInsert) {
    await db.insert(passwordResets).values(values);
  },

  /** The unused, unexpired reset with this token hash. */
  async findUsableReset(db: DbOrTx, tokenHash: string) {
    const [row] = await db.select().from(passwordResets).where(usable(tokenHash));
    return row;
  },

  /** The same, locked for the rest of the transaction. */
  async lockUsableReset(db: DbOrTx, tokenHash: string) {
    const [row] = await db.select().from(passwordResets).where(usable(tokenHash)).for('update');
    return row;
  },

  /** Marks every open reset link of the user as used. */
  async useAllResetsOf(db: DbOrTx, userId: number) {
    await db
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
  },

  async insertEmailChange(db: DbOrTx, values: typeof emailChanges.$inferInsert) {
    await db.insert(emailChanges).values(values);
  },

  /** The unused, unexpired email change with this token hash, locked. */
  async lockUsableEmailChange(db: DbOrTx, tokenHash: string) {
    const [row] = await db
      .select()
      .from(emailChanges)
      .where(
        and(
          eq(emailChanges.tokenHash, tokenHash),
          isNull(emailChanges.usedAt),
          gt(emailChanges.expiresAt, new Date()),
        ),
      )
      .for('update');
    return row;
  },

  async markEmailChangeUsed(db: DbOrTx, id: number) {
    await db.update(emailChanges).set({ usedAt: new Date() }).where(eq(emailChanges.id, id));
  },

  /** The setting's value, created with `initial` when it does not exist yet (two first starts may race). */
  async settingOrCreate(db: DbOrTx, key: string, initial: string) {
    await db.insert(settings).values({ key, value: initial }).onConflictDoNothing();
    const [row] = await db.select().from(settings).where(eq(settings.key, key));
    return row!.value;
  },
};
