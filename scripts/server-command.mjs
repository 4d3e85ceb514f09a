import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built server (esbuild bundle of server/ and contract/), which `npm start` runs. */
export const serverBundle = path.join(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'),
  'dist',
  'server.mjs',
);

/**
 * Node's flags for the server, the same for `npm start` and the benchmarks: a young generation of
 * 8 MiB semi-spaces instead of 16 keeps the process's peak RSS under load ~20 MiB lower (answers are
 * short-lived), for scavenges that stay cheap.
 */
export const serverNodeFlags = ['--max-semi-space-size=8'];
