import { fastifyRequestContext, requestContext } from '@fastify/request-context';
import type { FastifyInstance } from 'fastify';
// Declares what the context holds (the requester the audit log records).
import '../db/requester';

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

/** Records the authenticated user of the request being served. */
export function setRequestActor(actor: { id: number; username: string }) {
  requestContext.set('actor', actor);
}
