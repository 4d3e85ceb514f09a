import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** The confirmation a money or irreversible button opens. */
export const confirmation = (page: Page) => page.getByRole('alertdialog');

/** Answers the open confirmation with its action button (e.g. 'Pay my half') and waits for it to close. */
export async function confirmAction(page: Page, action: string) {
  const dialog = confirmation(page);
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: action, exact: true }).click();
  await expect(dialog).toBeHidden({ timeout: 10_000 });
}
