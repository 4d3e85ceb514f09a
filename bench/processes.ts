import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitForHealth } from '../server/test/server-process';

export { freePort } from '../server/test/server-process';

/** Processes the benchmarks start: the built server (as `npm start` runs it) and yardsticks. */

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Starts a process; resolves once its output satisfies `ready` (at once without one). */
export function start(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready?: (output: string) => boolean,
) {
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise<ChildProcess>((resolve, reject) => {
    if (!ready) resolve(child);
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      if (ready?.(output)) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) =>
      reject(new Error(`${command} ${args.join(' ')} exited (${code}):\n${output}`)),
    );
  });
}

export async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * The built server (`dist/server.mjs`, built first when missing) with the Node flags of `npm start`, in
 * its own process; resolves once it answers /api/health on `env.PORT`.
 */
export async function startBuiltServer(env: NodeJS.ProcessEnv, extraNodeFlags: string[] = []) {
  const { serverBundle, serverNodeFlags } = await import('../scripts/server-command.mjs');
  if (!fs.existsSync(serverBundle)) {
    execFileSync(process.execPath, [path.join(root, 'scripts', 'start.mjs'), '--build-only'], {
      stdio: 'inherit',
    });
  }
  const server = await start(process.execPath, [...serverNodeFlags, ...extraNodeFlags, serverBundle], env);
  try {
    await waitForHealth(`http://127.0.0.1:${env.PORT}`);
  } catch (error) {
    await stop(server);
    throw error;
  }
  return server;
}

/** CPU ticks (user + system) a process has used, from /proc. */
export function cpuTicks(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** Waits until the server process uses under 5% of a core over half a second (at most 15 s). */
export async function waitIdle(pid: number) {
  for (let i = 0; i < 30; i++) {
    const before = cpuTicks(pid);
    await new Promise((resolve) => setTimeout(resolve, 500));
    // 100 ticks per second: 2.5 ticks in half a second is 5% of a core.
    if (cpuTicks(pid) - before <= 2) return;
  }
}
