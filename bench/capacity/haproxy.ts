import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from '../processes';

/**
 * HAProxy running the production configuration (deploy/haproxy.cfg) in front of two instances: its third
 * server lines are left out, everything else is as deployed (round robin for the API, leastconn and the
 * sticky cookie for Socket.IO). Resolves once HAProxy's checks see both instances UP. Its request log
 * (one line per request on stdout) goes nowhere.
 */
export async function startHaproxy(options: {
  instances: [string, string];
  port: number;
  statsPort: number;
  workDir: string;
  /** Connections at once, sockets included (deploy/haproxy.cfg defaults to 4,000). */
  maxconn: number;
}): Promise<ChildProcess> {
  const config = path.join(options.workDir, 'haproxy.cfg');
  const deployed = fs.readFileSync(path.join(root, 'deploy', 'haproxy.cfg'), 'utf8');
  fs.writeFileSync(
    config,
    deployed
      .split('\n')
      .filter((line) => !/^\s*server app3\b/.test(line))
      .join('\n'),
  );
  const env = {
    PATH: process.env.PATH,
    HAPROXY_BIND: `127.0.0.1:${options.port}`,
    HAPROXY_STATS_BIND: `127.0.0.1:${options.statsPort}`,
    HAPROXY_ADMIN_SOCKET: path.join(options.workDir, 'haproxy-admin.sock'),
    HAPROXY_USER: os.userInfo().username,
    HAPROXY_GROUP: execFileSync('id', ['-gn'], { encoding: 'utf8' }).trim(),
    HAPROXY_MAXCONN: String(options.maxconn),
    DEALMAKER_1: options.instances[0],
    DEALMAKER_2: options.instances[1],
  };
  execFileSync('haproxy', ['-c', '-q', '-f', config], { env, stdio: 'pipe' });
  const child = spawn('haproxy', ['-db', '-f', config], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-5_000);
  });
  const deadline = Date.now() + 20_000;
  while ((await upServers(options.statsPort)) < 2) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill();
      throw new Error(`HAProxy did not see both instances UP:\n${errors}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return child;
}

/** How many instances HAProxy's checks see UP in the API backend (its stats page as CSV). */
async function upServers(statsPort: number): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${statsPort}/stats;csv`).catch(() => undefined);
  if (!response?.ok) return 0;
  const [header, ...rows] = (await response.text()).trim().split('\n');
  const columns = header!.replace(/^# /, '').split(',');
  const column = (row: string[], name: string) => row[columns.indexOf(name)] ?? '';
  return rows
    .map((line) => line.split(','))
    .filter((row) => column(row, 'pxname') === 'dealmaker' && /^app\d$/.test(column(row, 'svname')))
    .filter((row) => column(row, 'status') === 'UP').length;
}
