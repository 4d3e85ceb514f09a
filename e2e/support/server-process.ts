import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

/** A server process of the journeys (the shared one of global-setup, or a journey's own): start-up and stop. */

/** The first port of the range nobody listens on (starting at a random place, so parallel runs rarely collide). */
export async function findFreePort(from: number, to: number, hint = ''): Promise<number> {
  const size = to - from + 1;
  const offset = Math.floor(Math.random() * size);
  for (let i = 0; i < size; i++) {
    const port = from + ((offset + i) % size);
    if (await isFree(port)) return port;
  }
  throw new Error(`No free port between ${from} and ${to}.${hint}`);
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** Resolves once the server answers /api/health; throws with its log's tail if it exits or takes over 60 s. */
export async function waitForHealth(server: ChildProcess, baseUrl: string, logFile: string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new Error(`The server exited during start-up:\n${tail(logFile)}`);
    }
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The server did not answer ${baseUrl}/api/health within 60 s:\n${tail(logFile)}`);
}

/** SIGTERM, then SIGKILL after 15 s; resolves once the process has exited. */
export async function stopServer(server: ChildProcess) {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  const timer = setTimeout(() => server.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

function tail(file: string): string {
  return fs.readFileSync(file, 'utf8').split('\n').slice(-30).join('\n');
}
