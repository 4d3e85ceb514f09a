import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { limits } from '../../../contract/limits';
import type { SecondFactorMethod, SecurityStatus } from '../../../contract/security';
import type { Config } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import { SecretBox } from '../../lib/encryption';
import { conflict } from '../../lib/errors';
import type { RateLimits } from '../../lib/rate-limits';
import { randomToken, sha256 } from '../../lib/secrets';
import { authRepository } from './auth.repository';
import { factorsRepository } from './factors.repository';
import type { PasskeysService } from './passkeys.service';

/** A factor as a request gives it: a code from the app, a recovery code, or a passkey assertion. */
export type GivenFactor =
  | { code: string }
  | { recoveryCode: string }
  | { passkey: Parameters<PasskeysService['verifyAssertion']>[0] };

/** How far a code may be from now, in 30-second steps: the clocks of phones drift. */
const totpWindow = 1;
const recoveryAlphabet = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * Second factors (docs/decisions/0023-account-security.md): an authenticator app (TOTP, RFC 6238, by
 * otpauth) whose secret is stored encrypted and whose codes are accepted once each, single-use recovery
 * codes stored as hashes, and passkeys (PasskeysService). Wrong factors are counted per account in the
 * shared rate limits, so guessing is slow on every instance together.
 */
export class SecondFactorService {
  /** The secrets of authenticator apps are sealed with ENCRYPTION_KEY, or a key generated once and kept in the database. */
  static async create(deps: { db: Db; config: Config; rateLimits: RateLimits; passkeys: PasskeysService }) {
    const key =
      deps.config.encryptionKey ??
      (await authRepository.settingOrCreate(deps.db, 'encryption_key', randomToken(48)));
    return new SecondFactorService({ ...deps, secretBox: new SecretBox(key) });
  }

  private constructor(
    private readonly deps: {
      db: Db;
      secretBox: SecretBox;
      passkeys: PasskeysService;
      rateLimits: RateLimits;
    },
  ) {}

  private get db() {
    return this.deps.db;
  }

  /** The factors that can complete this account's sign-in; none for an account that turned none on. */
  async methodsOf(userId: number, db: DbOrTx = this.db): Promise<SecondFactorMethod[]> {
    const [totp, passkeys, recovery] = await Promise.all([
      factorsRepository.totpOf(db, userId),
      factorsRepository.passkeysOf(db, userId),
      factorsRepository.unusedRecoveryCodes(db, userId),
    ]);
    const methods: SecondFactorMethod[] = [];
    if (totp?.confirmedAt) methods.push('totp');
    if (passkeys.length > 0) methods.push('passkey');
    if (methods.length > 0 && recovery > 0) methods.push('recovery');
    return methods;
  }

  async status(userId: number, freshUntil: Date | null): Promise<SecurityStatus> {
    const [totp, passkeys, recoveryCodesLeft] = await Promise.all([
      factorsRepository.totpOf(this.db, userId),
      factorsRepository.passkeysOf(this.db, userId),
      factorsRepository.unusedRecoveryCodes(this.db, userId),
    ]);
    const hasFactor = !!totp?.confirmedAt || passkeys.length > 0;
    return {
      totp: !!totp?.confirmedAt,
      passkeys: passkeys.length,
      recoveryCodesLeft,
      stepUpRequired: hasFactor,
      freshUntil: freshUntil && freshUntil.getTime() > Date.now() ? freshUntil.toISOString() : null,
    };
  }

  // ── Authenticator app ──

  /** A new secret for the app, not active until a code from it is confirmed. */
  async setUpTotp(user: { id: number; username: string }) {
    const existing = await factorsRepository.totpOf(this.db, user.id);
    if (existing?.confirmedAt) throw conflict('The authenticator app is already turned on.');
    const secret = new Secret({ size: 20 });
    const totp = this.totpFor(user.username, secret);
    await factorsRepository.putPendingTotp(this.db, user.id, this.deps.secretBox.seal(secret.base32));
    const otpauthUrl = totp.toString();
    const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
    return { secret: secret.base32, otpauthUrl, qrSvg };
  }

