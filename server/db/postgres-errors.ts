/** What an error from the driver says about the database: which PostgreSQL error it is, or that the server is out of reach. */

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

/** Network failures of the driver (the server is gone, restarting, or out of reach). */
const connectionErrorCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** SQLSTATEs of a server that is stopping, starting or full: 57P01–57P03 and class 08, too many connections. */
const unavailableSqlStates = /^(57P0[123]|08...|53300)$/;
const connectionLostMessages =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended|terminating connection/i;

/**
 * The database could not be reached or dropped the connection: not the request's fault and not a bug,
 * so the caller gets 503 UNAVAILABLE and may try again (money calls with the same Idempotency-Key).
 * A transaction cut off this way was rolled back by PostgreSQL, unless its COMMIT had gone through,
 * which the retry's idempotency key then finds.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 6; depth++) {
    const candidate = current as { code?: unknown; syscall?: unknown; message?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string') {
      if (connectionErrorCodes.has(candidate.code) || unavailableSqlStates.test(candidate.code)) return true;
      // The embedded server's Unix socket is missing while it restarts.
      if (candidate.code === 'ENOENT' && candidate.syscall === 'connect') return true;
    }
    if (typeof candidate.message === 'string' && connectionLostMessages.test(candidate.message)) return true;
    current = candidate.cause;
  }
  return false;
}
