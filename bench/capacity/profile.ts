import fs from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { root } from '../processes';

/** A `.cpuprofile` as `node --cpu-prof` writes it (times in µs on the monotonic clock of process.hrtime). */
type CpuProfile = {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    hitCount?: number;
    children?: number[];
    positionTicks?: unknown;
  }>;
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
};

export type ProfileEntry = { name: string; where: string; selfMs: number; share: number };
export type WindowProfile = {
  /** Sampled time in the window, and how much of it the process was idle (waiting for I/O). */
  sampledMs: number;
  idleMs: number;
  top: ProfileEntry[];
  /**
   * The write syscalls (`writev`, native: no place of its own) by the package that wrote: pg (queries to
   * PostgreSQL), fastify (HTTP answers), engine.io (WebSocket frames)…, as shares of writev's self time.
   */
  writevBy: Array<{ writer: string; share: number }>;
  /** The profile cut to the window (nodes without a sample in it left out), for DevTools or speedscope. */
  profile: CpuProfile;
};

/**
 * The server's profile over one window: the whole run's profile cut to the samples taken between `fromUs`
 * and `toUs` (process.hrtime.bigint() / 1000 in any process of the machine: the same clock), with the
 * functions that took the most self time. The server is a bundle (dist/server.mjs): its functions are
 * named by their source file through the bundle's source map.
 */
export function profileWindow(file: string, fromUs: number, toUs: number, count = 15): WindowProfile {
  const whole = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(whole.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  const samples: number[] = [];
  const deltas: number[] = [];
  let time = whole.startTime;
  let previousKept = fromUs;
  for (let i = 0; i < whole.samples.length; i++) {
    time += whole.timeDeltas[i]!;
    if (time < fromUs || time > toUs) continue;
    // A sample stands for the time until the next one.
    const weight = whole.timeDeltas[i + 1] ?? 0;
    const id = whole.samples[i]!;
    selfUs.set(id, (selfUs.get(id) ?? 0) + weight);
    samples.push(id);
    deltas.push(time - previousKept);
    previousKept = time;
  }

  const sourceMap = bundleSourceMap();
  const byFunction = new Map<string, ProfileEntry>();
  let sampledUs = 0;
  let idleUs = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    sampledUs += us;
    if (frame.functionName === '(idle)') {
      idleUs += us;
      continue;
    }
    const where = locate(frame, sourceMap);
    const name = frame.functionName || '(anonymous)';
    const key = `${name} ${where}`;
    const entry = byFunction.get(key) ?? { name, where, selfMs: 0, share: 0 };
    entry.selfMs += us / 1000;
    byFunction.set(key, entry);
  }
  const busyMs = (sampledUs - idleUs) / 1000;
  const top = [...byFunction.values()]
    .sort((a, b) => b.selfMs - a.selfMs)
    .slice(0, count)
    .map((entry) => ({ ...entry, share: busyMs > 0 ? entry.selfMs / busyMs : 0 }));

  const parentOf = new Map<number, number>();
  for (const node of whole.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const writers = new Map<string, number>();
  let writevUs = 0;
  for (const [id, us] of selfUs) {
    if (byId.get(id)!.callFrame.functionName !== 'writev') continue;
    writevUs += us;
    let writer = '(other)';
    for (let at = parentOf.get(id); at !== undefined; at = parentOf.get(at)) {
      const url = byId.get(at)!.callFrame.url;
      const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
      if (pkg) {
        writer = pkg;
        break;
      }
    }
    writers.set(writer, (writers.get(writer) ?? 0) + us);
  }
  const writevBy = [...writers]
    .map(([writer, us]) => ({ writer, share: us / writevUs }))
    .sort((a, b) => b.share - a.share);

  // Keep the nodes on the path to a sampled one.
  const kept = new Set<number>();
  for (const id of new Set(samples)) {
    for (let at: number | undefined = id; at !== undefined && !kept.has(at); at = parentOf.get(at))
      kept.add(at);
  }
  const hits = new Map<number, number>();
  for (const id of samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const profile: CpuProfile = {
    nodes: whole.nodes
      .filter((node) => kept.has(node.id))
      .map(({ positionTicks: _wholeRun, ...node }) => ({
        ...node,
        hitCount: hits.get(node.id) ?? 0,
        children: (node.children ?? []).filter((child) => kept.has(child)),
      })),
    startTime: fromUs,
    endTime: toUs,
    samples,
    timeDeltas: deltas,
  };
  return { sampledMs: sampledUs / 1000, idleMs: idleUs / 1000, top, writevBy, profile };
}

function bundleSourceMap(): SourceMap | undefined {
  const file = path.join(root, 'dist', 'server.mjs.map');
  return fs.existsSync(file) ? new SourceMap(JSON.parse(fs.readFileSync(file, 'utf8'))) : undefined;
}

/** file:line of a frame: the original source for the bundle's code, the package's file for the rest. */
function locate(frame: CpuProfile['nodes'][number]['callFrame'], sourceMap: SourceMap | undefined): string {
  if (!frame.url) return '';
  if (frame.url.endsWith('/dist/server.mjs') && sourceMap) {
    const entry = sourceMap.findEntry(frame.lineNumber, frame.columnNumber) as {
      originalSource?: string;
      originalLine?: number;
    };
    if (entry.originalSource) {
      return `${entry.originalSource.replace(/^(\.\.\/)+/, '')}:${entry.originalLine! + 1}`;
    }
  }
  const file = frame.url.replace(/^file:\/\//, '');
  const shown = file.includes('/node_modules/') ? file.slice(file.lastIndexOf('/node_modules/') + 1) : file;
  return `${shown.replace(`${root}/`, '')}:${frame.lineNumber + 1}`;
}
