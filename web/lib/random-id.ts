/**
 * A fresh random id (idempotency keys, the client id of a message being sent): crypto.randomUUID
 * where the page may use it (secure contexts), else 128 random bits in hex. Either fits the server's
 * 1–64 letters, digits, dash or underscore.
 */
export function newRandomId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
