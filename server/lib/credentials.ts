/** How a request or a socket handshake carries its credentials: a Bearer header or a cookie. */

/** A cookie's value from a Cookie header; null when absent or malformed. */
export function readCookie(cookieHeader: string | undefined, name: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) {
      try {
        return decodeURIComponent(rest.join('=')) || null;
      } catch {
        return null; // malformed percent-encoding: no value, not a 500
      }
    }
  }
  return null;
}

/** The token of a request or a socket handshake: Authorization header first, then the auth_token cookie. */
export function extractToken(
  authorization: string | undefined,
  cookieHeader: string | undefined,
): string | null {
  if (authorization?.startsWith('Bearer ')) return authorization.slice('Bearer '.length).trim() || null;
  return readCookie(cookieHeader, 'auth_token');
}
