import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { RegisterRequest } from '../../../contract/auth';
import { errorCodes } from '../../../contract/errors';
import { limits } from '../../../contract/limits';
import type { SecondStepRequest, TwoFactorChallenge } from '../../../contract/security';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/postgres-errors';
import type { UserRow } from '../../db/schema';
import type { Transact } from '../../db/transaction';
import type { BackgroundTasks } from '../../lib/background';
import { extractToken } from '../../lib/credentials';
import { AppError, badRequest, conflict, forbidden, unauthenticated } from '../../lib/errors';
import type { EventPublisher } from '../../lib/events';
import type { Mailer } from '../../lib/mail';
import type { RateLimits } from '../../lib/rate-limits';
import type { AuthUser } from '../../lib/route-guard';
import { randomToken, sha256 } from '../../lib/secrets';
import type { AuditService } from '../audit/audit.service';
import { presentUser } from '../users/users.presenter';
import type { UsersService } from '../users/users.service';
import { authRepository } from './auth.repository';
import type { ClientInfo } from './device';
import { factorsRepository } from './factors.repository';
import type { PasskeysService } from './passkeys.service';
import { hashPassword, passwordMatches } from './passwords';
import type { SecondFactorService } from './second-factor.service';
import { endedSessionMessages, type SessionsService } from './sessions.service';
import { TokenSigner, type VerifiedToken } from './tokens';

/** Names whose profile path is another route: GET /api/auth/users/search is the user search. */
const reservedUsernames = new Set(['search']);

export const verifiedMessage = 'Your email has been verified successfully!';
const registered = { message: 'Registration successful! Please check your email to verify your account.' };

type AuthDeps = {
  db: Db;
  transact: Transact;
  users: UsersService;
  config: Config;
  mailer: Mailer;
  log: FastifyBaseLogger;
  events: EventPublisher;
  rateLimits: RateLimits;
  background: BackgroundTasks;
  audit: AuditService;
  sessions: SessionsService;
  secondFactor: SecondFactorService;
  passkeys: PasskeysService;
};

/** A completed sign-in: the spec's answer, and the device key to give a browser that had none. */
export type SignedIn = { token: string; user: ReturnType<typeof presentUser>; givenDeviceKey: string | null };

/** The signed-in user of a token, with what the realtime layer and the step-up check need. */
export type TokenUser = AuthUser & { fullName: string; exp: number; tokenVersion: number };

/** Accounts: registration, email verification, sign-in, tokens and password resets (DESIGN.md §5 Accounts). */
export class AuthService {
  private readonly verifiedTokens = new LRUCache<string, VerifiedToken & { exp: number }>({ max: 20_000 });
  private constructor(
    private readonly deps: AuthDeps,
    private readonly signer: TokenSigner,
  ) {
    // A password reset on any instance: forget the account's cached state here too.
    deps.events.onSignal('account-changed', ({ userId }) => this.forgetAccount(userId));
  }

  static async create(deps: AuthDeps) {
    const secret =
      deps.config.jwtSecret ?? (await authRepository.settingOrCreate(deps.db, 'jwt_secret', randomToken(48)));
    return new AuthService(deps, new TokenSigner(secret));
  }

  private get db() {
    return this.deps.db;
  }

  private get users() {
    return this.deps.users;
  }

