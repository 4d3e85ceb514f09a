import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { type AxeFinding, openSettled, seriousAxeViolations } from './support/page-checks';
import { allRoutes, type RouteVisit } from './support/routes';

// axe-core on every route, signed out and signed in: no serious or critical WCAG 2.1 A/AA violation.

async function auditAll(page: Page, routes: RouteVisit[], who: string) {
  const report: Record<string, AxeFinding[]> = {};
  for (const route of routes) {
    await openSettled(page, route.path);
    report[`${who} ${route.name} (${route.path})`] = await seriousAxeViolations(page);
  }
  for (const [route, findings] of Object.entries(report)) {
    console.log(`axe ${route}: ${findings.reduce((n, f) => n + f.nodes.length, 0)} serious/critical`);
  }
  return report;
}

const noFindings = (report: Record<string, AxeFinding[]>) =>
  Object.fromEntries(Object.entries(report).filter(([, findings]) => findings.length > 0));

test('every route passes axe-core, signed out and signed in', async ({ page, alice, bob, carol, dave }) => {
  // Some 35 pages, each audited: about a minute alone, near three beside another journey on two cores.
  test.setTimeout(300_000);
  const routes = await allRoutes({ creator: alice, counterpart: bob, dealmaker: carol });
  const report = {
    ...(await auditAll(page, routes.signedOut, 'signed out')),
    ...(await auditAll(alice.page, routes.signedIn, 'signed in')),
    ...(await auditAll(dave.page, [routes.outsider], 'outsider')),
  };
  expect(noFindings(report)).toEqual({});
});

test('the confirmation, the receipt and the notifications panel pass axe-core too', async ({
  alice,
  bob,
  carol,
}) => {
  test.setTimeout(90_000);
  const routes = await allRoutes({ creator: alice, counterpart: bob, dealmaker: carol });
  const page = alice.page;
  await openSettled(page, '/deposit');
  await page
    .getByRole('listitem')
    .filter({ has: page.getByText(/^Balance: \$/) })
    .first()
    .getByRole('button')
    .click();
  await expect(page.getByRole('dialog', { name: 'Receipt' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const receipt = await seriousAxeViolations(page);
  await page.keyboard.press('Escape');

  await page.getByLabel('Amount ($)').first().fill('100');
  await page.getByRole('button', { name: 'Deposit', exact: true }).click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
  const confirmation = await seriousAxeViolations(page);
  await page.keyboard.press('Escape');

  await openSettled(page, routes.signedIn.find((route) => route.name === 'deal (participant)')!.path);
  await page.getByRole('button', { name: 'Take my half back' }).click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
  const escrowConfirmation = await seriousAxeViolations(page);
  await page.keyboard.press('Escape');

  // The bell's panel, with the notifications the deal's set-up brought (read and unread ones).
  await page
    .getByRole('banner')
    .getByRole('button', { name: /^Notifications, \d+ unread$/ })
    .click();
  const notifications = page.getByRole('dialog', { name: 'Notifications' });
  await expect(notifications.locator('[data-unread]').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  const notificationsPanel = await seriousAxeViolations(page);
  expect({ receipt, confirmation, escrowConfirmation, notificationsPanel }).toEqual({
    receipt: [],
    confirmation: [],
    escrowConfirmation: [],
    notificationsPanel: [],
  });
});
