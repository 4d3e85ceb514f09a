import { hash, verify } from '@node-rs/argon2';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { RegisterRequest } from '../../../contract/auth';
import { errorCodes } from '../../../contract/errors';
import { limits } from '../../../contract/limits';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { passwordResets, settings } from '../../db/schema';
import {
  AppError,
  badRequest,
  conflict,
  forbidden,
  isUniqueViolation,
  tooManyRequests,
  unauthenticated,
} from '../../lib/errors';
import type { Mailer } from '../../lib/mail';
import { FixedWindowLimiter } from '../../lib/rate-limiter';
import { randomToken, sha256 } from '../../lib/secrets';
import { presentUser } from '../users/users.presenter';
import { usersRepository } from '../users/users.repository';
import { extractToken, TokenSigner } from './tokens';

export type AuthUser = { id: number; username: string; email: string };

// argon2id, the parameters OWASP recommends (19 MiB, 2 passes).
const hashOptions = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
// Compared against when the user does not exist, so timing does not reveal which usernames exist.
const dummyHashPromise = hash('not-a-real-password', hashOptions);

/** Names whose profile path is another route: GET /api/auth/users/search is the user search. */
const reservedUsernames = new Set(['search']);

export const verifiedMessage = 'Your email has been verified successfully!';

/** Accounts: registration, email verification, sign-in, tokens and password resets (DESIGN.md §5 Accounts). */
export class AuthService {
  private readonly failuresByUsername = new FixedWindowLimiter(
    limits.signIn.perUsername,
    limits.signIn.windowSeconds * 1000,
  );
  private readonly failuresByAddress = new FixedWindowLimiter(
    limits.signIn.perAddress,
    limits.signIn.windowSeconds * 1000,
  );

