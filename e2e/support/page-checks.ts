import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

const require = createRequire(import.meta.url);
// axe-core's own source, evaluated in the page: nothing is fetched from the network.
const axeSource = require('node:fs').readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8') as string;

/** Opens a route and waits until it has loaded what it shows (no request in flight, no loading text). */
export async function openSettled(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  await expect(page.getByText(/^Loading\b/)).toHaveCount(0, { timeout: 10_000 });
}

export type AxeFinding = { id: string; impact: string; help: string; nodes: string[] };

/** The serious and critical WCAG 2.1 A/AA violations axe-core finds on the page as it is now. */
export async function seriousAxeViolations(page: Page): Promise<AxeFinding[]> {
  // A dialog fading in would be measured half transparent: check what a person sees once it is in.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: any }).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    return result.violations
      .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
      .map((v: any) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.slice(0, 5).map((n: any) => n.target.join(' ')),
      }));
  });
}

/** How much wider than the window the page is (0 when it fits), and the widest elements sticking out. */
export async function horizontalOverflow(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const culprits = [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > width + 0.5)
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${String(element.className).slice(0, 60)}`);
    return { overflow: document.documentElement.scrollWidth - width, culprits };
  });
}

/** Visible buttons and tabs smaller than a finger's 40 px target (height or width). */
export async function smallTouchTargets(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('button, [role="tab"], a[class*="h-"]')]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && (box.height < 39.5 || box.width < 39.5);
      })
      .slice(0, 5)
      .map(
        (element) => `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 30)}"`,
      ),
  );
}
