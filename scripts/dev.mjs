#!/usr/bin/env node
// `npm run dev`: the API server restarting on every server change, and the Vite dev server with hot
// reload for the web app (it forwards /api, /uploads and /socket.io to the API server). Ctrl-C stops both.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const apiPort = Number(process.env.PORT || 3000);
const webPort = Number(process.env.WEB_PORT || 5173);
const apiUrl = `http://127.0.0.1:${apiPort}`;
const webUrl = `http://localhost:${webPort}`;
const viteConfig = path.join('web', 'vite.config.ts');
const vite = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'vite.cmd' : 'vite');

if (!fs.existsSync(vite)) {
  console.error('Vite is not installed. Run `npm install` first.');
  process.exit(1);
}

const children = [];
let stopping = false;
let exitCode = 0;

function start(name, command, args, env) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  child.on('error', (error) => {
    console.error(`[dev] could not start the ${name}: ${error.message}`);
    stop(1);
  });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(
        `[dev] the ${name} stopped (${signal ?? `exit code ${code}`}); stopping the other one too.`,
      );
      stop(code || 1);
    }
    if (children.every((c) => c.exitCode !== null || c.signalCode !== null)) process.exit(exitCode);
  });
  children.push(child);
  return child;
}

function stop(code) {
  if (stopping) return;
  stopping = true;
  exitCode = code;
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  }
  // Should a child ignore SIGTERM, do not hang the terminal.
  setTimeout(() => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    process.exit(exitCode);
  }, 10_000).unref();
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
process.on('SIGHUP', () => stop(0));

// Mail links open through the dev server, which shows their pages and forwards their calls.
start(
  'API server',
  process.execPath,
  ['--import', 'tsx', '--watch', '--watch-preserve-output', path.join('server', 'index.ts')],
  { PORT: String(apiPort), PUBLIC_URL: process.env.PUBLIC_URL || webUrl },
);
start('Vite dev server', vite, ['--config', viteConfig, '--port', String(webPort), '--strictPort'], {
  API_TARGET: apiUrl,
});

console.log(
  [
    '',
    `  Web app (hot reload):      ${webUrl}`,
    `  API server (restarts):     ${apiUrl}   (API docs: ${apiUrl}/api/docs)`,
    '  Ctrl-C stops both.',
    '',
  ].join('\n'),
);
