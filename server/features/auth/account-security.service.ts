import type { FastifyBaseLogger } from 'fastify';
import { errorCodes } from '../../../contract/errors';
import { limits } from '../../../contract/limits';
import type { StepUpRequest } from '../../../contract/security';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/postgres-errors';
import type { Transact } from '../../db/transaction';
import type { BackgroundTasks } from '../../lib/background';
import { AppError, badRequest, conflict } from '../../lib/errors';
import type { EventPublisher } from '../../lib/events';
import type { Mailer } from '../../lib/mail';
import type { RateLimits } from '../../lib/rate-limits';
import type { AuthUser } from '../../lib/route-guard';
import { randomToken, sha256 } from '../../lib/secrets';
import type { AuditAction, AuditService } from '../audit/audit.service';
import type { UsersService } from '../users/users.service';
import { authRepository } from './auth.repository';
import { invalidFactorMessage } from './auth.service';
import { describeDevice } from './device';
import type { PasskeysService } from './passkeys.service';
import { hashPassword, passwordMatches } from './passwords';
import type { GivenFactor, SecondFactorService } from './second-factor.service';
import type { SessionsService } from './sessions.service';

type Deps = {
  db: Db;
  transact: Transact;
  config: Config;
  users: UsersService;
  sessions: SessionsService;
  secondFactor: SecondFactorService;
  passkeys: PasskeysService;
  rateLimits: RateLimits;
  audit: AuditService;
  mailer: Mailer;
  background: BackgroundTasks;
  events: EventPublisher;
  log: FastifyBaseLogger;
};

const stepUpMessage =
  'Please confirm it is you first: enter a code from your authenticator app or use your passkey.';
const passwordStepUpMessage = 'Please confirm it is you first: enter your password.';

/**
 * What a signed-in user does to protect their account (docs/decisions/0023-account-security.md): turning
 * on an authenticator app or passkeys, seeing and ending sessions, changing the password or the email, and
 * step-up — a second factor given in the last 10 minutes of this session before money leaves or the account
 * changes (STEP_UP_REQUIRED otherwise), so a stolen session or password alone cannot do either.
 */
export class AccountSecurityService {
  constructor(private readonly deps: Deps) {}

  // ── Step-up ──

  /**
   * Refuses with 403 STEP_UP_REQUIRED unless this session gave a factor in the last 10 minutes — for an
   * account with a second factor; an account without one needs nothing, unless `evenWithoutSecondFactor`
   * (adding the first factor, changing the password or email), where its password counts.
   */
  async requireRecentFactor(user: AuthUser, options: { evenWithoutSecondFactor?: boolean } = {}) {
    const { sessions } = this.deps;
    let state = await sessions.state(user.sessionId);
    if (state && !state.hasSecondFactor && !options.evenWithoutSecondFactor) return;
    if (state && isFresh(state.factorAt)) return;
    // What the cache says may be a second old (a step-up on another instance): ask the database.
    state = await sessions.freshState(user.sessionId);
    if (!state) throw new AppError(403, errorCodes.stepUpRequired, stepUpMessage);
    if (!state.hasSecondFactor && !options.evenWithoutSecondFactor) return;
    if (isFresh(state.factorAt)) return;
    throw new AppError(
      403,
      errorCodes.stepUpRequired,
      state.hasSecondFactor ? stepUpMessage : passwordStepUpMessage,
    );
  }

  /** Makes the session fresh with a factor (or, for an account without one, the password). */
  async stepUp(user: AuthUser, input: StepUpRequest) {
    const methods = await this.deps.secondFactor.methodsOf(user.id);
    if (input.password !== undefined) {
      if (methods.length > 0) {
        throw badRequest('Use your authenticator app, a recovery code or a passkey to confirm it is you.');
      }
      await this.checkPassword(user, input.password);
    } else {
      if (methods.length === 0) throw badRequest('Enter your password to confirm it is you.');
      await this.checkFactor(user, factorOf(input), 'step-up');
    }
    const freshUntil = await this.deps.sessions.markFactorGiven(user.sessionId);
    return { freshUntil: freshUntil.toISOString() };
  }

  /** Options for confirming it is you with a passkey (step-up). */
  async stepUpPasskeyOptions(user: AuthUser) {
    return this.deps.passkeys.assertionOptions('step-up', user.id, user.sessionId);
  }

