import type { TokenClaims } from '../../contract/auth';

/**
 * Reads the claims of a sign-in token without verifying it (only the server can): the web app
 * uses them to know who is signed in and until when. Null for anything that is not a readable token.
 */
export function decodeToken(token: string): TokenClaims | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=');
    const bytes = Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
    return asClaims(JSON.parse(new TextDecoder().decode(bytes)));
  } catch {
    return null;
  }
}

/** Expired when `exp` (seconds) is earlier than now (spec §5). */
export function isTokenExpired(claims: Pick<TokenClaims, 'exp'>, now: number = Date.now()): boolean {
  return claims.exp * 1000 < now;
}

/** The claims of a token that is readable and not expired, else null (the user counts as signed out). */
export function validClaims(token: string | null, now: number = Date.now()): TokenClaims | null {
  if (!token) return null;
  const claims = decodeToken(token);
  return claims && !isTokenExpired(claims, now) ? claims : null;
}

/** The claims the app relies on (contract TokenClaims), checked by hand to keep zod out of the first page load. */
function asClaims(value: unknown): TokenClaims | null {
  if (typeof value !== 'object' || value === null) return null;
  const { id, username, email, exp } = value as Record<string, unknown>;
  if (!Number.isInteger(id) || typeof username !== 'string' || typeof email !== 'string') return null;
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return null;
  return { id: id as number, username, email, exp };
}