  /**
   * A new, unverified account. A taken username is said (the person must pick
   * another); a taken email is not: the answer is the same as for a new
   * account, and the address's owner gets a mail saying someone tried.
   */
  /** `address`: the client's, whose registrations are limited; null for a command run on the server. */
  async register(input: RegisterRequest, address: string | null) {
    if (address !== null) await this.deps.rateLimits.consume(['registrationsPerAddress', address]);
    if (
      reservedUsernames.has(input.username.toLowerCase()) ||
      (await this.users.findAccountByUsername(input.username))
    ) {
      throw conflict('Username is already taken.');
    }
    const passwordHash = await hashPassword(input.password);
    const owner = await this.users.findAccountByEmail(input.email);
    if (owner) return this.mailExistingOwner(owner);
    const key = randomToken();
    let user: UserRow;
    try {
      user = await this.users.createAccount({
        username: input.username,
        email: input.email,
        fullName: input.full_name,
        passwordHash,
        verificationKeyHash: sha256(key),
      });
    } catch (error) {
      // Two registrations racing for the same name or email: the unique index decides.
      if (isUniqueViolation(error, 'users_username_lower_key')) throw conflict('Username is already taken.');
      if (isUniqueViolation(error, 'users_email_lower_key')) {
        const winner = await this.users.findAccountByEmail(input.email);
        if (winner) return this.mailExistingOwner(winner);
      }
      throw error;
    }
    const link = `${this.deps.config.publicUrl}/api/auth/register/${key}`;
    try {
      await this.sendMail({
        to: input.email,
        subject: 'Verify your Dealmaker account',
        text: `Hello ${input.full_name},\n\nWelcome to Dealmaker! Please verify your email by opening this link:\n\n${link}\n`,
        link,
      });
    } catch (error) {
      // Without the mail the account could never be verified, and its name and email would stay taken.
      await this.users.deleteAccount(user.id);
      throw error;
    }
    return registered;
  }

  /** Someone registered with the email of an existing account: tell its owner, and answer as for a new one. */
  private async mailExistingOwner(owner: UserRow) {
    const link = `${this.deps.config.publicUrl}/`;
    await this.sendMail({
      to: owner.email,
      subject: 'Someone tried to register with your email',
      text: `Hello ${owner.fullName},\n\nSomeone just tried to create a Dealmaker account with this email address. You already have an account (${owner.username}): if it was you, sign in or reset your password at ${link}. If not, you can ignore this mail.\n`,
      link,
    });
    return registered;
  }

  /**
   * Mails a new verification link to an unverified account with this email. The answer is the same, and
   * comes as fast, whether or not there is one.
   */
  async resendVerification(email: string, address: string) {
    await this.deps.rateLimits.consume(
      ['verificationResendsPerAddress', address],
      ['verificationResendsPerEmail', email.toLowerCase()],
    );
    this.deps.background.run('resending a verification link', async () => {
      const user = await this.users.findAccountByEmail(email);
      if (!user || user.verifiedAt) return;
      const key = randomToken();
      await this.users.updateAccount(user.id, { verificationKeyHash: sha256(key) });
      const link = `${this.deps.config.publicUrl}/api/auth/register/${key}`;
      await this.deps.mailer.send({
        to: user.email,
        subject: 'Verify your Dealmaker account',
        text: `Hello ${user.fullName},\n\nHere is a new link to verify your email (the earlier ones no longer work):\n\n${link}\n`,
        link,
      });
    });
    return {
      message: 'If an unverified account uses this email, a new verification link has been sent to it.',
    };
  }

  async verifyEmail(key: string) {
    const user = key ? await this.users.findAccountByVerificationKeyHash(sha256(key)) : undefined;
    if (!user) throw badRequest('This verification link is invalid or has expired.');
    if (user.verifiedAt) return { message: 'Your email is already verified. You can sign in.' };
    await this.users.updateAccount(user.id, { verifiedAt: new Date() });
    this.forgetAccount(user.id);
    return { message: verifiedMessage };
  }

  /**
   * Sign-in with a password. Failures are counted per (account, address) — under the account's token
   * version, so a password reset starts the count again — and per address (server/lib/rate-limits.ts).
   * An account with a second factor gets a challenge instead of a token: the sign-in completes with
   * `loginSecondStep`, so a stolen password alone signs nobody in.
   */
  async login(
    input: { username: string; password: string },
    client: ClientInfo,
  ): Promise<SignedIn | TwoFactorChallenge> {
    const { address } = client;
    const user = await this.users.findAccountByUsername(input.username);
    const accountKey = `${user ? `${user.id}:${user.tokenVersion}` : `?${input.username.toLowerCase()}`}|${address}`;
    await this.deps.rateLimits.check(
      ['signInFailuresPerUserAndAddress', accountKey],
      ['signInFailuresPerAddress', address],
    );
    const passwordOk = await passwordMatches(user?.passwordHash, input.password);
    if (!user || !passwordOk) {
      await this.deps.rateLimits.record(
        ['signInFailuresPerUserAndAddress', accountKey],
        ['signInFailuresPerAddress', address],
      );
      await this.deps.audit.record({
        action: 'auth.sign-in-failed',
        actor: null,
        address,
        subject: user ? `user:${user.id}` : undefined,
        after: { username: input.username },
      });
      throw unauthenticated('Invalid username or password.');
    }
    if (!user.verifiedAt) {
      throw forbidden(
        'Please verify your email before signing in. Check your inbox for the verification link.',
      );
    }
    await this.deps.rateLimits.reset('signInFailuresPerUserAndAddress', accountKey);
    const methods = await this.deps.secondFactor.methodsOf(user.id);
    if (methods.length === 0) return this.completeSignIn(user, client, 'password');
    return this.openChallenge(user.id, methods);
  }

