import type { Locator, Page } from '@playwright/test';
import { confirmAction, confirmation } from './support/confirm';
import { dealWithDealmaker, uniqueWord } from './support/deals';
import { expect, test } from './support/fixtures';

// Money end to end: two dealers deposit on the wallet page, each pays their half of the escrow on the
// deal, both mark the deal finished and the whole escrow reaches the dealmaker's wallet.

/**
 * A person's double click on a button, at a person's pace: the first click, then the second click of
 * the same double click on the same spot, once the first one's answer is on screen (`answered`) and
 * whatever the page shows there by then is what the second click hits.
 */
async function doubleClickAtHumanPace(page: Page, button: Locator, answered: Locator) {
  await button.scrollIntoViewIfNeeded();
  const box = await button.boundingBox();
  if (!box) throw new Error('The button to double-click is not on screen.');
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(answered).toBeVisible();
  await page.mouse.down({ clickCount: 2 });
  await page.mouse.up({ clickCount: 2 });
}

const depositForm = (page: Page) =>
  page.locator('form').filter({ has: page.getByRole('button', { name: /^(Deposit|Processing\.\.\.)$/ }) });

/** The value under one of the Wallet Overview's labels (Current Balance, Total Deposited, ...). */
const walletStat = (page: Page, label: string) =>
  page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');

/** The Transaction History rows: each shows the balance after it. */
const historyRows = (page: Page) =>
  page.getByRole('listitem').filter({ has: page.getByText(/^Balance: \$/) });

const escrowBox = (page: Page) => page.getByRole('region', { name: 'Escrow Payment Status' });

/** One dealer's half in the Escrow Payment Status box. */
const escrowHalf = (page: Page, label: "Creator's half" | "Counterpart's half") =>
  escrowBox(page).getByRole('listitem').filter({ hasText: label });

/** The '✅ Completed' / '⏳ Pending' line of one dealer in the Participants box. */
const completionLine = (page: Page, side: 'Creator' | 'Counterpart') =>
  page
    .getByRole('region', { name: 'Participants' })
    .locator('dt', { hasText: new RegExp(`^${side} \\(@`) })
    .locator('xpath=following-sibling::dd[1]');

async function openWallet(page: Page) {
  await page.goto('/deposit');
  await expect(page.getByRole('heading', { name: 'Wallet & Deposits' })).toBeVisible();
  await expect(historyRows(page).or(page.getByText('No transactions yet'))).not.toHaveCount(0);
}

async function expectWallet(
  page: Page,
  expected: { balance: string; rows: number; newest?: { text: RegExp | string; balanceAfter: string } },
) {
  await expect(walletStat(page, 'Current Balance')).toHaveText(expected.balance);
  await expect(historyRows(page)).toHaveCount(expected.rows);
  if (expected.newest) {
    const newest = historyRows(page).first();
    await expect(newest).toContainText(expected.newest.text);
    await expect(newest).toContainText(`Balance: ${expected.newest.balanceAfter}`);
  }
}

async function openDeal(page: Page, deal: { id: number; title: string }) {
  await page.goto(`/deals/${deal.id}`);
  await expect(page.getByRole('heading', { level: 1, name: deal.title })).toBeVisible();
}

/** The deal's card on the Deals page, found with the search box. */
async function dealCard(page: Page, keyword: string, title: string): Promise<Locator> {
  await page.goto('/deals');
  await page.getByRole('searchbox', { name: 'Search deals' }).fill(keyword);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const card = page.getByRole('article', { name: title });
  await expect(card).toBeVisible();
  return card;
}

