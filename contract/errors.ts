import { z } from 'zod';

/** Every failed API call answers with this body (DESIGN.md §4). */
export const errorBodySchema = z.object({
  message: z.string(),
  code: z.string(),
  fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
  /** The request's id (also its X-Request-Id header and in its log lines): what a support report quotes. */
  requestId: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const errorCodes = {
  validation: 'VALIDATION_FAILED',
  invalidJson: 'INVALID_JSON',
  unauthenticated: 'UNAUTHENTICATED',
  forbidden: 'FORBIDDEN',
  notFound: 'NOT_FOUND',
  conflict: 'CONFLICT',
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  malformedRequest: 'MALFORMED_REQUEST',
  headersTooLarge: 'HEADERS_TOO_LARGE',
  uriTooLong: 'URI_TOO_LONG',
  foreignOrigin: 'FOREIGN_ORIGIN',
  rateLimited: 'RATE_LIMITED',
  insufficientFunds: 'INSUFFICIENT_FUNDS',
  idempotencyMismatch: 'IDEMPOTENCY_KEY_REUSED',
  unavailable: 'UNAVAILABLE',
  /** The session was ended elsewhere (another device, a password change): the web app says why. */
  sessionEnded: 'SESSION_ENDED',
  /** A money or account change needs a second factor given in the last minutes (POST /api/auth/step-up). */
  stepUpRequired: 'STEP_UP_REQUIRED',
  /** A wrong, used or expired authenticator code, recovery code or passkey assertion. */
  invalidSecondFactor: 'INVALID_SECOND_FACTOR',
  /** Operators must have two-factor sign-in before they use the console. */
  secondFactorRequired: 'SECOND_FACTOR_REQUIRED',
  internal: 'INTERNAL_ERROR',
} as const;
export type ErrorCode = (typeof errorCodes)[keyof typeof errorCodes];