  async status(user: AuthUser) {
    const state = await this.deps.sessions.freshState(user.sessionId);
    const freshUntil = state?.factorAt
      ? new Date(state.factorAt.getTime() + limits.security.stepUpFreshSeconds * 1000)
      : null;
    return this.deps.secondFactor.status(user.id, freshUntil);
  }

  // ── Authenticator app ──

  async setUpTotp(user: AuthUser) {
    await this.requireRecentFactor(user, { evenWithoutSecondFactor: true });
    return this.deps.secondFactor.setUpTotp(user);
  }

  async confirmTotp(user: AuthUser, code: string) {
    const recoveryCodes = await this.deps.secondFactor.confirmTotp(user, code);
    if (!recoveryCodes) throw invalidFactor({ code });
    await this.deps.sessions.markFactorGiven(user.sessionId);
    this.factorsChanged(user, 'auth.totp-enabled');
    this.securityMail(
      user,
      'Two-factor sign-in is on',
      'Two-factor sign-in with an authenticator app was just turned on for your account. Signing in now needs a code from the app as well as your password.',
    );
    return { recoveryCodes };
  }

  /** Needs the password and a code (from the app, or a recovery code): the code is the fresh factor. */
  async disableTotp(user: AuthUser, input: { password: string; code: string }) {
    const totp = await this.deps.secondFactor.methodsOf(user.id);
    if (!totp.includes('totp')) throw conflict('The authenticator app is not turned on.');
    await this.checkPassword(user, input.password);
    const factor = this.deps.secondFactor.parseCodeOrRecoveryCode(input.code);
    if (!factor)
      throw badRequest('Enter a code from your authenticator app or a recovery code.', {
        code: ['Invalid code'],
      });
    await this.checkFactor(user, factor, 'step-up');
    await this.deps.sessions.markFactorGiven(user.sessionId);
    await this.deps.secondFactor.disableTotp(user.id);
    this.factorsChanged(user, 'auth.totp-disabled');
    this.securityMail(
      user,
      'Two-factor sign-in with an authenticator app is off',
      'The authenticator app was just turned off for your account. If this was not you, reset your password and turn it on again.',
    );
    return { message: 'The authenticator app is turned off.' };
  }

  async regenerateRecoveryCodes(user: AuthUser) {
    const methods = await this.deps.secondFactor.methodsOf(user.id);
    if (!methods.includes('totp') && !methods.includes('passkey')) {
      throw conflict('Turn on an authenticator app or add a passkey first.');
    }
    await this.requireRecentFactor(user);
    const recoveryCodes = await this.deps.secondFactor.issueRecoveryCodes(user.id);
    await this.deps.audit.record({ action: 'auth.recovery-codes-issued', subject: `user:${user.id}` });
    return { recoveryCodes };
  }

  // ── Passkeys ──

  async passkeyRegistrationOptions(user: AuthUser & { fullName: string }) {
    await this.requireRecentFactor(user, { evenWithoutSecondFactor: true });
    return this.deps.passkeys.registrationOptions(user, user.sessionId);
  }

  async registerPasskey(
    user: AuthUser,
    input: { response: Parameters<PasskeysService['register']>[2]; name?: string | undefined },
    userAgent: string | null,
  ) {
    const hadFactor = (await this.deps.secondFactor.methodsOf(user.id)).length > 0;
    const name = input.name ?? `Passkey on ${describeDevice(userAgent)}`;
    const passkey = await this.deps.passkeys.register(user.id, user.sessionId, input.response, name);
    // The account's first second factor comes with recovery codes, for the day the passkey is lost.
    const recoveryCodes =
      !hadFactor || !(await this.deps.secondFactor.hasRecoveryCodes(user.id))
        ? await this.deps.secondFactor.issueRecoveryCodes(user.id)
        : undefined;
    await this.deps.sessions.markFactorGiven(user.sessionId);
    this.factorsChanged(user, 'auth.passkey-added', { passkey: passkey.name });
    this.securityMail(
      user,
      'A passkey was added to your account',
      `A passkey ("${passkey.name}") was just added to your account. It can sign you in without a password.`,
    );
    return { passkey, ...(recoveryCodes ? { recoveryCodes } : {}) };
  }

