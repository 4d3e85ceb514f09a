import { jwtVerify, SignJWT } from 'jose';
import { limits } from '../../../contract/limits';

export type TokenSubject = { id: number; username: string; email: string; tokenVersion: number };
export type VerifiedToken = { id: number; username: string; email: string; tokenVersion: number };

/** HS256 sign-in tokens carrying id, username, email and exp (spec §3), plus the user's token version. */
export class TokenSigner {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(subject: TokenSubject): Promise<string> {
    return new SignJWT({
      id: subject.id,
      username: subject.username,
      email: subject.email,
      ver: subject.tokenVersion,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + limits.tokenLifetimeSeconds)
      .sign(this.key);
  }

  /** The token's claims, or null when it is malformed, forged or expired. */
  async verify(token: string): Promise<(VerifiedToken & { exp: number }) | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      const { id, username, email, ver, exp } = payload as Record<string, unknown>;
      if (typeof id !== 'number' || typeof username !== 'string' || typeof email !== 'string') return null;
      if (typeof exp !== 'number') return null;
      return { id, username, email, tokenVersion: typeof ver === 'number' ? ver : 0, exp };
    } catch {
      return null;
    }
  }
}

/** The token of a request or a socket handshake: Authorization header first, then the auth_token cookie. */
export function extractToken(
  authorization: string | undefined,
  cookieHeader: string | undefined,
): string | null {
  if (authorization?.startsWith('Bearer ')) return authorization.slice('Bearer '.length).trim() || null;
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === 'auth_token') {
      try {
        return decodeURIComponent(rest.join('=')) || null;
      } catch {
        return null; // malformed percent-encoding: no token, not a 500
      }
    }
  }
  return null;
}