test('dealers deposit, each pays their half into escrow, finish the deal, and the dealmaker is paid', async ({
  alice,
  bob,
  carol,
}) => {
  test.setTimeout(120_000);
  const keyword = uniqueWord('escrow');
  const deal = await dealWithDealmaker(
    { creator: alice, counterpart: bob, dealmaker: carol },
    {
      title: `Supply deal ${keyword}`,
      description: 'Two dealers split the dealmaker fee.',
      budget: 1000.01,
      timeline: '2 weeks',
    },
  );
  const a = alice.page;
  const b = bob.page;
  const c = carol.page;

  // A deposits with quick double clicks, on the button and on the confirmation: one deposit.
  await openWallet(a);
  await expect(a.getByText('No transactions yet')).toBeVisible();
  await expect(walletStat(a, 'Current Balance')).toHaveText('$0.00');
  await depositForm(a).getByLabel('Amount ($)').fill('750.25');
  await depositForm(a).getByRole('button', { name: 'Deposit', exact: true }).dblclick();
  await expect(confirmation(a)).toContainText(
    'Deposit $750.25 into your wallet (simulated: no card or bank is charged). Balance after: $750.25.',
  );
  await confirmation(a).getByRole('button', { name: 'Deposit', exact: true }).dblclick();
  await expect(a.getByText('Successfully deposited $750.25')).toBeVisible();
  await expectWallet(a, {
    balance: '$750.25',
    rows: 1,
    newest: { text: /Deposit of \$750\.25[\s\S]*\+\$750\.25/, balanceAfter: '$750.25' },
  });
  await expect(walletStat(a, 'Total Deposited')).toHaveText('$750.25');
  // What the server holds, not only what the page remembers.
  await openWallet(a);
  await expectWallet(a, { balance: '$750.25', rows: 1 });

  // B confirms with a slower double click: still one deposit.
  await openWallet(b);
  await expect(b.getByText('No transactions yet')).toBeVisible();
  await depositForm(b).getByLabel('Amount ($)').fill('600');
  await depositForm(b).getByLabel('Amount ($)').press('Enter');
  const deposited = b.getByText('Successfully deposited $600.00');
  await doubleClickAtHumanPace(
    b,
    confirmation(b).getByRole('button', { name: 'Deposit', exact: true }),
    deposited,
  );
  await expect(deposited).toBeVisible();
  await expectWallet(b, {
    balance: '$600.00',
    rows: 1,
    newest: { text: '+$600.00', balanceAfter: '$600.00' },
  });

  // A pays the creator's half (the odd cent is the creator's), with a double click: charged once.
  await openDeal(a, deal);
  await expect(escrowBox(a).getByText('$1,000.01')).toBeVisible();
  await expect(escrowHalf(a, "Creator's half")).toContainText('$500.01');
  await expect(escrowHalf(a, "Creator's half")).toContainText('(you)');
  await expect(escrowHalf(a, "Creator's half")).toContainText('Not paid');
  await expect(escrowHalf(a, "Counterpart's half")).toContainText('$500.00');
  await expect(escrowBox(a).getByText('Your half: $500.01, paid from your wallet.')).toBeVisible();
  const paid = escrowBox(a).getByText(
    'Your half ($500.01) has been paid successfully. Waiting for the other party.',
  );
  await escrowBox(a).getByRole('button', { name: 'Pay my half' }).click();
  await expect(confirmation(a)).toContainText(
    `Pay $500.01 from your wallet into escrow for '${deal.title}'. Balance after: $250.24.`,
  );
  await doubleClickAtHumanPace(a, confirmation(a).getByRole('button', { name: 'Pay my half' }), paid);
  await expect(paid).toBeVisible();
  await expect(escrowHalf(a, "Creator's half")).toContainText('Paid');
  await expect(escrowHalf(a, "Creator's half")).not.toContainText('Not paid');
  await expect(escrowHalf(a, "Counterpart's half")).toContainText('Not paid');
  await expect(escrowBox(a).getByRole('button', { name: 'Pay my half' })).toHaveCount(0);

  await openWallet(a);
  await expectWallet(a, {
    balance: '$250.24',
    rows: 2,
    newest: { text: `Escrow payment for "${deal.title}"`, balanceAfter: '$250.24' },
  });
  await expect(historyRows(a).first()).toContainText('\u2212$500.01');

  // One half paid: the deal is protected on the Deals page, for both dealers.
  const aCard = await dealCard(a, keyword, deal.title);
  await expect(aCard.getByText('Deal is protected - escrow payment made')).toBeVisible();
  await expect(aCard.getByRole('button', { name: 'Delete Deal' })).toHaveCount(0);
  const bCard = await dealCard(b, keyword, deal.title);
  await expect(bCard.getByText('Cannot leave - escrow payment made')).toBeVisible();
  await expect(bCard.getByRole('button', { name: 'Leave Deal' })).toHaveCount(0);

  // B pays the counterpart's half: both halves are in, the escrow is locked.
  await openDeal(b, deal);
  await expect(escrowHalf(b, "Creator's half")).toContainText('Paid');
  await expect(escrowHalf(b, "Counterpart's half")).toContainText('$500.00');
  await expect(escrowHalf(b, "Counterpart's half")).toContainText('Not paid');
  await expect(escrowBox(b).getByText('Your half: $500.00, paid from your wallet.')).toBeVisible();
  await escrowBox(b).getByRole('button', { name: 'Pay my half' }).click();
  await confirmAction(b, 'Pay my half');
  const locked = 'Both parties have paid! Money is now locked in escrow until deal completion.';
  await expect(escrowBox(b).getByText(locked).first()).toBeVisible();
  await expect(escrowHalf(b, "Counterpart's half")).not.toContainText('Not paid');
  await expect(escrowBox(b).getByText('Locked', { exact: true })).toBeVisible();
  await expect(escrowBox(b).getByRole('button', { name: /Pay my half|Take my half back/ })).toHaveCount(0);

  await openWallet(b);
  await expectWallet(b, {
    balance: '$100.00',
    rows: 2,
    newest: { text: /Escrow payment[\s\S]*\u2212\$500\.00/, balanceAfter: '$100.00' },
  });

  // A sees the locked escrow too, and marks the deal finished first.
  await openDeal(a, deal);
  await expect(escrowBox(a).getByText(locked)).toBeVisible();
  await expect(escrowHalf(a, "Counterpart's half")).not.toContainText('Not paid');
  await expect(completionLine(a, 'Creator')).toHaveText('⏳ Pending');
  await expect(completionLine(a, 'Counterpart')).toHaveText('⏳ Pending');
  await a.getByRole('button', { name: 'Mark as Finished' }).click();
  await confirmAction(a, 'Mark as Finished');
  await expect(
    a.getByText('You marked this deal as finished. Waiting for the other party to mark it too.'),
  ).toBeVisible();
  await expect(a.getByRole('button', { name: 'Completed', exact: true })).toBeDisabled();
  await expect(a.getByRole('button', { name: 'Mark as Finished' })).toHaveCount(0);
  await expect(completionLine(a, 'Creator')).toHaveText('✅ Completed');
  await expect(completionLine(a, 'Counterpart')).toHaveText('⏳ Pending');
  await expect(a.getByRole('region', { name: 'Deal Completed' })).toHaveCount(0);

  // B marks it finished second: the deal is completed and the escrow released.
  await openDeal(b, deal);
  await expect(completionLine(b, 'Creator')).toHaveText('✅ Completed');
  await expect(completionLine(b, 'Counterpart')).toHaveText('⏳ Pending');
  await b.getByRole('button', { name: 'Mark as Finished' }).click();
  await expect(confirmation(b)).toContainText('the escrow of $1,000.01 is released to');
  await confirmAction(b, 'Mark as Finished');
  const completed = b.getByRole('region', { name: 'Deal Completed' });
  await expect(completed).toBeVisible();
  await expect(completed.locator('dt', { hasText: 'Final Budget' })).toBeVisible();
  await expect(completed).toContainText('$1,000.01');
  await expect(completionLine(b, 'Counterpart')).toHaveText('✅ Completed');
  await expect(b.getByText('Escrow payment has been released to the dealmaker!').first()).toBeVisible();
  await expect(b.getByRole('button', { name: 'Leave Reviews' })).toBeVisible();

  await openDeal(a, deal);
  await expect(a.getByRole('region', { name: 'Deal Completed' })).toContainText('$1,000.01');
  await expect(completionLine(a, 'Counterpart')).toHaveText('✅ Completed');

  // The dealmaker received the whole escrow.
  await openWallet(c);
  await expectWallet(c, {
    balance: '$1,000.01',
    rows: 1,
    newest: { text: `Payment received for "${deal.title}"`, balanceAfter: '$1,000.01' },
  });
  await expect(historyRows(c).first()).toContainText('+$1,000.01');

  // The dealers keep what they did not pay in: A's deposit less 500.01, B's less 500.00.
  await openWallet(a);
  await expectWallet(a, { balance: '$250.24', rows: 2 });
  await openWallet(b);
  await expectWallet(b, { balance: '$100.00', rows: 2 });
});
