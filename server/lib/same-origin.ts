import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import { errorCodes } from '../../contract/errors';
import { extractToken } from './credentials';
import { AppError } from './errors';

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export type OriginOptions = { publicUrl: string; corsOrigins: string[]; trustProxy: boolean };

/**
 * The one answer to "may a browser page of this origin use the auth_token cookie here?", for HTTP
 * changes and Socket.IO handshakes alike. A browser sends the cookie with any request to this server,
 * whoever's page makes it, so a request signed in by the cookie must come from the product's own origin
 * (PUBLIC_URL's, or the address the request was sent to) or one of CORS_ORIGINS, as its Origin (or,
 * without one, its Referer) says. A request saying nothing is not from a browser page: allowed.
 */
export class TrustedOrigins {
  private readonly trusted: Set<string>;

  constructor(private readonly options: OriginOptions) {
    this.trusted = new Set([new URL(options.publicUrl).origin, ...options.corsOrigins]);
  }

  allows(request: IncomingMessage): boolean {
    const origin = browserOrigin(request.headers);
    return (
      origin === null ||
      this.trusted.has(origin) ||
      origin === addressedOrigin(request, this.options.trustProxy)
    );
  }
}

/**
 * Whether the request is signed in by the auth_token cookie: it carries a token, and not in an
 * Authorization header (extractToken decides, as it does for signing the request in). Only a Bearer
 * header replaces the cookie: with `Basic …` or `Negotiate …` the cookie still signs the request in,
 * so it is still a cookie request. `handshakeToken` is a Socket.IO handshake's `auth.token`, which
 * only a script can set, like a header.
 */
export function isCookieAuthenticated(headers: IncomingHttpHeaders, handshakeToken?: unknown): boolean {
  if (typeof handshakeToken === 'string' && handshakeToken) return false;
  const fromHeader = extractToken(headers.authorization, undefined);
  return fromHeader === null && extractToken(headers.authorization, headers.cookie) !== null;
}

/** The refusal of a cookie-signed change from another site. */
export const foreignOriginRefusal = () =>
  new AppError(
    403,
    errorCodes.foreignOrigin,
    'This request came from another site. Please use Dealmaker itself to make changes.',
  );

/**
 * Cross-site request forgery: a change (POST, PUT, PATCH, DELETE) signed in by the cookie must come
 * from a trusted origin (TrustedOrigins); else 403. Reads change nothing and pass.
 */
export function refuseForeignOriginsWithCookies(app: FastifyInstance, trustedOrigins: TrustedOrigins) {
  app.addHook('onRequest', (request, _reply, done) => {
    if (!unsafeMethods.has(request.method) || !isCookieAuthenticated(request.headers)) return done();
    if (trustedOrigins.allows(request.raw)) return done();
    done(foreignOriginRefusal());
  });
}

/** The origin the browser says the request comes from; null when it says nothing (not a browser). */
function browserOrigin(headers: IncomingHttpHeaders): string | null {
  const origin = headers.origin;
  if (origin) return origin;
  const referer = headers.referer;
  if (!referer) return null;
  try {
    return new URL(referer).origin;
  } catch {
    return 'invalid';
  }
}

/**
 * The origin of the address the request was sent to. Behind a proxy (TRUST_PROXY) the proxy's
 * X-Forwarded-Proto and X-Forwarded-Host say it, their last entries, as Fastify reads them for
 * `request.protocol` and `request.host`; a Socket.IO handshake has no Fastify request, hence this.
 */
function addressedOrigin(request: IncomingMessage, trustProxy: boolean): string {
  const forwardedProto = trustProxy ? lastEntry(request.headers['x-forwarded-proto']) : undefined;
  const forwardedHost = trustProxy ? lastEntry(request.headers['x-forwarded-host']) : undefined;
  const protocol = forwardedProto ?? ((request.socket as TLSSocket).encrypted ? 'https' : 'http');
  return `${protocol}://${forwardedHost ?? request.headers.host ?? ''}`;
}

function lastEntry(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.at(-1) : header;
  if (!value) return undefined;
  return value.slice(value.lastIndexOf(',') + 1).trim() || undefined;
}
