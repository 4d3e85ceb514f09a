import fs from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { confirmation } from './support/confirm';
import { deposit, walletOf } from './support/deals';
import { expect, readLastMail, test } from './support/fixtures';
import { seriousAxeViolations } from './support/page-checks';
import {
  addVirtualAuthenticator,
  ageSessions,
  authenticatorApp,
  turnOnAuthenticatorApp,
} from './support/security';
import type { TestUser } from './support/users';

// An account protected like a bank's: an authenticator app or a passkey as a second factor, sessions that
// can be seen and ended from elsewhere, and a fresh second factor before money leaves — each as a person
// does it in the browser.

const authDialog = (page: Page) => page.getByRole('dialog', { name: 'Welcome to Dealmaker' });
const banner = (page: Page) => page.getByRole('banner');
const security = (page: Page) =>
  page.getByRole('main').getByRole('region', { name: 'Security', exact: true });
const securityCard = (page: Page, name: string) => security(page).getByRole('region', { name, exact: true });

async function logout(page: Page) {
  await banner(page).getByRole('button', { name: 'Logout' }).click();
  await expect(banner(page).getByRole('button', { name: 'Login / Register' })).toBeVisible();
}

/** The login dialog with username and password given: the second step (or the signed-in page) follows. */
async function enterPassword(page: Page, user: TestUser) {
  await banner(page).getByRole('button', { name: 'Login / Register' }).click();
  const dialog = authDialog(page);
  await dialog.getByLabel('Username').fill(user.username);
  await dialog.getByLabel('Password', { exact: true }).fill(user.password);
  await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
  return dialog;
}

async function expectSignedInAs(page: Page, user: TestUser) {
  await expect(authDialog(page)).toBeHidden();
  await expect(banner(page).getByText(`Welcome, ${user.username}`)).toBeVisible();
}

const recoveryCodesIn = (card: Locator) =>
  card.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');

