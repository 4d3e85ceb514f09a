import fs from 'node:fs';
import { defineConfig } from '@playwright/test';

// Debian's Chromium (`apt-get install -y chromium`); Playwright's own browser downloads are never used.
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(executablePath)) {
  // Failing here (rather than skipping) keeps a machine without a browser from passing the suite.
  throw new Error(
    `Chromium was not found at ${executablePath}. Install it with \`apt-get install -y chromium\` ` +
      '(or set CHROMIUM_PATH to a Chromium binary).',
  );
}

/**
 * Browser journeys against one real server (started by support/global-setup.ts on a fresh
 * embedded database), several users at once, each in their own browser context.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: '.artifacts/test-results',
  globalSetup: './support/global-setup.ts',
  // Two cores: two journeys at a time share the one server.
  workers: 2,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  // Latency assertions (a message within 1 s) can miss on a loaded 2-core machine: CI retries a journey
  // once, and the run prints how many passed only on the retry ("flaky").
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: [['list'], ['json', { outputFile: '.artifacts/report.json' }]],
  projects: [
    { name: 'journeys', testIgnore: 'lighthouse.spec.ts' },
    // Lighthouse times the page's main-thread work: measured while a journey runs on the other worker, its
    // figures would be the machine's load as much as the app's. So it runs alone, once the journeys are
    // done (`npm run test:lighthouse` runs it without them), and never on a retry, which would hide a miss.
    { name: 'lighthouse', testMatch: 'lighthouse.spec.ts', retries: 0, dependencies: ['journeys'] },
  ],
  use: {
    // Set by global-setup before the workers start.
    baseURL: process.env.DEALMAKER_E2E_BASE_URL,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    // Recording a trace for every run slows the journeys it measures; record the retry only.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
