/** The embedded database could not be created or started; the message says why and what to do. */
export class EmbeddedPostgresError extends Error {}
