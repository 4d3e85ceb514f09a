import { jwtVerify, SignJWT } from 'jose';

export type TokenSubject = { id: number; username: string; email: string; tokenVersion: number };
export type VerifiedToken = {
  id: number;
  username: string;
  email: string;
  tokenVersion: number;
  /** The session the token belongs to: it is good only while that session is open. */
  sessionId: string;
};

/**
 * HS256 sign-in tokens carrying id, username, email and exp (spec §3), plus the user's token version and
 * the session (`sid`) they were issued for.
 */
export class TokenSigner {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(subject: TokenSubject, session: { id: string; expiresAt: Date }): Promise<string> {
    return new SignJWT({
      id: subject.id,
      username: subject.username,
      email: subject.email,
      ver: subject.tokenVersion,
      sid: session.id,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime(Math.floor(session.expiresAt.getTime() / 1000))
      .sign(this.key);
  }

  /** The token's claims, or null when it is malformed, forged or expired. */
  async verify(token: string): Promise<(VerifiedToken & { exp: number }) | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      const { id, username, email, ver, exp, sid } = payload as Record<string, unknown>;
      if (typeof id !== 'number' || typeof username !== 'string' || typeof email !== 'string') return null;
      // A token from before sessions existed names none: it is refused, and its user signs in again.
      if (typeof exp !== 'number' || typeof sid !== 'string') return null;
      return { id, username, email, tokenVersion: typeof ver === 'number' ? ver : 0, sessionId: sid, exp };
    } catch {
      return null;
    }
  }
}
