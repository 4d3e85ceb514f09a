import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { errorCodes } from '../../contract/errors';
import { isDatabaseUnavailable } from '../db/postgres-errors';
import { AppError, badRequest, unavailable } from './errors';

/** Fastify's own client errors, told in words a person understands. */
const fastifyClientErrors: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: errorCodes.invalidJson,
    message: 'Request body is not valid JSON.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: errorCodes.validation,
    message: 'Request body is missing.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: errorCodes.unsupportedMediaType,
    message: 'Unsupported content type.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: errorCodes.validation,
    message: 'Invalid content length.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: errorCodes.payloadTooLarge,
    message: 'Request body is too large.',
  },
  FST_REQ_FILE_TOO_LARGE: {
    status: 413,
    code: errorCodes.payloadTooLarge,
    message: 'File size should be less than 5MB',
  },
  FST_PARTS_LIMIT: {
    status: 413,
    code: errorCodes.payloadTooLarge,
    message: 'Too many parts in the upload.',
  },
  FST_FILES_LIMIT: { status: 413, code: errorCodes.payloadTooLarge, message: 'Upload one file at a time.' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: {
    status: 415,
    code: errorCodes.unsupportedMediaType,
    message: 'Expected a multipart/form-data upload.',
  },
};

/**
 * Errors Fastify meets before it has a route (a malformed percent-encoding, a
 * path parameter over the length limit): the `frameworkErrors` option.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // No route, so no hooks: the request's id goes on here (lib/request-ids.ts does it for the rest).
  reply.header('x-request-id', request.id);
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return reply
      .status(414)
      .send({ message: 'The address is too long.', code: errorCodes.uriTooLong, requestId: request.id });
  }
  return reply.status(400).send({
    message: 'The address of the request is malformed.',
    code: errorCodes.malformedRequest,
    requestId: request.id,
  });
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers too
 * large, a NUL byte, Content-Length together with chunked encoding), and
 * requests that did not arrive in time (headers or body trickling in): the
 * `clientErrorHandler` option. They get the same JSON errors as the rest when
 * the connection can still take an answer; else it is closed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket) {
  // An answer already on its way on this connection (a route answered before the body came): writing
  // another one into it would corrupt it.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.destroyed || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, body] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, { message: 'The request headers are too large.', code: errorCodes.headersTooLarge }]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, { message: 'The request took too long to arrive.', code: errorCodes.malformedRequest }]
        : [400, { message: 'The request is malformed.', code: errorCodes.malformedRequest }];
  const json = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
  );
}

/** One error model for the whole API (DESIGN.md §4): JSON with `message`, never HTML or a stack trace. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.statusCode).send(error.toBody());
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      // No body at all (no content type, or an empty one): say so rather than "expected object, received null".
      if (error.validationContext === 'body' && (request.body === undefined || request.body === null)) {
        return reply.status(400).send({ message: 'Request body is missing.', code: errorCodes.validation });
      }
      const fieldErrors: Record<string, string[]> = {};
      for (const issue of error.validation) {
        const field =
          issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext || 'body';
        fieldErrors[field] = [...(fieldErrors[field] ?? []), issue.message ?? 'Invalid value'];
      }
      const first = error.validation[0];
      const message = first
        ? describeIssue(first.instancePath, first.message ?? 'Invalid value', error.validationContext)
        : 'Invalid request.';
      return reply.status(400).send({ message, code: errorCodes.validation, fieldErrors });
    }
    const databaseRefusal = describeDatabaseInputError(error);
    if (databaseRefusal)
      return reply.status(400).send({ message: databaseRefusal, code: errorCodes.validation });
    const known = error.code ? fastifyClientErrors[error.code] : undefined;
    if (known) return reply.status(known.status).send({ message: known.message, code: known.code });
    if (error.statusCode === 429) {
      return reply
        .status(429)
        .send({ message: 'Too many requests. Please slow down.', code: errorCodes.rateLimited });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Some other refusal of the framework: its status, in our words rather than its internals.
      return reply.status(error.statusCode).send({
        message: STATUS_CODES[error.statusCode] ?? 'Bad request.',
        code: errorCodes.malformedRequest,
      });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      const refusal = unavailable();
      return reply
        .headers(refusal.headers ?? {})
        .status(503)
        .send(refusal.toBody());
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply
      .status(500)
      .send({ message: 'Something went wrong. Please try again.', code: errorCodes.internal });
  });
}

function describeIssue(path: string, message: string, context: string | undefined): string {
  // Zod's own default texts name the field; ours are already sentences.
  if (/^(Invalid input|Required)/i.test(message) || message.startsWith('Invalid input:')) {
    const field = path.replace(/^\//, '').replaceAll('/', '.');
    return field ? `${field}: ${message}` : `Invalid ${context ?? 'request'}: ${message}`;
  }
  return message;
}

/**
 * Text that is not well-formed — a NUL character (PostgreSQL text cannot hold one) or a lone UTF-16
 * surrogate (`"\ud800"` in JSON: no character at all, which UTF-8, the database and the audit log's
 * JSON cannot carry) — is refused in one place, for every route: in the body, the query and the path,
 * after the route's own schema (whose field messages come first) and before any work.
 */
export function refuseMalformedText(app: FastifyInstance) {
  app.addHook('preHandler', (request, _reply, done) => {
    const found =
      (request.url.includes('%00') ? { path: 'url', nul: true } : null) ??
      malformedTextIn(request.params, 'params') ??
      malformedTextIn(request.query, 'query') ??
      malformedTextIn(request.body, 'body');
    if (!found) return done();
    const message = found.nul
      ? 'Text may not contain NUL characters.'
      : 'Text contains malformed characters (a lone UTF-16 surrogate).';
    done(badRequest(message, { [found.path.slice(0, 200)]: [message] }));
  });
}

type MalformedText = { path: string; nul: boolean };

/** The first string (value or key) that is not well-formed text, with its path (`items.0.name`). */
function malformedTextIn(value: unknown, path: string, depth = 0): MalformedText | null {
  if (typeof value === 'string') return malformedString(value, path);
  if (depth > 20 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  const prefix = depth === 0 ? '' : `${path}.`;
  for (const [key, item] of Object.entries(value)) {
    const found =
      malformedString(key, `${prefix}${key}`) ?? malformedTextIn(item, `${prefix}${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/** A surrogate code point outside a pair: what `!text.isWellFormed()` says (ES2024, not in this project's lib yet). */
const loneSurrogate = /\p{Surrogate}/u;

function malformedString(text: string, path: string): MalformedText | null {
  if (text.includes('\u0000')) return { path, nul: true };
  if (loneSurrogate.test(text)) return { path, nul: false };
  return null;
}

/** Input the database refused (a number out of range, text it cannot store): the caller's mistake, so a 400. */
function describeDatabaseInputError(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (code === '22003') return 'A number in the request is out of range.';
    if (code === '22021' || code === '22P05') return 'Text contains characters that cannot be stored.';
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