  /** Turns the app on with a first code from it; answers the recovery codes (shown once). */
  async confirmTotp(user: { id: number; username: string }, code: string, db: DbOrTx = this.db) {
    const pending = await factorsRepository.totpOf(db, user.id);
    if (!pending) throw conflict('Set up the authenticator app first.');
    if (pending.confirmedAt) throw conflict('The authenticator app is already turned on.');
    const step = this.stepOf(user.username, pending.secretEncrypted, code);
    if (step === null || !(await factorsRepository.spendTotpStep(db, user.id, step, true))) {
      await this.countFailure(user.id);
      return null;
    }
    return this.issueRecoveryCodes(user.id, db);
  }

  async disableTotp(userId: number, db: DbOrTx = this.db) {
    await factorsRepository.deleteTotp(db, userId);
    // Recovery codes stand in for any factor: they go only with the last one.
    if ((await factorsRepository.passkeysOf(db, userId)).length === 0) {
      await factorsRepository.deleteRecoveryCodes(db, userId);
    }
  }

  /** Ten new recovery codes in place of the old ones; only their hashes are kept. */
  async issueRecoveryCodes(userId: number, db: DbOrTx = this.db) {
    const codes = Array.from({ length: limits.security.recoveryCodes }, newRecoveryCode);
    await factorsRepository.replaceRecoveryCodes(
      db,
      userId,
      codes.map((code) => sha256(normalizeRecoveryCode(code))),
    );
    return codes;
  }

  async hasRecoveryCodes(userId: number, db: DbOrTx = this.db) {
    return (await factorsRepository.unusedRecoveryCodes(db, userId)) > 0;
  }

  // ── Checking a factor ──

  /**
   * Whether the factor is good for this account, using it up (a code's 30-second step, a recovery code,
   * a passkey's challenge). A wrong one counts against the account's limit; 429 once it is used up.
   * `passkeyExpect` says what the passkey's challenge must have been made for.
   */
  async check(
    user: { id: number; username: string },
    factor: GivenFactor,
    passkeyExpect: { purpose: 'second-factor' | 'step-up'; boundTo: string },
    db: DbOrTx = this.db,
  ): Promise<boolean> {
    await this.deps.rateLimits.check(['secondFactorFailuresPerUser', String(user.id)]);
    let good = false;
    if ('code' in factor) {
      const totp = await factorsRepository.totpOf(db, user.id);
      const step = totp?.confirmedAt ? this.stepOf(user.username, totp.secretEncrypted, factor.code) : null;
      good = step !== null && (await factorsRepository.spendTotpStep(db, user.id, step, false));
    } else if ('recoveryCode' in factor) {
      good = await factorsRepository.spendRecoveryCode(
        db,
        user.id,
        sha256(normalizeRecoveryCode(factor.recoveryCode)),
      );
    } else {
      const owner = await this.deps.passkeys.verifyAssertion(factor.passkey, {
        ...passkeyExpect,
        userId: user.id,
      });
      good = owner === user.id;
    }
    if (!good) await this.countFailure(user.id);
    return good;
  }

  /** A code given where either a code from the app or a recovery code is accepted (turning the app off). */
  parseCodeOrRecoveryCode(code: string): GivenFactor | null {
    const digits = code.replace(/\s+/g, '');
    if (/^\d{6}$/.test(digits)) return { code: digits };
    const recovery = normalizeRecoveryCode(code);
    if (/^[a-z2-7]{12}$/.test(recovery)) return { recoveryCode: recovery };
    return null;
  }

  countFailure(userId: number) {
    return this.deps.rateLimits.record(['secondFactorFailuresPerUser', String(userId)]);
  }

  /** The 30-second step the code belongs to (within the window), or null when it is not a code of this secret. */
  private stepOf(username: string, secretEncrypted: string, code: string): number | null {
    const totp = this.totpFor(username, Secret.fromBase32(this.deps.secretBox.open(secretEncrypted)));
    const delta = totp.validate({ token: code, window: totpWindow });
    return delta === null ? null : totp.counter() + delta;
  }

  private totpFor(username: string, secret: Secret) {
    return new TOTP({
      issuer: 'Dealmaker',
      label: username,
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
      secret,
    });
  }
}

/** xxxx-xxxx-xxxx from a 32-letter alphabet: 60 random bits. */
function newRecoveryCode(): string {
  const bytes = randomBytes(12);
  const letters = Array.from(bytes, (byte) => recoveryAlphabet[byte % 32]).join('');
  return `${letters.slice(0, 4)}-${letters.slice(4, 8)}-${letters.slice(8, 12)}`;
}

const normalizeRecoveryCode = (code: string) => code.replace(/[\s-]+/g, '').toLowerCase();
