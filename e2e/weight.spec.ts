import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './support/fixtures';

// The web app stays light: the landing page and the Deals page download at most their budgets of
// JavaScript (the build the journeys run on is the one measured), and what the server sends is
// compressed and cached as it should be.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

test('the landing and Deals pages stay within their JavaScript budgets', () => {
  const check = spawnSync(process.execPath, [path.join(root, 'scripts', 'bundle-size.mjs')], {
    cwd: root,
    encoding: 'utf8',
  });
  console.log(check.stdout.trim());
  expect(check.stderr).toBe('');
  expect(check.status).toBe(0);
  expect(check.stdout).toMatch(/^ok {3}\/ {7}initial JS/m);
  expect(check.stdout).toMatch(/^ok {3}\/deals {2}initial JS/m);
});

test('the landing page loads its scripts compressed and cacheable, and no other page’s code', async ({
  page,
}) => {
  const scripts: Array<{ url: string; encoding?: string; cache?: string; bytes: number }> = [];
  page.on('response', async (response) => {
    if (!response.url().endsWith('.js')) return;
    const headers = await response.allHeaders();
    scripts.push({
      url: response.url(),
      encoding: headers['content-encoding'],
      cache: headers['cache-control'],
      bytes: (await response.body()).length,
    });
  });
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Browse Deals' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.length).toBeGreaterThan(0);
  for (const script of scripts) {
    // The build compresses files of 1 KB and more.
    if (script.bytes >= 1024) expect(script.encoding, script.url).toBe('br');
    expect(script.cache, script.url).toBe('public, max-age=31536000, immutable');
  }
  // Signed out: no realtime connection, no deal page, no zod.
  expect(scripts.map((s) => s.url).join(' ')).not.toMatch(/socket-|deals-page-|zod-/);
});
