import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findFreePort, stopServer, waitForHealth } from './server-process';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const artifacts = path.join(root, 'e2e', '.artifacts');

/**
 * Builds the web app when it is missing or stale, then starts ONE real server on a fresh
 * embedded database in a temporary DATA_DIR and a free port. The journeys find it through
 * DEALMAKER_E2E_BASE_URL and DEALMAKER_E2E_DATA_DIR (the workers inherit them).
 * Returns the teardown, which stops the server and removes the data.
 */
export default async function globalSetup() {
  const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'start.mjs'), '--build-only'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('Building the web app failed (see above).');
  if (!fs.existsSync(path.join(root, 'web', 'dist', 'index.html'))) {
    throw new Error('The web app was not built (web/dist/index.html is missing).');
  }

  const port = process.env.E2E_PORT
    ? Number(process.env.E2E_PORT)
    : await findFreePort(3300, 3399, ' Set E2E_PORT to choose one.');
  // localhost, not 127.0.0.1: passkeys (WebAuthn) need a relying-party id that is a domain, and the server
  // takes it from PUBLIC_URL's host; the browser must be on the same origin. It still listens on 127.0.0.1.
  const baseUrl = `http://localhost:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dealmaker-e2e-'));
  fs.mkdirSync(artifacts, { recursive: true });
  const logFile = path.join(artifacts, 'server.log');
  const log = fs.openSync(logFile, 'w');

  // Only what this server needs: a shared database, Redis or SMTP from the caller's shell must not leak in.
  const {
    DATABASE_URL: _database,
    REDIS_URL: _redis,
    SMTP_URL: _smtp,
    JWT_SECRET: _secret,
    CORS_ORIGINS: _cors,
    ...inherited
  } = process.env;
  const server = spawn(process.execPath, ['--import', 'tsx', path.join('server', 'index.ts')], {
    cwd: root,
    env: {
      ...inherited,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      // Lets support/users.ts register each test user from its own address (see distinctAddress).
      TRUST_PROXY: 'true',
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'info',
      // A submitted milestone is released by itself after 21.6 s instead of 14 days, so that
      // milestones.spec.ts watches it happen; long enough for two dealers to approve one first.
      MILESTONE_AUTO_RELEASE_HOURS: '0.006',
    },
    stdio: ['ignore', log, log],
  });

  try {
    await waitForHealth(server, baseUrl, logFile);
  } catch (error) {
    await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  process.env.DEALMAKER_E2E_BASE_URL = baseUrl;
  process.env.DEALMAKER_E2E_DATA_DIR = dataDir;
  console.log(`[e2e] server at ${baseUrl}, data in ${dataDir}, log in ${path.relative(root, logFile)}`);

  return async () => {
    await stopServer(server);
    fs.closeSync(log);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
