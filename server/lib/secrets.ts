import { createHash, randomBytes } from 'node:crypto';

/** A URL-safe random token with 256 bits of entropy. */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** Tokens are stored only as their sha256, so a database leak reveals no usable link. */
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
