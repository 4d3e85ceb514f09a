import { requestContext } from '@fastify/request-context';

/**
 * Who makes a change, as the audit log records it: the request's signed-in user and address, kept in
 * the request's context (AsyncLocalStorage, registered by lib/request-context.ts).
 */
declare module '@fastify/request-context' {
  interface RequestContextData {
    /** The signed-in user making the request (set once authenticated). */
    actor: { id: number; username: string } | undefined;
    /** The client's address (request.ip: the connection's, or X-Forwarded-For's with TRUST_PROXY). */
    address: string | undefined;
  }
}

/** The user and address of the request being served, or nothing outside a request (timers, commands). */
export function currentRequester(): { actor?: { id: number; username: string }; address?: string } {
  return { actor: requestContext.get('actor'), address: requestContext.get('address') };
}

/**
 * The audit log's settings naming who makes the change and from which address: empty outside a
 * request (timers, commands). Set for the transaction only (set_config's third argument).
 */
export function requesterSettings(): { actorId: string; actorUsername: string; address: string } {
  const { actor, address } = currentRequester();
  return {
    actorId: actor ? String(actor.id) : '',
    actorUsername: actor?.username ?? '',
    address: address ?? '',
  };
}
