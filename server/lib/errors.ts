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

export const unavailable = (message = 'The service is briefly unavailable. Please try again in a moment.') =>
  new AppError(503, errorCodes.unavailable, message, undefined, { 'retry-after': '5' });
