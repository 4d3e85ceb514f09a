import fs from 'node:fs/promises';
import { createDeal, dealWithDealmaker, deposit, payEscrowHalf, uniqueWord } from './support/deals';
import { expect, test } from './support/fixtures';

// Every deal has a page anyone signed in can open from the list; every wallet movement has a receipt.

test('an outsider opens a deal from the list, bids from its page, and the page survives a reload', async ({
  alice,
  dave,
}) => {
  const tag = uniqueWord('p');
  const deal = await createDeal(alice, {
    title: `Cold storage warehouse ${tag}`,
    description: 'Looking for a dealmaker to find a buyer.',
    budget: 48000,
    timeline: '4 months',
  });
  const page = dave.page;
  await page.goto(`/deals?q=${tag}`);
  await page
    .getByRole('article', { name: deal.title })
    .getByRole('link', { name: deal.title, exact: true })
    .click();
  await expect(page).toHaveURL(new RegExp(`/deals/${deal.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: deal.title })).toBeVisible();
  await expect(page.getByText('$48,000.00').first()).toBeVisible();

  // Bid from the page: the price field has the focus, the outcome shows on the page.
  const takePart = page.getByRole('region', { name: 'Take part' });
  const bidButton = takePart.getByRole('button', { name: 'Bid as Dealmaker' });
  await bidButton.click();
  const dialog = page.getByRole('dialog', { name: 'Bid as Dealmaker' });
  await expect(dialog.getByLabel('Price ($)')).toBeFocused();
  await page.keyboard.type('3150.75');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(takePart.getByText('Bid created successfully!')).toBeVisible();
  await expect(takePart.getByText('Your bid: $3,150.75')).toBeVisible();
  await expect(takePart.getByRole('button', { name: 'Update Bid' })).toBeVisible();
  await expect(takePart.getByRole('button', { name: 'Delete Bid' })).toBeVisible();

  // A deep link survives a reload; the bid is still there, with its buttons; the stale flash is not.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: deal.title })).toBeVisible();
  await expect(takePart.getByText('Your bid: $3,150.75')).toBeVisible();
  await expect(takePart.getByRole('button', { name: 'Update Bid' })).toBeVisible();
  await expect(page.getByText('Bid created successfully!')).toHaveCount(0);

  // The My Deals dialog never shows the Deals page's earlier messages.
  await page.goto(`/deals?q=${tag}`);
  await page.getByRole('article', { name: deal.title }).getByRole('button', { name: 'Update Bid' }).click();
  await page.getByRole('dialog', { name: 'Update Bid' }).getByLabel('Price ($)').fill('3000');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Bid updated successfully!')).toBeVisible();
  await page.getByRole('button', { name: 'My Deals' }).click();
  await expect(page.getByRole('dialog', { name: 'My Deals' })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'My Deals' }).getByText(/successfully/)).toHaveCount(0);

  // An unknown deal says so.
  await page.goto('/deals/987654321');
  await expect(page.getByRole('heading', { name: 'Deal not found' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Back to Deals' })).toBeVisible();
});

test('each wallet movement opens its receipt; the history filters by type and downloads as CSV', async ({
  alice,
  bob,
  carol,
}) => {
  test.slow();
  const title = `Regional courier company ${uniqueWord('x')}`;
  const deal = await dealWithDealmaker(
    { creator: alice, counterpart: bob, dealmaker: carol },
    { title, description: 'Receipts.', budget: 10500, timeline: '3 months' },
  );
  await deposit(alice, 25000);
  await payEscrowHalf(alice, deal.id);
  const page = alice.page;
  await page.goto('/deposit');
  const rows = page.getByRole('listitem').filter({ has: page.getByText(/^Balance: \$/) });
  await expect(rows).toHaveCount(2);

  const payment = rows.first().getByRole('button');
  await payment.click();
  const receipt = page.getByRole('dialog', { name: 'Receipt' });
  await expect(receipt).toBeVisible();
  const line = (label: string) => receipt.locator(`dt:text-is("${label}") + dd`);
  await expect(receipt).toContainText('Escrow payment');
  await expect(receipt).toContainText('\u2212$5,250.00');
  await expect(line('Balance before')).toHaveText('$25,000.00');
  await expect(line('Balance after')).toHaveText('$19,750.00');
  await expect(line('Date and time')).toHaveText(/\d{4}/);
  await expect(line('Other side')).toHaveText(
    `To the escrow of '${title}', for @${carol.user.username} once the deal is completed`,
  );
  await expect(line('Reference')).toHaveText(/^TX-\d{6}$/);
  const reference = await line('Reference').textContent();
  await page.keyboard.press('Escape');
  await expect(receipt).toBeHidden();
  await expect(payment).toBeFocused();

  // The deposit's receipt, then its deal link from the payment's receipt.
  await rows.nth(1).getByRole('button').click();
  await expect(line('Other side')).toHaveText(/^From outside Dealmaker/);
  await expect(line('Balance before')).toHaveText('$0.00');
  await expect(line('Balance after')).toHaveText('$25,000.00');
  await page.keyboard.press('Escape');

  // Filter by type.
  await page.getByLabel('Type').selectOption('deposit');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('+$25,000.00');
  await page.getByLabel('Type').selectOption('');
  await expect(rows).toHaveCount(2);

  // The whole history as CSV, with the receipt's reference.
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download CSV' }).click();
  const csv = await fs.readFile((await (await download).path())!, 'utf8');
  const lines = csv.trim().split('\r\n');
  expect(lines[0]).toBe('reference,date,type,description,amount,balance_before,balance_after,deal_id');
  expect(lines).toHaveLength(3);
  expect(lines[1]).toContain(`${reference},`);
  expect(lines[1]).toContain(`,-5250.00,25000.00,19750.00,${deal.id}`);

  await rows.first().getByRole('button').click();
  await receipt.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(new RegExp(`/deals/${deal.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
});

test('the sign-in dialog focuses Username and gives focus back to the button that opened it', async ({
  page,
}) => {
  await page.goto('/');
  const opener = page.getByRole('banner').getByRole('button', { name: 'Login / Register' });
  await opener.click();
  const dialog = page.getByRole('dialog', { name: 'Welcome to Dealmaker' });
  await expect(dialog.getByLabel('Username')).toBeFocused();
  // Focus stays inside: a round of Tab never leaves the dialog.
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});