  /** The half-done sign-in of an account with a second factor: a challenge that lives 5 minutes. */
  private async openChallenge(
    userId: number,
    methods: TwoFactorChallenge['methods'],
  ): Promise<TwoFactorChallenge> {
    const challenge = randomToken();
    await factorsRepository.insertSignInChallenge(this.db, {
      tokenHash: sha256(challenge),
      userId,
      expiresAt: new Date(Date.now() + limits.security.signInChallengeSeconds * 1000),
    });
    const passkeyOptions = methods.includes('passkey')
      ? await this.deps.passkeys.assertionOptions('second-factor', userId, sha256(challenge))
      : undefined;
    return {
      twoFactorRequired: true,
      challenge,
      methods,
      ...(passkeyOptions ? { passkeyOptions: passkeyOptions as unknown as Record<string, unknown> } : {}),
    };
  }

  /**
   * The second step of a sign-in: a code from the app, a recovery code or a passkey. A challenge dies
   * after 5 wrong answers or 5 minutes; wrong answers also count against the account on every instance.
   */
  async loginSecondStep(input: SecondStepRequest, client: ClientInfo): Promise<SignedIn> {
    const tokenHash = sha256(input.challenge);
    const expired = () => unauthenticated('This sign-in has expired. Please sign in again.');
    const outcome = await this.deps.transact(async (tx) => {
      const challenge = await factorsRepository.lockLiveSignInChallenge(
        tx,
        tokenHash,
        limits.security.wrongCodesPerChallenge,
      );
      if (!challenge) return { kind: 'expired' as const };
      const user = await this.users.findAccountById(challenge.userId, tx);
      if (!user) return { kind: 'expired' as const };
      const factor = input.code
        ? { code: input.code }
        : input.recoveryCode
          ? { recoveryCode: input.recoveryCode }
          : { passkey: input.passkey! };
      const good = await this.deps.secondFactor.check(
        user,
        factor,
        { purpose: 'second-factor', boundTo: tokenHash },
        tx,
      );
      if (!good) {
        // Committed with the refusal: the count of wrong answers must survive it.
        const wrong = await factorsRepository.countWrongCode(tx, tokenHash);
        return { kind: 'wrong' as const, left: limits.security.wrongCodesPerChallenge - wrong };
      }
      await factorsRepository.completeSignInChallenge(tx, tokenHash);
      const method = 'code' in factor ? 'totp' : 'recoveryCode' in factor ? 'recovery' : 'passkey';
      return { kind: 'signed-in' as const, user, method };
    });
    if (outcome.kind === 'expired') throw expired();
    if (outcome.kind === 'wrong') {
      if (outcome.left <= 0) throw unauthenticated('Too many wrong codes. Please sign in again.');
      throw new AppError(401, errorCodes.invalidSecondFactor, invalidFactorMessage(input));
    }
    return this.completeSignIn(outcome.user, client, outcome.method);
  }

  /** Options for signing in with a passkey alone (no username: the browser offers this site's passkeys). */
  async passkeyLoginOptions(address: string) {
    await this.deps.rateLimits.consume(['passkeySignInOptionsPerAddress', address]);
    return this.deps.passkeys.assertionOptions('sign-in', null, null);
  }

