import { expect, test } from './support/fixtures';

test('the landing page loads at /', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(/Dealmaker/);
  await expect(page.getByRole('button', { name: 'Browse Deals' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Become a Dealmaker' })).toBeVisible();
});

test('an unknown path shows the 404 page', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go back home' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Browse deals' })).toBeVisible();
});