  listPasskeys(user: AuthUser) {
    return this.deps.passkeys.listPresented(user.id);
  }

  renamePasskey(user: AuthUser, id: number, name: string) {
    return this.deps.passkeys.rename(user.id, id, name);
  }

  async removePasskey(user: AuthUser, id: number) {
    await this.requireRecentFactor(user);
    await this.deps.passkeys.remove(user.id, id);
    if ((await this.deps.secondFactor.methodsOf(user.id)).length === 0) {
      await this.deps.secondFactor.disableTotp(user.id); // no factor left: its recovery codes go too
    }
    this.factorsChanged(user, 'auth.passkey-removed', { passkeyId: id });
    this.securityMail(
      user,
      'A passkey was removed from your account',
      'A passkey was just removed from your account.',
    );
    return { message: 'The passkey was removed.' };
  }

  // ── Sessions ──

  listSessions(user: AuthUser) {
    return this.deps.sessions.list(user.id, user.sessionId);
  }

  async endSession(user: AuthUser, id: string) {
    await this.deps.sessions.end(user.id, id, user.sessionId);
    return { message: id === user.sessionId ? 'You are signed out.' : 'The session was ended.' };
  }

  async endOtherSessions(user: AuthUser) {
    return { ended: await this.deps.sessions.endAll(user.id, 'ended-elsewhere', { keep: user.sessionId }) };
  }

  // ── Password and email ──

  /** A new password, given the current one: every other session ends (this one stays signed in). */
  async changePassword(user: AuthUser, input: { currentPassword: string; newPassword: string }) {
    await this.requireRecentFactor(user);
    await this.checkPassword(user, input.currentPassword, 'currentPassword');
    const passwordHash = await hashPassword(input.newPassword);
    await this.deps.transact(async (tx, afterCommit) => {
      await this.deps.users.updateAccount(user.id, { passwordHash }, tx);
      await authRepository.useAllResetsOf(tx, user.id);
      await this.deps.sessions.endAll(user.id, 'password-changed', {
        keep: user.sessionId,
        db: tx,
        afterCommit,
      });
      await this.deps.audit.record({ action: 'auth.password-changed', subject: `user:${user.id}` }, tx);
    });
    this.securityMail(
      user,
      'Your Dealmaker password was changed',
      'The password of your account was just changed, and every other session was signed out. If this was not you, reset your password now.',
    );
    return { message: 'Your password has been changed. Your other sessions were signed out.' };
  }

