#!/usr/bin/env node
// The web app's weight: the JavaScript a browser must download before the landing page (/) and the Deals
// page (/deals) can show, gzipped, against the budgets below. Run after `vite build` by `npm run build`,
// and by the browser journeys (e2e/weight.spec.ts), which build first: a heavier app fails both.
// `node scripts/bundle-size.mjs` prints the sizes and exits 1 above a budget.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const webDist = path.join(root, 'web', 'dist');

/** Gzipped budgets in KB (1 KB = 1024 bytes), per route: the entry chunk, the page's chunk and what they import. */
export const budgets = [
  { route: '/', page: 'app/pages/landing-page.tsx', maxKb: 150 },
  { route: '/deals', page: 'app/pages/deals-page.tsx', maxKb: 160 },
];

function readManifest(dist) {
  const file = path.join(dist, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: build the web app first (npm run build).`);
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The chunks loaded with `keys` before anything runs: them and their static imports, transitively. */
function staticClosure(manifest, keys) {
  const seen = new Set();
  const stack = [...keys];
  while (stack.length > 0) {
    const key = stack.pop();
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    stack.push(...(manifest[key].imports ?? []));
  }
  return [...seen].map((key) => manifest[key].file).filter((file) => file.endsWith('.js'));
}

const gzippedSize = (file) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

/** Each budgeted route's initial JavaScript: its files, raw and gzipped bytes. */
export function measureRoutes(dist = webDist) {
  const manifest = readManifest(dist);
  const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
  if (!entry) throw new Error('The manifest names no entry chunk.');
  return budgets.map((budget) => {
    // Before code splitting a page lives in the entry chunk and has no manifest entry of its own.
    const files = staticClosure(manifest, manifest[budget.page] ? [entry, budget.page] : [entry]);
    const full = files.map((file) => path.join(dist, file));
    const raw = full.reduce((sum, file) => sum + fs.statSync(file).size, 0);
    const gzip = full.reduce((sum, file) => sum + gzippedSize(file), 0);
    return { ...budget, files, raw, gzip, ok: gzip <= budget.maxKb * 1024 };
  });
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const results = measureRoutes();
  for (const r of results) {
    console.log(
      `${r.ok ? 'ok  ' : 'OVER'} ${r.route.padEnd(7)} initial JS ${kb(r.gzip)} gzipped (budget ${r.maxKb} KB), ` +
        `${kb(r.raw)} raw, ${r.files.length} files`,
    );
  }
  if (results.some((r) => !r.ok)) {
    console.error('The web app is heavier than its budget: split the route or drop a dependency.');
    process.exit(1);
  }
}