  /** A sign-in with a passkey alone: the passkey (with its user verification) is both factors. */
  async passkeyLogin(response: Parameters<PasskeysService['verifyAssertion']>[0], client: ClientInfo) {
    await this.deps.rateLimits.check(['passkeySignInFailuresPerAddress', client.address]);
    const userId = await this.deps.passkeys.verifyAssertion(response, {
      purpose: 'sign-in',
      userId: null,
      boundTo: null,
    });
    const user = userId === null ? undefined : await this.users.findAccountById(userId);
    if (!user?.verifiedAt) {
      await this.deps.rateLimits.record(['passkeySignInFailuresPerAddress', client.address]);
      throw unauthenticated('This passkey could not sign you in. Please try again or use your password.');
    }
    return this.completeSignIn(user, client, 'passkey');
  }

  /** Opens the session of a sign-in and issues its token. */
  private async completeSignIn(user: UserRow, client: ClientInfo, method: string): Promise<SignedIn> {
    const { session, givenDeviceKey } = await this.deps.sessions.start(user, client);
    await this.deps.audit.record({
      action: 'auth.sign-in',
      actor: { id: user.id, username: user.username },
      address: client.address,
      subject: `user:${user.id}`,
      after: { method, device: session.device },
    });
    const token = await this.signer.sign(user, session);
    return { token, user: presentUser(user), givenDeviceKey };
  }

  /** Signing out ends the session on the server: its token stops working everywhere. */
  async logout(user: AuthUser) {
    await this.deps.sessions.end(user.id, user.sessionId, user.sessionId);
    return { message: 'You are signed out.' };
  }

  /** The signed-in user of a request, or null: a forged, expired or outdated token counts as none. */
  async userFromRequest(request: FastifyRequest): Promise<AuthUser | null> {
    const outcome = await this.checkToken(
      extractToken(request.headers.authorization, request.headers.cookie),
    );
    return outcome && 'user' in outcome ? outcome.user : null;
  }

  /** The same, saying why a token of a session ended elsewhere no longer works (the web app tells its user). */
  async authenticateRequest(request: FastifyRequest): Promise<AuthUser> {
    const outcome = await this.checkToken(
      extractToken(request.headers.authorization, request.headers.cookie),
    );
    if (outcome && 'user' in outcome) return outcome.user;
    if (outcome?.endedMessage) throw new AppError(401, errorCodes.sessionEnded, outcome.endedMessage);
    throw unauthenticated();
  }

  /** The token's user, or null. */
  async userFromToken(token: string | null): Promise<TokenUser | null> {
    const outcome = await this.checkToken(token);
    return outcome && 'user' in outcome ? outcome.user : null;
  }

  /**
   * Checks a token: its signature (cached until it expires, docs/decisions/0011-request-caches.md), its
   * session (open, cached for a second) and its account (verified, same token version; cached for a
   * second). An ended session takes effect within a second everywhere, and at once on the instance that
   * ended it (and on the others through the cluster signal).
   */
  private async checkToken(
    token: string | null,
  ): Promise<{ user: TokenUser } | { endedMessage: string | null } | null> {
    if (!token) return null;
    let claims = this.verifiedTokens.get(token);
    if (!claims) {
      claims = (await this.signer.verify(token)) ?? undefined;
      if (!claims) return null;
      this.verifiedTokens.set(token, claims);
    }
    if (claims.exp * 1000 <= Date.now()) return null;
    // The session and its account in one cached state (one query when it is not cached).
    const session = await this.deps.sessions.state(claims.sessionId);
    if (!session || session.userId !== claims.id) return null;
    if (!session.verified || session.tokenVersion !== claims.tokenVersion) return null;
    if (session.endedAt) {
      const reason = session.endReason as keyof typeof endedSessionMessages | null;
      return { endedMessage: (reason && endedSessionMessages[reason]) ?? null };
    }
    return {
      user: {
        id: session.userId,
        username: session.username,
        email: session.email,
        isOperator: session.isOperator,
        sessionId: claims.sessionId,
        fullName: session.fullName,
        exp: claims.exp,
        tokenVersion: claims.tokenVersion,
      },
    };
  }

