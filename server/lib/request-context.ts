import { fastifyRequestContext, requestContext } from '@fastify/request-context';
import type { FastifyInstance } from 'fastify';

declare module '@fastify/request-context' {
  interface RequestContextData {
    /** The signed-in user making the request (set once authenticated). */
    actor: { id: number; username: string } | undefined;
    /** The client's address (request.ip: the connection's, or X-Forwarded-For's with TRUST_PROXY). */
    address: string | undefined;
  }
}

/**
 * Who is making the current request, reachable from anywhere the request's
 * work runs (through AsyncLocalStorage, with @fastify/request-context): the
 * audit log records it with every change the request makes.
 */
export async function registerRequestContext(app: FastifyInstance) {
  await app.register(fastifyRequestContext, {
    defaultStoreValues: (request) => ({ actor: undefined, address: request.ip }),
  });
}

/** The user and address of the request being served, or nothing outside a request (timers, commands). */
export function currentRequester(): { actor?: { id: number; username: string }; address?: string } {
  return { actor: requestContext.get('actor'), address: requestContext.get('address') };
}

/** Records the authenticated user of the request being served. */
export function setRequestActor(actor: { id: number; username: string }) {
  requestContext.set('actor', actor);
}
