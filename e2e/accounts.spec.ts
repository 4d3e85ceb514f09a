import fs from 'node:fs/promises';
import zlib from 'node:zlib';
import type { Locator, Page } from '@playwright/test';
import { createVerifiedUser, expect, login, readLastMail, test, uniqueUsername } from './support/fixtures';

/** A small, valid RGB PNG (a diagonal gradient), so the server's image pipeline really decodes it. */
function makePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // color type: RGB
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3); // filter byte 0, then pixels
    for (let x = 0; x < width; x++) {
      row[1 + x * 3] = (x * 255) / (width - 1);
      row[2 + x * 3] = (y * 255) / (height - 1);
      row[3 + x * 3] = 160;
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The auth dialog (login and register tabs). */
const authDialog = (page: Page) => page.getByRole('dialog', { name: 'Welcome to Dealmaker' });

async function openAuthDialog(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Login / Register' }).click();
  await expect(authDialog(page)).toBeVisible();
  return authDialog(page);
}

async function signInThroughDialog(page: Page, username: string, password: string) {
  const dialog = await openAuthDialog(page);
  await expect(dialog.getByRole('tab', { name: 'Login', selected: true })).toBeVisible();
  await dialog.getByLabel('Username').fill(username);
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Sign In' }).click();
  return dialog;
}

/** The value shown beside a label in a description list (the profile information card, the profile details). */
const infoValue = (card: Locator, label: string) => card.locator(`dt:text-is("${label}") + dd`);

/** An <img> that finished loading a real picture. */
async function expectLoadedPicture(image: Locator) {
  await expect(image).toHaveAttribute('src', /^\/uploads\/profile-pictures\//);
  await expect
    .poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth))
    .toBeGreaterThan(0);
}

test('a new member registers, verifies the email, signs in, edits the profile and the picture, and signs out', async ({
  page,
  alice,
}, testInfo) => {
  test.slow();
  const username = uniqueUsername('nina');
  const email = `${username.toLowerCase()}@example.test`;
  const password = 'a long enough password';

  // Register through the auth dialog.
  await page.goto('/');
  const dialog = await openAuthDialog(page);
  await dialog.getByRole('tab', { name: 'Register' }).click();
  await dialog.getByLabel('Full Name').fill('Nina Newcomer');
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Username').fill(username);
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(dialog.getByRole('status')).toHaveText(
    'Registration successful! Please check your email to verify your account.',
  );
  await expect(dialog.getByRole('tab', { name: 'Login', selected: true })).toBeVisible();
  await expect(dialog.getByLabel('Username')).toHaveValue(username);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // Open the link from the verification mail in the browser. The verification call is held back
  // until the loading state has been seen.
  const mail = await readLastMail(email);
  expect(mail.link).toMatch(/\/api\/auth\/register\/[^/]+$/);
  let releaseVerification!: () => void;
  const verificationReleased = new Promise<void>((resolve) => {
    releaseVerification = resolve;
  });
  await page.route(
    (url) => url.href === mail.link,
    async (route) => {
      if (route.request().resourceType() !== 'document') await verificationReleased;
      await route.continue();
    },
  );
  await page.goto(mail.link);
  await expect(page.getByRole('heading', { name: 'Verifying your email...' })).toBeVisible();
  releaseVerification();
  await expect(page.getByRole('heading', { name: 'Success!' })).toBeVisible();
  await expect(page.getByText('Your email has been verified successfully!')).toBeVisible();
  await page.unroute((url) => url.href === mail.link);

  // Sign in through the dialog.
  await signInThroughDialog(page, username, password);
  await expect(authDialog(page)).toBeHidden();
  await expect(page.getByRole('banner').getByText(`Welcome, ${username}`)).toBeVisible();

  // My Profile: empty details read 'Not provided'.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible();
  // The information card is the only description list on the page.
  const info = page.getByRole('main');
  await expect(infoValue(info, 'Username')).toHaveText(username);
  await expect(infoValue(info, 'Email')).toHaveText(email);
  await expect(infoValue(info, 'Full Name')).toHaveText('Nina Newcomer');
  for (const label of ['Date of Birth', 'Occupation', 'Address']) {
    await expect(infoValue(info, label)).toHaveText('Not provided');
  }

  // Edit Profile: username and email are read-only; the rest is saved.
  await page.getByRole('button', { name: 'Edit Profile' }).click();
  const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Save Changes' }) });
  await expect(form.getByLabel('Username')).not.toBeEditable();
  await expect(form.getByLabel('Email')).not.toBeEditable();
  await form.getByLabel('Full Name').fill('Nina Dealwright');
  await form.getByLabel('Occupation').fill('Business consultant');
  await form.getByLabel('Address').fill('12 Harbour Street, Lisbon');
  await form.getByLabel('Date of Birth').fill('1990-05-17');
  await form.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Profile updated successfully!')).toBeVisible();
  await expect(infoValue(info, 'Full Name')).toHaveText('Nina Dealwright');
  await expect(infoValue(info, 'Occupation')).toHaveText('Business consultant');
  await expect(infoValue(info, 'Address')).toHaveText('12 Harbour Street, Lisbon');
  await expect(infoValue(info, 'Date of Birth')).toHaveText('May 17, 1990');

  // Clearing a field shows 'Not provided' again.
  await page.getByRole('button', { name: 'Edit Profile' }).click();
  await form.getByLabel('Address').fill('');
  await form.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Profile updated successfully!')).toBeVisible();
  await expect(infoValue(info, 'Address')).toHaveText('Not provided');
  await expect(infoValue(info, 'Occupation')).toHaveText('Business consultant');

  // Upload a picture.
  const picturePath = testInfo.outputPath('avatar.png');
  await fs.writeFile(picturePath, makePng(48, 48));
  await expect(page.getByRole('button', { name: 'Upload Picture' })).toBeVisible();
  await page.getByLabel('Profile picture file').setInputFiles(picturePath);
  await expect(page.getByText('Profile picture updated successfully!')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Change Picture' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove Picture' })).toBeVisible();
  await expectLoadedPicture(page.getByRole('main').getByRole('img', { name: 'Nina Dealwright' }));

  // Another member sees the new name and picture in the directory and on the profile page.
  await alice.page.goto('/users');
  await alice.page.getByRole('searchbox', { name: 'Search users' }).fill(username);
  const card = alice.page.getByRole('listitem').filter({ hasText: `@${username}` });
  await expect(card.getByRole('heading', { name: 'Nina Dealwright' })).toBeVisible();
  await expectLoadedPicture(card.getByRole('img', { name: 'Nina Dealwright' }));
  await card.getByRole('link', { name: 'View Profile' }).click();
  await expect(alice.page).toHaveURL(new RegExp(`/users/${username}$`));
  await expect(alice.page.getByRole('heading', { level: 1, name: 'Nina Dealwright' })).toBeVisible();
  await expect(alice.page.getByText(`@${username}`, { exact: true })).toBeVisible();
  await expectLoadedPicture(alice.page.getByRole('main').getByRole('img', { name: 'Nina Dealwright' }));
  await expect(infoValue(alice.page.getByRole('main'), 'Occupation')).toHaveText('Business consultant');
  await expect(infoValue(alice.page.getByRole('main'), 'Full Name')).toHaveText('Nina Dealwright');

  // Sign out.
  await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('banner').getByRole('button', { name: 'Login / Register' })).toBeVisible();
  await expect(page.getByRole('banner').getByText(`Welcome, ${username}`)).toBeHidden();
});

