import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorCodes } from '../../contract/errors';
import { AppError } from './errors';

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Cross-site request forgery: a browser sends the auth_token cookie with any
 * request to this server, whoever's page makes it. A change (POST, PUT, PATCH,
 * DELETE) authenticated by that cookie alone must come from the product's own
 * origin (PUBLIC_URL, or the address the request was sent to) or one of
 * CORS_ORIGINS, as its Origin (or, without one, its Referer) says; else 403.
 * Calls with an Authorization header are not affected: no other site can set one.
 */
export function refuseForeignOriginsWithCookies(
  app: FastifyInstance,
  options: { publicUrl: string; corsOrigins: string[] },
) {
  const trusted = new Set([new URL(options.publicUrl).origin, ...options.corsOrigins]);
  app.addHook('onRequest', (request, _reply, done) => {
    if (!unsafeMethods.has(request.method) || !isCookieAuthenticated(request)) return done();
    const origin = requestOrigin(request);
    if (origin === null || trusted.has(origin) || origin === ownOrigin(request)) return done();
    done(
      new AppError(
        403,
        errorCodes.foreignOrigin,
        'This request came from another site. Please use Dealmaker itself to make changes.',
      ),
    );
  });
}

function isCookieAuthenticated(request: FastifyRequest) {
  return !request.headers.authorization && (request.headers.cookie ?? '').includes('auth_token=');
}

/** The origin the browser says the request comes from; null when it says nothing (not a browser). */
function requestOrigin(request: FastifyRequest): string | null {
  const origin = request.headers.origin;
  if (origin) return origin;
  const referer = request.headers.referer;
  if (!referer) return null;
  try {
    return new URL(referer).origin;
  } catch {
    return 'invalid';
  }
}

/** The origin of the address the request was sent to (behind a proxy, as TRUST_PROXY lets Fastify see it). */
function ownOrigin(request: FastifyRequest) {
  return `${request.protocol}://${request.host}`;
}
