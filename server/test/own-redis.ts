import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './server-process';

/**
 * A Redis server of the test's own (Debian's redis-server, on a spare loopback port, keeping nothing on
 * disk), that the test may stop and start again: outages are tried on it, never on the machine's Redis.
 */
export async function startOwnRedis() {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    started.once('error', () => undefined);
    child = started;
    // Ready once it accepts a connection.
    for (let waited = 0; waited < 10_000; waited += 100) {
      const answered = await new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });
      if (answered) return;
      if (started.exitCode !== null) break;
      await sleep(100);
    }
    throw new Error(`redis-server did not start on port ${port} (is Debian's redis-server installed?)`);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, start, stop };
}