  private constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly mailer: Mailer,
    private readonly log: FastifyBaseLogger,
    private readonly signer: TokenSigner,
  ) {}

  static async create(deps: { db: Db; config: Config; mailer: Mailer; log: FastifyBaseLogger }) {
    const secret = deps.config.jwtSecret ?? (await loadOrCreateSecret(deps.db));
    return new AuthService(deps.db, deps.config, deps.mailer, deps.log, new TokenSigner(secret));
  }

  async register(input: RegisterRequest) {
    if (
      reservedUsernames.has(input.username.toLowerCase()) ||
      (await usersRepository.findByUsername(this.db, input.username))
    ) {
      throw conflict('Username is already taken.');
    }
    if (await usersRepository.findByEmail(this.db, input.email)) {
      throw conflict('An account with this email already exists.');
    }
    const key = randomToken();
    let user: Awaited<ReturnType<typeof usersRepository.insert>>;
    try {
      user = await usersRepository.insert(this.db, {
        username: input.username,
        email: input.email,
        fullName: input.full_name,
        passwordHash: await hash(input.password, hashOptions),
        verificationKeyHash: sha256(key),
      });
    } catch (error) {
      // Two registrations racing for the same name: the unique index decides.
      if (isUniqueViolation(error, 'users_username_lower_key')) throw conflict('Username is already taken.');
      if (isUniqueViolation(error, 'users_email_lower_key')) {
        throw conflict('An account with this email already exists.');
      }
      throw error;
    }
    const link = `${this.config.publicUrl}/api/auth/register/${key}`;
    try {
      await this.sendMail({
        to: input.email,
        subject: 'Verify your Dealmaker account',
        text: `Hello ${input.full_name},\n\nWelcome to Dealmaker! Please verify your email by opening this link:\n\n${link}\n`,
        link,
      });
    } catch (error) {
      // Without the mail the account could never be verified, and its name and email would stay taken.
      await usersRepository.deleteById(this.db, user.id);
      throw error;
    }
    return { message: 'Registration successful! Please check your email to verify your account.' };
  }

  async verifyEmail(key: string) {
    const user = key ? await usersRepository.findByVerificationKeyHash(this.db, sha256(key)) : undefined;
    if (!user) throw badRequest('This verification link is invalid or has expired.');
    if (user.verifiedAt) return { message: 'Your email is already verified. You can sign in.' };
    await usersRepository.update(this.db, user.id, { verifiedAt: new Date() });
    return { message: verifiedMessage };
  }

  async login(input: { username: string; password: string }, address: string) {
    const usernameKey = input.username.toLowerCase();
    const wait = Math.max(
      this.failuresByUsername.retryAfterSeconds(usernameKey),
      this.failuresByAddress.retryAfterSeconds(address),
    );
    if (wait > 0) {
      throw tooManyRequests(
        `Too many sign-in attempts. Please try again in ${Math.ceil(wait / 60)} minute${wait > 60 ? 's' : ''}.`,
      );
    }
    const user = await usersRepository.findByUsername(this.db, input.username);
    const passwordOk = await verify(user?.passwordHash ?? (await dummyHashPromise), input.password);
    if (!user || !passwordOk) {
      this.failuresByUsername.record(usernameKey);
      this.failuresByAddress.record(address);
      throw unauthenticated('Invalid username or password.');
    }
    if (!user.verifiedAt) {
      throw forbidden(
        'Please verify your email before signing in. Check your inbox for the verification link.',
      );
    }
    this.failuresByUsername.reset(usernameKey);
    const token = await this.signer.sign(user);
    return { token, user: presentUser(user) };
  }

  /** The signed-in user of a request, or null: a forged, expired or outdated token counts as none. */
  async userFromRequest(request: FastifyRequest): Promise<AuthUser | null> {
    return this.userFromToken(extractToken(request.headers.authorization, request.headers.cookie));
  }

  /** The token's user with its expiry and full name (the realtime layer shows it in typing indicators). */
  async userFromToken(token: string | null): Promise<(AuthUser & { fullName: string; exp: number }) | null> {
    if (!token) return null;
    const claims = await this.signer.verify(token);
    if (!claims) return null;
    const user = await usersRepository.findById(this.db, claims.id);
    if (!user?.verifiedAt || user.tokenVersion !== claims.tokenVersion) return null;
    return {
      id: user.id,
      username: user.username,
      email: user.email,
      fullName: user.fullName,
      exp: claims.exp,
    };
  }

  async requestPasswordReset(email: string) {
    const answer = {
      success: true,
      message: 'If an account exists for this email, a password reset link has been sent to it.',
    };
    const user = await usersRepository.findByEmail(this.db, email);
    if (!user) return answer;
    const token = randomToken();
    await this.db.insert(passwordResets).values({
      userId: user.id,
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + limits.resetTokenLifetimeSeconds * 1000),
    });
    const link = `${this.config.publicUrl}/api/auth/reset_password/${encodeURIComponent(user.username)}/${token}`;
    await this.sendMail({
      to: user.email,
      subject: 'Reset your Dealmaker password',
      text: `Hello ${user.fullName},\n\nOpen this link within one hour to choose a new password:\n\n${link}\n\nIf you did not ask for this, ignore this mail.\n`,
      link,
    });
    return answer;
  }

  async resetPassword(username: string, token: string, newPassword: string) {
    const invalid = () => badRequest('This reset link is invalid or has expired. Please request a new one.');
    const passwordHash = await hash(newPassword, hashOptions);
    return this.db.transaction(async (tx) => {
      const [reset] = await tx
        .select()
        .from(passwordResets)
        .where(
          and(
            eq(passwordResets.tokenHash, sha256(token)),
            isNull(passwordResets.usedAt),
            gt(passwordResets.expiresAt, new Date()),
          ),
        )
        .for('update');
      if (!reset) throw invalid();
      const user = await usersRepository.lockById(tx, reset.userId);
      if (!user || user.username.toLowerCase() !== username.toLowerCase()) throw invalid();
      // One reset link works once; every other open link of this user stops working too.
      await tx
        .update(passwordResets)
        .set({ usedAt: new Date() })
        .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt)));
      await usersRepository.update(tx, user.id, {
        passwordHash,
        tokenVersion: user.tokenVersion + 1,
        // The mail reached its owner, which is what verification proves.
        verifiedAt: user.verifiedAt ?? new Date(),
      });
      this.failuresByUsername.reset(user.username.toLowerCase());
      return { success: true, message: 'Password has been changed successfully! Please log in.' };
    });
  }

  private async sendMail(mail: Parameters<Mailer['send']>[0]) {
    try {
      await this.mailer.send(mail);
    } catch (error) {
      this.log.error({ err: error, to: mail.to }, 'sending mail failed');
      throw new AppError(503, errorCodes.unavailable, 'Could not send the email. Please try again later.');
    }
  }
}

async function loadOrCreateSecret(db: Db): Promise<string> {
  await db
    .insert(settings)
    .values({ key: 'jwt_secret', value: randomToken(48) })
    .onConflictDoNothing();
  const [row] = await db.select().from(settings).where(eq(settings.key, 'jwt_secret'));
  return row!.value;
}
