import type { ErrorBody, ErrorCode } from '../../contract/errors';
import { errorCodes } from '../../contract/errors';

/** A failure the caller caused or may see; anything else becomes a logged 500. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly fieldErrors?: Record<string, string[]>,
    /** Headers the answer carries (e.g. Retry-After of a 429). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  toBody(): ErrorBody {
    return {
      message: this.message,
      code: this.code,
      ...(this.fieldErrors ? { fieldErrors: this.fieldErrors } : {}),
    };
  }
}

export const badRequest = (message: string, fieldErrors?: Record<string, string[]>) =>
  new AppError(400, errorCodes.validation, message, fieldErrors);
export const unauthenticated = (message = 'Please sign in to continue.') =>
  new AppError(401, errorCodes.unauthenticated, message);
export const forbidden = (message: string) => new AppError(403, errorCodes.forbidden, message);
export const notFound = (message: string) => new AppError(404, errorCodes.notFound, message);
export const conflict = (message: string, code: ErrorCode = errorCodes.conflict) =>
  new AppError(409, code, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, errorCodes.rateLimited, message, undefined, { 'retry-after': String(retryAfterSeconds) });

/** PostgreSQL's unique_violation, seen through either driver. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const cause = findPgError(error);
  return cause?.code === '23505' && (!constraint || cause.constraint === constraint);
}

export function isSerializationFailure(error: unknown): boolean {
  const code = findPgError(error)?.code;
  return code === '40001' || code === '40P01';
}

function findPgError(error: unknown): { code?: string; constraint?: string } | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: unknown; constraint?: string; cause?: unknown };
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) {
      return { code: candidate.code, constraint: candidate.constraint };
    }
    current = candidate.cause;
  }
  return undefined;
}
