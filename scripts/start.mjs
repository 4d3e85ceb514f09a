#!/usr/bin/env node
// `npm start`: builds the web app and the server bundle when missing or out of date, then runs the
// server from its bundle (plain JavaScript: no TypeScript loader in the running process).
// `node scripts/start.mjs --build-only` only builds (the browser tests use it).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverBundle, serverNodeFlags } from './server-command.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const viteConfig = path.join('web', 'vite.config.ts');
const builtIndex = path.join(root, 'web', 'dist', 'index.html');
// The web app imports the shared contract, so a change there makes the build stale too.
const sourceFolders = [path.join(root, 'web'), path.join(root, 'contract')];
const skippedFolders = new Set([path.join(root, 'web', 'dist'), path.join(root, 'web', 'node_modules')]);

/** The newest modification time of any file under the folders (0 when there is none). */
function newestMtime(folders) {
  let newest = 0;
  const stack = folders.filter((folder) => fs.existsSync(folder));
  while (stack.length > 0) {
    const folder = stack.pop();
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!skippedFolders.has(full)) stack.push(full);
      } else if (entry.isFile()) {
        newest = Math.max(newest, fs.statSync(full).mtimeMs);
      }
    }
  }
  return newest;
}

// The bundle holds the server and the contract; a changed package.json may mean other dependencies.
const serverSourceFolders = [path.join(root, 'server'), path.join(root, 'contract')];

function serverBuildIsStale() {
  if (!fs.existsSync(serverBundle)) return 'the server has not been built yet';
  const newest = Math.max(
    newestMtime(serverSourceFolders),
    fs.statSync(path.join(root, 'package.json')).mtimeMs,
  );
  if (newest > fs.statSync(serverBundle).mtimeMs) return 'the server changed since it was built';
  return null;
}

/** One ES module with our code; packages stay in node_modules, loaded from there as usual. */
async function buildServerIfNeeded() {
  const reason = serverBuildIsStale();
  if (!reason) return;
  console.log(`Building the server (${reason})…`);
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [path.join(root, 'server', 'index.ts')],
    outfile: serverBundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
}

function webBuildIsStale() {
  if (!fs.existsSync(builtIndex)) return 'the web app has not been built yet';
  if (newestMtime(sourceFolders) > fs.statSync(builtIndex).mtimeMs)
    return 'the web app changed since it was built';
  return null;
}

/** The child being waited for; signals received meanwhile are passed on to it. */
let current = null;
let receivedSignal = null;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    receivedSignal = signal;
    if (current && current.exitCode === null && current.signalCode === null) current.kill(signal);
    else process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
  });
}

/** Runs a command with inherited stdio and environment; resolves with how it ended. */
function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: process.env });
    current = child;
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      current = null;
      resolve({ code, signal });
    });
  });
}

/** Leaves the way the child left: same exit code, or 128 + signal number when a signal ended it. */
function exitLike({ code, signal }) {
  if (code !== null) process.exit(code);
  const numbers = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
  process.exit(128 + (numbers[signal] ?? 1));
}

async function buildWebAppIfNeeded() {
  const reason = webBuildIsStale();
  if (!reason) return;
  if (!fs.existsSync(path.join(root, viteConfig))) {
    console.warn(`Not building the web app: ${viteConfig} is missing. The API still starts.`);
    return;
  }
  console.log(`Building the web app (${reason})…`);
  const vite = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'vite.cmd' : 'vite');
  if (!fs.existsSync(vite)) {
    console.error('Vite is not installed. Run `npm install` first.');
    process.exit(1);
  }
  const result = await run(vite, ['build', '--config', viteConfig]);
  if (result.code !== 0) {
    if (!receivedSignal) console.error('Building the web app failed (see above).');
    exitLike(result);
  }
}

await buildWebAppIfNeeded();
await buildServerIfNeeded();
if (process.argv.includes('--build-only')) process.exit(0);
if (receivedSignal) process.exit(130);
exitLike(await run(process.execPath, [...serverNodeFlags, serverBundle]));
