import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { horizontalOverflow, openSettled, smallTouchTargets } from './support/page-checks';
import { allRoutes, type RouteVisit } from './support/routes';

// On a phone no page is wider than the screen, signed out and signed in, and buttons are big enough
// for a finger.

async function checkAll(page: Page, routes: RouteVisit[], who: string) {
  const problems: Record<string, unknown> = {};
  for (const route of routes) {
    await openSettled(page, route.path);
    const { overflow, culprits } = await horizontalOverflow(page);
    const small = await smallTouchTargets(page);
    if (overflow > 0) problems[`${who} ${route.name}: ${overflow}px too wide`] = culprits;
    if (small.length > 0) problems[`${who} ${route.name}: small touch targets`] = small;
  }
  return problems;
}

for (const width of [360, 390, 414]) {
  test(`every route fits a ${width} px wide phone`, async ({ page, alice, bob, carol, dave }) => {
    test.setTimeout(180_000);
    const routes = await allRoutes({ creator: alice, counterpart: bob, dealmaker: carol });
    const viewport = { width, height: 800 };
    for (const actor of [alice, dave]) await actor.page.setViewportSize(viewport);
    await page.setViewportSize(viewport);
    const problems = {
      ...(await checkAll(page, routes.signedOut, 'signed out')),
      ...(await checkAll(alice.page, routes.signedIn, 'signed in')),
      ...(await checkAll(dave.page, [routes.outsider], 'outsider')),
    };
    expect(problems).toEqual({});
  });
}