  /** Forgets what this instance cached about an account whose sign-in state changed (reset, profile). */
  forgetAccount(userId: number) {
    this.deps.sessions.forgetUser(userId);
  }

  /**
   * Mails a reset link when an account has this email. The answer is the same,
   * and comes as fast, whether or not one does: the lookup and the mail happen
   * after answering.
   */
  async requestPasswordReset(email: string, address: string) {
    await this.deps.rateLimits.consume(
      ['resetRequestsPerAddress', address],
      ['resetRequestsPerEmail', email.toLowerCase()],
    );
    this.deps.background.run('sending a password reset link', () => this.sendResetLink(email));
    return {
      success: true,
      message: 'If an account exists for this email, a password reset link has been sent to it.',
    };
  }

  private async sendResetLink(email: string) {
    const user = await this.users.findAccountByEmail(email);
    if (!user) return;
    const token = randomToken();
    await authRepository.insertPasswordReset(this.db, {
      userId: user.id,
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + limits.resetTokenLifetimeSeconds * 1000),
    });
    const link = `${this.deps.config.publicUrl}/api/auth/reset_password/${encodeURIComponent(user.username)}/${token}`;
    await this.deps.mailer.send({
      to: user.email,
      subject: 'Reset your Dealmaker password',
      text: `Hello ${user.fullName},\n\nOpen this link within one hour to choose a new password:\n\n${link}\n\nIf you did not ask for this, ignore this mail.\n`,
      link,
    });
  }

  async resetPassword(username: string, token: string, newPassword: string) {
    const invalid = () => badRequest('This reset link is invalid or has expired. Please request a new one.');
    // The link first: a bogus one costs a lookup, not a password hash.
    if (!(await authRepository.findUsableReset(this.db, sha256(token)))) throw invalid();
    const passwordHash = await hashPassword(newPassword);
    return this.deps.transact(async (tx, afterCommit) => {
      const reset = await authRepository.lockUsableReset(tx, sha256(token));
      if (!reset) throw invalid();
      const user = await this.users.lockAccount(tx, reset.userId);
      if (!user || user.username.toLowerCase() !== username.toLowerCase()) throw invalid();
      // One reset link works once; every other open link of this user stops working too.
      await authRepository.useAllResetsOf(tx, user.id);
      await this.users.updateAccount(
        user.id,
        {
          passwordHash,
          tokenVersion: user.tokenVersion + 1,
          // The mail reached its owner, which is what verification proves.
          verifiedAt: user.verifiedAt ?? new Date(),
        },
        tx,
      );
      await this.deps.audit.record(
        {
          action: 'auth.password-reset',
          actor: { id: user.id, username: user.username },
          subject: `user:${user.id}`,
          before: { tokenVersion: user.tokenVersion },
          after: { tokenVersion: user.tokenVersion + 1 },
        },
        tx,
      );
      // Every session ends; every instance forgets the account's cached state and closes the sockets its
      // old tokens opened.
      await this.deps.sessions.endAll(user.id, 'password-reset', { db: tx, afterCommit });
      afterCommit(() =>
        this.deps.events.signal('account-changed', { userId: user.id, tokenVersion: user.tokenVersion + 1 }),
      );
      return { success: true, message: 'Password has been changed successfully! Please log in.' };
    });
  }

  private async sendMail(mail: Parameters<Mailer['send']>[0]) {
    try {
      await this.deps.mailer.send(mail);
    } catch (error) {
      this.deps.log.error({ err: error, to: mail.to }, 'sending mail failed');
      throw new AppError(503, errorCodes.unavailable, 'Could not send the email. Please try again later.');
    }
  }
}

/** What a wrong second factor is told, by the kind that was given. */
export function invalidFactorMessage(given: { code?: unknown; recoveryCode?: unknown; passkey?: unknown }) {
  if (given.recoveryCode) return 'That recovery code is not valid or was used already.';
  if (given.passkey) return 'The passkey could not be verified. Please try again.';
  return 'That code is not right. Please try the current code from your authenticator app.';
}
