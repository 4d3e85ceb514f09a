import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { errorBodySchema, errorCodes } from '../../contract/errors';
import { AppError, forbidden, unauthenticated } from './errors';
import { setRequestActor } from './request-context';

/** The signed-in user of a request, as the token, its session and the account row tell it. */
export type AuthUser = {
  id: number;
  username: string;
  email: string;
  isOperator: boolean;
  sessionId: string;
};

declare module 'fastify' {
  interface FastifyRequest {
    authUser: AuthUser | null;
  }
}

/** onRequest hook of routes that need a signed-in user: before the body is read, so 401 comes before 400. */
export async function authenticate(request: FastifyRequest, _reply: FastifyReply) {
  request.authUser = await request.server.services.auth.authenticateRequest(request);
  setRequestActor({ id: request.authUser.id, username: request.authUser.username });
}

/**
 * After `authenticate`: operators only (a user becomes one only by `npm run operator` on the server), and
 * only with a second factor on: an operator's password alone must not open the console.
 */
export async function operatorsOnly(request: FastifyRequest, _reply: FastifyReply) {
  const user = currentUser(request);
  if (!user.isOperator) throw forbidden('Only operators can do this.');
  if (!(await request.server.services.sessions.state(user.sessionId))?.hasSecondFactor) {
    throw new AppError(
      403,
      errorCodes.secondFactorRequired,
      'Operators must turn on two-factor sign-in (an authenticator app or a passkey) in My Profile before using the Operator console.',
    );
  }
}

/**
 * preHandler of calls that move money out or change what protects the account: with a second factor on,
 * one must have been given in this session in the last 10 minutes (403 STEP_UP_REQUIRED otherwise; the
 * web app asks for it in place and carries on). After validation, so bad input still answers 400 first.
 */
export async function requireRecentFactor(request: FastifyRequest, _reply: FastifyReply) {
  await request.server.services.accountSecurity.requireRecentFactor(currentUser(request));
}

/** The signed-in user of a route guarded by `authenticate`. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw unauthenticated();
  return request.authUser;
}

/** The refusals a call can answer with (DESIGN.md §4), as documented in /api/docs. */
const refusals = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

/**
 * What every route of one route plugin shares, declared once at its top: its
 * tag in /api/docs, the error answers, and — with `signedIn` — the
 * authentication guard and its security scheme. A route's own schema entries
 * come on top (e.g. a 413 or 429 answer of its own).
 */
export function routeDefaults(
  app: FastifyInstance,
  options: { tags: string[]; signedIn: boolean; operatorsOnly?: boolean },
) {
  app.addHook('onRoute', (route) => {
    const schema = route.schema ?? {};
    route.schema = {
      tags: options.tags,
      ...(options.signedIn ? { security: [{ bearerAuth: [] }] } : {}),
      ...schema,
      response: { ...refusals, ...(schema.response as object | undefined) },
    };
    if (options.signedIn) {
      const own = route.onRequest ? [route.onRequest].flat() : [];
      const guards = [authenticate, ...(options.operatorsOnly ? [operatorsOnly] : [])];
      route.onRequest = [...(guards as onRequestHookHandler[]), ...own];
    }
  });
}
