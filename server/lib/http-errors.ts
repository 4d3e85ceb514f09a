import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { errorCodes } from '../../contract/errors';
import { AppError } from './errors';

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
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return reply.status(414).send({ message: 'The address is too long.', code: errorCodes.uriTooLong });
  }
  return reply
    .status(400)
    .send({ message: 'The address of the request is malformed.', code: errorCodes.malformedRequest });
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers too
 * large, a NUL byte, Content-Length together with chunked encoding): the
 * `clientErrorHandler` option. They get the same JSON errors as the rest.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket) {
  if (socket.destroyed || !socket.writable) return;
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
 * PostgreSQL text cannot hold NUL characters: any request carrying one in its
 * body, query or path is refused in one place instead of failing in the database.
 */
export function refuseNulCharacters(app: FastifyInstance) {
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.url.includes('%00') || containsNul(request.body) || containsNul(request.query)) {
      return done(new AppError(400, errorCodes.validation, 'Text may not contain NUL characters.'));
    }
    done();
  });
}

function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 20 || value === null || typeof value !== 'object') return false;
  if (Buffer.isBuffer(value)) return false;
  return Object.values(value).some((item) => containsNul(item, depth + 1));
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
