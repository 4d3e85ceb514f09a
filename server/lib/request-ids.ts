import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** An id a proxy may hand on: short, and nothing a log line or a header could be confused by. */
const acceptableRequestId = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/**
 * Every request's id: the X-Request-Id a trusted proxy (TRUST_PROXY, the load balancer) gave it, so one
 * id follows the request from the balancer's log to ours, or else a new UUID (ids must be unique across
 * instances, which Fastify's counter is not). Fastify puts it on every log line of the request (`reqId`).
 */
export function requestIdGenerator(trustProxy: boolean) {
  return (request: IncomingMessage): string => {
    if (trustProxy) {
      const given = request.headers['x-request-id'];
      if (typeof given === 'string' && acceptableRequestId.test(given)) return given;
    }
    return randomUUID();
  };
}

/**
 * The id goes back to the client as the X-Request-Id header of every answer, and inside every error
 * body (`requestId`), so that a user's report of a failure leads to its log lines.
 */
export function answerWithRequestIds(app: FastifyInstance) {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('preSerialization', (request, reply, payload, done) => {
    if (reply.statusCode < 400 || payload === null || typeof payload !== 'object') return done(null, payload);
    if (!('code' in payload) || !('message' in payload) || 'requestId' in payload) return done(null, payload);
    done(null, { ...payload, requestId: request.id });
  });
}