test('turns on the authenticator app from My Profile, then signs in with a code and with a recovery code', async ({
  newActor,
}) => {
  test.slow();
  const tina = await newActor('tina');
  const { page } = tina;

  // The mails link to /profile#security.
  await page.goto('/profile#security');
  const app = securityCard(page, 'Authenticator app');
  await expect(app.getByText('Off', { exact: true })).toBeVisible();
  await app.getByRole('button', { name: 'Turn on' }).click();

  // A QR code, and the key to type by hand, from which this test's "phone" computes its codes.
  await expect(
    app.getByRole('img', { name: 'QR code that adds Dealmaker to your authenticator app' }),
  ).toBeVisible();
  const phone = authenticatorApp((await app.locator('code').textContent()) ?? '');
  expect(await seriousAxeViolations(page)).toEqual([]);
  await app.getByLabel('Authentication code').fill('000000');
  await app.getByRole('button', { name: 'Confirm and turn on' }).click();
  await expect(app.getByRole('alert')).toContainText('That code did not turn the app on.');
  await app.getByLabel('Authentication code').fill(await phone.nextCode());
  await app.getByRole('button', { name: 'Confirm and turn on' }).click();

  // Ten recovery codes, shown once: copied, downloaded as a text file.
  await expect(recoveryCodesIn(app)).toHaveCount(10);
  const recoveryCodes = await recoveryCodesIn(app).allTextContents();
  await expect(app.getByText('Save them now: they are shown only once.')).toBeVisible();
  expect(await seriousAxeViolations(page)).toEqual([]);
  await tina.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await app.getByRole('button', { name: 'Copy codes' }).click();
  await expect(app.getByText('The recovery codes are copied.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(recoveryCodes.join('\n'));
  const downloading = page.waitForEvent('download');
  await app.getByRole('button', { name: 'Download codes' }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toBe(`dealmaker-recovery-codes-${tina.user.username}.txt`);
  const text = await fs.readFile(await file.path(), 'utf8');
  for (const code of recoveryCodes) expect(text).toContain(`\n${code}\n`);
  await app.getByRole('button', { name: 'Done' }).click();
  await expect(app.getByText('On', { exact: true })).toBeVisible();
  await expect(app.getByText(/Recovery codes left:\s*10/)).toBeVisible();

  // The password alone no longer signs in: the dialog asks for a code, says a wrong one in place.
  await logout(page);
  const dialog = await enterPassword(page, tina.user);
  await expect(dialog.getByText('Two-factor authentication')).toBeVisible();
  const code = dialog.getByLabel('Authentication code');
  await expect(code).toBeFocused();
  await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
  expect(await seriousAxeViolations(page)).toEqual([]);
  await code.fill('000000');
  await dialog.getByRole('button', { name: 'Verify' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'That code is not right. Please try the current code from your authenticator app.',
  );
  await code.fill(await phone.nextCode());
  await dialog.getByRole('button', { name: 'Verify' }).click();
  await expectSignedInAs(page, tina.user);

  // A recovery code instead of the app's code; it works once.
  await logout(page);
  await enterPassword(page, tina.user);
  await dialog.getByRole('button', { name: 'Use a recovery code' }).click();
  await dialog.getByLabel('Recovery code').fill(recoveryCodes[0]!);
  await dialog.getByRole('button', { name: 'Verify' }).click();
  await expectSignedInAs(page, tina.user);
  await page.goto('/profile');
  await expect(securityCard(page, 'Authenticator app').getByText(/Recovery codes left:\s*9/)).toBeVisible();
});

test('adds a passkey in My Profile, then signs in with it alone and as the second factor', async ({
  newActor,
}) => {
  test.slow();
  const pia = await newActor('pia');
  const { page } = pia;
  const authenticator = await addVirtualAuthenticator(page);

  await page.goto('/profile');
  const passkeys = securityCard(page, 'Passkeys');
  await expect(passkeys.getByText('You have no passkeys yet.')).toBeVisible();
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  await passkeys.getByLabel('Name (optional)').fill('Work laptop');
  await passkeys.getByRole('button', { name: 'Add passkey' }).click();
  await expect(passkeys.getByText('Passkey “Work laptop” added.')).toBeVisible();
  expect(await authenticator.passkeyCount()).toBe(1);
  // The account's first second factor comes with recovery codes.
  await expect(recoveryCodesIn(passkeys)).toHaveCount(10);
  await passkeys.getByRole('button', { name: 'Done' }).click();

  const list = passkeys.getByRole('list', { name: 'Your passkeys' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list).toContainText('Never used');
  await list.getByRole('button', { name: 'Rename Work laptop' }).click();
  await passkeys.getByLabel('Passkey name').fill('My laptop');
  await passkeys.getByRole('button', { name: 'Save name' }).click();
  await expect(list.getByRole('button', { name: 'Rename My laptop' })).toBeVisible();
  await expect(list.getByRole('listitem')).toContainText('My laptop');

  // Signed out, the passkey alone signs in: no username, no password.
  await logout(page);
  await banner(page).getByRole('button', { name: 'Login / Register' }).click();
  await authDialog(page).getByRole('button', { name: 'Continue with a passkey' }).click();
  await expectSignedInAs(page, pia.user);
  await page.goto('/profile');
  await expect(securityCard(page, 'Passkeys').getByRole('list', { name: 'Your passkeys' })).toContainText(
    'Last used',
  );

  // The password now needs the second step, which the passkey answers.
  await logout(page);
  const dialog = await enterPassword(page, pia.user);
  await expect(dialog.getByText('Two-factor authentication')).toBeVisible();
  await dialog.getByRole('button', { name: 'Use a passkey' }).click();
  await expectSignedInAs(page, pia.user);
});

test('ends another browser’s session from the sessions list; that browser is signed out and told why', async ({
  newActor,
  browser,
  baseURL,
}) => {
  test.slow();
  const sam = await newActor('sam');
  // The same account in another browser (another kind of browser, to tell the sessions apart).
  const elsewhere = await browser.newContext({
    baseURL,
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0',
  });
  try {
    const other = await elsewhere.newPage();
    await other.goto('/');
    await enterPassword(other, sam.user);
    await expectSignedInAs(other, sam.user);
    await other.goto('/deals');
    await expect(other.getByRole('heading', { name: 'Deals', level: 1 })).toBeVisible();

    await sam.page.goto('/profile');
    const sessions = securityCard(sam.page, 'Sessions');
    const rows = sessions.getByRole('list', { name: 'Your sessions' }).getByRole('listitem');
    await expect(rows.filter({ hasText: 'This device' })).toHaveCount(1);
    const firefox = rows.filter({ hasText: 'Firefox on Windows' });
    await expect(firefox).toHaveCount(1);
    await expect(firefox.getByRole('button', { name: /^End session/ })).toBeVisible();
    await expect(rows.filter({ hasText: 'This device' }).getByRole('button')).toHaveCount(0);
    await firefox.getByRole('button', { name: /^End session/ }).click();
    await expect(sessions.getByText('The session was ended.')).toBeVisible();
    await expect(firefox).toHaveCount(0);

    // The other browser learns it with its next request (or sooner, from its live connection): it is
    // signed out, and the login dialog says why.
    const told = authDialog(other).getByText(
      'You were signed out because this session was ended from another device.',
    );
    if (!(await told.isVisible())) {
      await other.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Deposit' }).click();
    }
    await expect(told).toBeVisible();
    expect((await elsewhere.cookies()).find((cookie) => cookie.name === 'auth_token')).toBeUndefined();
    await other.keyboard.press('Escape');
    await expect(banner(other).getByRole('button', { name: 'Login / Register' })).toBeVisible();

    // This browser stays signed in; the rest of the sessions end in one go.
    await expect(banner(sam.page).getByText(`Welcome, ${sam.user.username}`)).toBeVisible();
    await sessions.getByRole('button', { name: 'Sign out all other sessions' }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows).toContainText('This device');
  } finally {
    await elsewhere.close();
  }
});

test('a withdrawal from a session whose factor is old asks for a code first, then goes through', async ({
  newActor,
}) => {
  test.slow();
  const wes = await newActor('wes');
  const { app } = await turnOnAuthenticatorApp(wes);
  await deposit(wes, 100);
  // Ten minutes after the last factor: money may leave only after a new one.
  await ageSessions(wes);

  const { page } = wes;
  await page.goto('/deposit');
  const withdrawForm = page
    .locator('form')
    .filter({ has: page.getByRole('button', { name: /^(Withdraw|Processing\.\.\.)$/ }) });
  await withdrawForm.getByLabel('Amount ($)').fill('40');
  await withdrawForm.getByRole('button', { name: 'Withdraw', exact: true }).click();
  await confirmation(page).getByRole('button', { name: 'Withdraw' }).click();

  const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(stepUp).toBeVisible();
  await expect(stepUp.getByLabel('Authentication code')).toBeFocused();
  expect((await walletOf(wes)).balance).toBe(100);
  expect(await seriousAxeViolations(page)).toEqual([]);
  await stepUp.getByLabel('Authentication code').fill(await app.nextCode());
  await stepUp.getByRole('button', { name: 'Confirm' }).click();

  // The withdrawal the person asked for goes through, without asking again.
  await expect(stepUp).toBeHidden();
  await expect(page.getByText('Successfully withdrew $40.00')).toBeVisible();
  expect((await walletOf(wes)).balance).toBe(60);

  // Fresh for ten minutes now: the next one asks nothing more.
  await withdrawForm.getByLabel('Amount ($)').fill('10');
  await withdrawForm.getByRole('button', { name: 'Withdraw', exact: true }).click();
  await confirmation(page).getByRole('button', { name: 'Withdraw' }).click();
  await expect(page.getByText('Successfully withdrew $10.00')).toBeVisible();
  await expect(stepUp).toBeHidden();
  expect((await walletOf(wes)).balance).toBe(50);
});

test('changes the password and the email from My Profile (the new address confirmed by its link)', async ({
  newActor,
  request,
}) => {
  const eve = await newActor('eve');
  const { page } = eve;
  await page.goto('/profile');

  const password = securityCard(page, 'Password');
  await password.getByLabel('Current password').fill(eve.user.password);
  await password.getByLabel('New password', { exact: true }).fill('an even better password');
  await password.getByLabel('Confirm new password').fill('an even better password');
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByRole('status')).toContainText('Your password has been changed.');
  const signedIn = await request.post('/api/auth/login', {
    data: { username: eve.user.username, password: 'an even better password' },
  });
  expect(signedIn.ok()).toBe(true);

  const newEmail = `new-${eve.user.email}`;
  const email = securityCard(page, 'Email');
  await email.getByLabel('New email').fill(newEmail);
  await email.getByLabel('Password', { exact: true }).fill('an even better password');
  await email.getByRole('button', { name: 'Change email' }).click();
  await expect(email.getByRole('status')).toContainText(`We sent a link to ${newEmail}.`);

  const mail = await readLastMail(newEmail);
  expect(mail.link).toMatch(/\/confirm-email\/[^/]+$/);
  await page.goto(mail.link);
  await expect(page.getByRole('heading', { name: 'Confirm your new email' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText(`Your email address is now ${newEmail}.`);
  await page.getByRole('link', { name: 'Go to My Profile' }).click();
  await expect(page.getByRole('main').locator('dt:text-is("Email") + dd')).toHaveText(newEmail);
});