  /**
   * Starts a change of email: a link to the new address confirms it, and the current address is told.
   * The answer is the same whether or not the new address belongs to another account.
   */
  async requestEmailChange(
    user: AuthUser & { fullName: string },
    input: { newEmail: string; password: string },
  ) {
    await this.requireRecentFactor(user);
    await this.checkPassword(user, input.password, 'password');
    if (input.newEmail.toLowerCase() === user.email.toLowerCase()) {
      throw badRequest('This is already your email address.', {
        newEmail: ['This is already your email address'],
      });
    }
    const answer = {
      message: `We sent a link to ${input.newEmail}. Open it to confirm your new email address.`,
    };
    const base = this.deps.config.publicUrl;
    if (await this.deps.users.findAccountByEmail(input.newEmail)) {
      this.mail(
        input.newEmail,
        'Someone tried to use this email on Dealmaker',
        `Hello,\n\nSomeone asked to move a Dealmaker account to this email address, which already belongs to an account. Nothing was changed. If you did not ask for this, you can ignore this mail.\n`,
        `${base}/`,
      );
      return answer;
    }
    const token = randomToken();
    await authRepository.insertEmailChange(this.deps.db, {
      userId: user.id,
      newEmail: input.newEmail,
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + limits.security.emailChangeLinkSeconds * 1000),
    });
    const link = `${base}/confirm-email/${token}`;
    this.mail(
      input.newEmail,
      'Confirm your new Dealmaker email',
      `Hello ${user.fullName},\n\nOpen this link within 24 hours to make this your Dealmaker email address:\n\n${link}\n\nIf you did not ask for this, ignore this mail.\n`,
      link,
    );
    this.securityMail(
      user,
      'Your Dealmaker email is being changed',
      `Someone signed in to your account asked to change its email address to ${input.newEmail}. It changes once the link mailed there is opened. If this was not you, change your password and end your other sessions.`,
    );
    return answer;
  }

  /** The link from the new address: the change happens (once; a taken address by then is refused). */
  async confirmEmailChange(token: string) {
    const invalid = () => badRequest('This link is invalid or has expired. Please ask for the change again.');
    const result = await this.deps.transact(async (tx) => {
      const change = await authRepository.lockUsableEmailChange(tx, sha256(token));
      if (!change) throw invalid();
      const user = await this.deps.users.lockAccount(tx, change.userId);
      if (!user) throw invalid();
      await authRepository.markEmailChangeUsed(tx, change.id);
      try {
        await this.deps.users.updateAccount(user.id, { email: change.newEmail }, tx);
      } catch (error) {
        if (isUniqueViolation(error, 'users_email_lower_key')) {
          throw conflict('This email address now belongs to another account.');
        }
        throw error;
      }
      await this.deps.audit.record(
        {
          action: 'auth.email-changed',
          actor: { id: user.id, username: user.username },
          subject: `user:${user.id}`,
          before: { email: user.email },
          after: { email: change.newEmail },
        },
        tx,
      );
      return { userId: user.id, tokenVersion: user.tokenVersion, newEmail: change.newEmail };
    });
    // Every instance forgets the account's cached state (its email); no token is outdated by it.
    this.deps.events.signal('account-changed', { userId: result.userId, tokenVersion: result.tokenVersion });
    return { message: `Your email address is now ${result.newEmail}.` };
  }

  // ── Checks ──

  /** The account's password; a wrong one counts against the account (so a stolen session cannot guess it). */
  private async checkPassword(user: AuthUser, password: string, field = 'password') {
    await this.deps.rateLimits.check(['passwordChecksFailedPerUser', String(user.id)]);
    const account = await this.deps.users.findAccountById(user.id);
    if (!(await passwordMatches(account?.passwordHash, password))) {
      await this.deps.rateLimits.record(['passwordChecksFailedPerUser', String(user.id)]);
      throw new AppError(403, errorCodes.invalidSecondFactor, 'That password is not right.', {
        [field]: ['That password is not right'],
      });
    }
  }

  private async checkFactor(user: AuthUser, factor: GivenFactor, purpose: 'step-up') {
    const good = await this.deps.secondFactor.check(user, factor, { purpose, boundTo: user.sessionId });
    if (!good) throw invalidFactor(factor);
  }

  /** The factors of the account changed: sessions here re-read whether it has one, and it is audited. */
  private factorsChanged(user: AuthUser, action: AuditAction, after?: Record<string, unknown>) {
    this.deps.sessions.forgetUser(user.id);
    void this.deps.audit
      .record({ action, subject: `user:${user.id}`, ...(after ? { after } : {}) })
      .catch((error) => this.deps.log.error({ err: error }, 'auditing a change of second factors failed'));
  }

  /** A notice to the account's own address about a change of its protections. */
  private securityMail(user: { email: string; username: string }, subject: string, text: string) {
    const link = `${this.deps.config.publicUrl}/profile#security`;
    this.mail(
      user.email,
      subject,
      `Hello ${user.username},\n\n${text}\n\nYour account's security settings: ${link}\n`,
      link,
    );
  }

  private mail(to: string, subject: string, text: string, link: string) {
    this.deps.background.run('sending a security mail', () =>
      this.deps.mailer.send({ to, subject, text, link }),
    );
  }
}

const isFresh = (factorAt: Date | null) =>
  factorAt !== null && Date.now() - factorAt.getTime() < limits.security.stepUpFreshSeconds * 1000;

function factorOf(input: StepUpRequest): GivenFactor {
  if (input.code) return { code: input.code };
  if (input.recoveryCode) return { recoveryCode: input.recoveryCode };
  return { passkey: input.passkey! };
}

/** A wrong second factor given by a signed-in user: 403, never 401 (which would sign the tab out). */
function invalidFactor(given: { code?: unknown; recoveryCode?: unknown; passkey?: unknown }) {
  return new AppError(403, errorCodes.invalidSecondFactor, invalidFactorMessage(given));
}
