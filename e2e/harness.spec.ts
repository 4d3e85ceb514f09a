import { expect, test } from './support/fixtures';

// The harness itself: several verified users at once, each signed in in a browser context of their own.
test('each actor is a different signed-in user, in the API and in the app', async ({ alice, bob }) => {
  expect(alice.user.username).not.toBe(bob.user.username);
  for (const actor of [alice, bob]) {
    const cookies = await actor.context.cookies();
    expect(cookies.find((cookie) => cookie.name === 'auth_token')?.value).toBe(actor.token);
    const me = await actor.context.request.get('/api/auth/me');
    expect(me.status()).toBe(200);
    expect((await me.json()).username).toBe(actor.user.username);
  }
  await Promise.all([alice.page.goto('/'), bob.page.goto('/')]);
  await expect(alice.page.getByText(`Welcome, ${alice.user.username}`).first()).toBeVisible();
  await expect(bob.page.getByText(`Welcome, ${bob.user.username}`).first()).toBeVisible();
});

test('a visitor is signed out', async ({ page }) => {
  const me = await page.context().request.get('/api/auth/me');
  expect(me.status()).toBe(401);
});
