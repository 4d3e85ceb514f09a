import type { FastifyReply, FastifyRequest } from 'fastify';
import { unauthenticated } from '../../lib/errors';
import type { AuthUser } from './auth.service';

declare module 'fastify' {
  interface FastifyRequest {
    authUser: AuthUser | null;
  }
}

/** preHandler for routes that need a signed-in user. */
export async function authenticate(request: FastifyRequest, _reply: FastifyReply) {
  request.authUser = await request.server.services.auth.userFromRequest(request);
  if (!request.authUser) throw unauthenticated();
}

/** The signed-in user of a route guarded by `authenticate`. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw unauthenticated();
  return request.authUser;
}

export const bearerSecurity = [{ bearerAuth: [] }];

/** Route options of a call that needs a signed-in user. */
export const signedIn = { preHandler: authenticate };