test('a wrong password in the login dialog shows the server’s message', async ({ page, request }) => {
  const user = await createVerifiedUser(request, { username: uniqueUsername('wrongpw') });
  await page.goto('/');
  const dialog = await signInThroughDialog(page, user.username, 'not the password');
  await expect(dialog.getByRole('alert')).toHaveText('Invalid username or password.');
  await expect(dialog.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  // Still signed out: no token was stored.
  expect((await page.context().cookies()).find((cookie) => cookie.name === 'auth_token')).toBeUndefined();

  // The right password still works from the same dialog.
  await dialog.getByLabel('Password', { exact: true }).fill(user.password);
  await dialog.getByRole('button', { name: 'Sign In' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('banner').getByText(`Welcome, ${user.username}`)).toBeVisible();
});

test('a forgotten password is reset through the mailed link', async ({ page, request }) => {
  const user = await createVerifiedUser(request, { username: uniqueUsername('forgetful') });
  const newPassword = 'a brand new password';

  await page.goto('/');
  const dialog = await openAuthDialog(page);
  await dialog.getByRole('button', { name: 'Forgot password?' }).click();
  const resetDialog = page.getByRole('dialog', { name: 'Reset your password' });
  await expect(resetDialog).toBeVisible();
  const askedAt = new Date();
  await resetDialog.getByLabel('Email').fill(user.email);
  await resetDialog.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(resetDialog.getByRole('status')).toHaveText(
    'If an account exists for this email, a password reset link has been sent to it.',
  );
  await resetDialog.getByRole('button', { name: 'Dismiss' }).click();
  await expect(resetDialog).toBeHidden();

  const mail = await readLastMail(user.email, { since: new Date(askedAt.getTime() - 1000) });
  expect(mail.subject).toBe('Reset your Dealmaker password');
  expect(mail.link).toContain(`/api/auth/reset_password/${user.username}/`);

  await page.goto(mail.link);
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await page.getByLabel('New Password').fill(newPassword);
  await page.getByLabel('Confirm Password').fill('something else entirely');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('alert')).toHaveText('Passwords do not match.');

  await page.getByLabel('Confirm Password').fill(newPassword);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Password has been changed successfully! Please log in.')).toBeVisible();
  await expect(page.getByText('Passwords do not match.')).toBeHidden();

  // The old password no longer works; the new one signs in through the dialog.
  await expect(login(request, user)).rejects.toThrow(/401/);
  await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
  await expect(authDialog(page)).toBeVisible();
  await authDialog(page).getByLabel('Username').fill(user.username);
  await authDialog(page).getByLabel('Password', { exact: true }).fill(newPassword);
  await authDialog(page).getByRole('button', { name: 'Sign In' }).click();
  await expect(authDialog(page)).toBeHidden();
  await expect(page.getByRole('banner').getByText(`Welcome, ${user.username}`)).toBeVisible();
});

test('an unknown path shows the 404 page to a signed-in member too', async ({ alice }) => {
  const { page } = alice;
  await page.goto('/deals/1/no-such-screen');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page).toHaveTitle(/Page not found/);
  await expect(page.getByRole('banner').getByText(`Welcome, ${alice.user.username}`)).toBeVisible();
  await page.getByRole('link', { name: 'Browse deals' }).click();
  await expect(page).toHaveURL(/\/deals$/);
  await expect(page.getByRole('heading', { name: 'Deals', level: 1 })).toBeVisible();

  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go back home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Browse Deals' })).toBeVisible();
});
