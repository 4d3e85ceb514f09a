import { limits } from '../../contract/limits';

/** The sign-in token lives in this cookie (spec §9), so the server also sees it on picture and socket requests. */
export const tokenCookieName = 'auth_token';

/**
 * The token read in the current task: reading document.cookie asks the browser's cookie store, which costs
 * a phone a millisecond or so, and a screen starts its calls together. Forgotten once the task is done
 * (another tab may change the cookie) and on every change made here.
 */
let readThisTask: string | null | undefined;

export function getStoredToken(): string | null {
  if (typeof document === 'undefined') return null;
  if (readThisTask === undefined) {
    readThisTask = readTokenCookie();
    queueMicrotask(() => {
      readThisTask = undefined;
    });
  }
  return readThisTask;
}

function readTokenCookie(): string | null {
  for (const part of document.cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === tokenCookieName) {
      const value = decodeURIComponent(rest.join('='));
      return value || null;
    }
  }
  return null;
}

export function storeToken(token: string): void {
  writeCookie(encodeURIComponent(token), limits.tokenLifetimeSeconds);
}

export function clearStoredToken(): void {
  writeCookie('', 0);
}

function writeCookie(value: string, maxAgeSeconds: number) {
  // Browsers refuse Secure cookies from plain-http origins other than localhost; there the cookie
  // would silently never be stored, so it is only marked Secure where the browser keeps it.
  const secure = window.isSecureContext || window.location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is async and missing from some browsers
  document.cookie = `${tokenCookieName}=${value}; Max-Age=${maxAgeSeconds}; Path=/; SameSite=Lax${secure}`;
  readThisTask = undefined;
}
