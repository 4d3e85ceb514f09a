#!/usr/bin/env node
/**
 * The server's import graph, measured and checked (docs/architecture.md, Floors).
 *
 *   node scripts/import-graph.mjs           prints the figures
 *   node scripts/import-graph.mjs --check   also fails (exit 1) on a circle, a two-way tie between
 *                                           folders, an import that runs up the floors, or a
 *                                           repository reached from outside its own folder
 *
 * Every import counts, type-only ones included: a type import ties two floors as surely as a value
 * import does. Tests and test helpers are left out (they may reach anything). The imports are read
 * as text: the code is formatted by Biome, so every import ends in `from '…'`, `import '…'` or
 * `import('…')`, and only relative paths are project files.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');

/**
 * The floors, lowest first: a file may import its own floor's folders (never both ways) and the floors
 * below, never a floor above. `server/` root files other than the leaves are the composition root.
 */
const floors = [
  ['contract'],
  ['paths', 'config'],
  ['db'],
  ['lib'],
  ['core/*'],
  ['features/*'],
  ['realtime'],
  ['composition root'],
  ['scripts'],
];

function* sourceFiles(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (['node_modules', 'migrations', 'test', 'ops'].includes(name)) continue;
      yield* sourceFiles(full);
    } else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) {
      yield full;
    }
  }
}

const importPatterns = [
  /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
  /\bimport\s*['"]([^'"]+)['"]/g,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
];

/** The project file a relative specifier names (with or without `.js`/`.ts`, or a folder's index). */
function resolve(fromFile, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(fromFile), specifier).replace(/\.(js|ts|tsx)$/, '');
  for (const candidate of [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`${path.relative(root, fromFile)}: cannot resolve '${specifier}'`);
}

/** The folder a file belongs to, as the floors name folders. */
function folderOf(file) {
  const relative = path.relative(root, file).split(path.sep);
  if (relative[0] === 'contract') return 'contract';
  const [, first, second] = relative;
  if (relative.length === 2) {
    const name = first.replace(/\.tsx?$/, '');
    return name === 'paths' || name === 'config' ? name : 'composition root';
  }
  if ((first === 'features' || first === 'core') && relative.length > 3) return `${first}/${second}`;
  return first;
}

function floorOf(folder) {
  const index = floors.findIndex((names) =>
    names.some((name) => (name.endsWith('/*') ? folder.startsWith(name.slice(0, -1)) : folder === name)),
  );
  if (index === -1) throw new Error(`folder ${folder} has no floor`);
  return index;
}

const files = [...sourceFiles(path.join(root, 'server')), ...sourceFiles(path.join(root, 'contract'))];
const edges = new Map(files.map((file) => [file, new Set()]));
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  for (const pattern of importPatterns) {
    for (const match of text.matchAll(pattern)) {
      const target = resolve(file, match[1]);
      if (target) edges.get(file).add(target);
    }
  }
}

// Circles: strongly connected components of more than one file (Tarjan).
function circles() {
  let index = 0;
  const stack = [];
  const state = new Map();
  const found = [];
  const visit = (file) => {
    const entry = { index, low: index, onStack: true };
    index += 1;
    state.set(file, entry);
    stack.push(file);
    for (const next of edges.get(file) ?? []) {
      const seen = state.get(next);
      if (!seen) {
        visit(next);
        entry.low = Math.min(entry.low, state.get(next).low);
      } else if (seen.onStack) {
        entry.low = Math.min(entry.low, seen.index);
      }
    }
    if (entry.low === entry.index) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        state.get(member).onStack = false;
        component.push(member);
      } while (member !== file);
      if (component.length > 1) found.push(component);
    }
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return found;
}

const folderEdges = new Map();
const upward = [];
const repositoryReaches = [];
let importCount = 0;
for (const [file, targets] of edges) {
  const from = folderOf(file);
  for (const target of targets) {
    importCount += 1;
    const to = folderOf(target);
    const line = `${path.relative(root, file)} → ${path.relative(root, target)}`;
    if (/\.repository\.ts$/.test(target) && path.dirname(target) !== path.dirname(file)) {
      repositoryReaches.push(line);
    }
    if (from === to) continue;
    const key = `${from} → ${to}`;
    folderEdges.set(key, [...(folderEdges.get(key) ?? []), line]);
    if (floorOf(from) < floorOf(to)) upward.push(line);
  }
}
const ties = [...folderEdges.keys()]
  .map((key) => key.split(' → '))
  .filter(([from, to]) => from < to && folderEdges.has(`${to} → ${from}`))
  .map(([a, b]) => ({
    pair: `${a} ⇄ ${b}`,
    lines: [...folderEdges.get(`${a} → ${b}`), ...folderEdges.get(`${b} → ${a}`)],
  }));
const loops = circles();

console.log(`files: ${files.length}`);
console.log(`imports: ${importCount}`);
console.log(`folders: ${new Set(files.map(folderOf)).size}`);
console.log(`circles: ${loops.length}`);
for (const loop of loops) console.log(`  ${loop.map((file) => path.relative(root, file)).join(' → ')}`);
console.log(`two-way ties between folders: ${ties.length}`);
for (const tie of ties) {
  console.log(`  ${tie.pair}`);
  for (const line of tie.lines) console.log(`    ${line}`);
}
console.log(`imports up the floors: ${upward.length}`);
for (const line of upward) console.log(`  ${line}`);
console.log(`repositories reached from another folder: ${repositoryReaches.length}`);
for (const line of repositoryReaches) console.log(`  ${line}`);

if (check && loops.length + ties.length + upward.length + repositoryReaches.length > 0) {
  console.error('The import graph breaks the floors (docs/architecture.md, Floors).');
  process.exit(1);
}
