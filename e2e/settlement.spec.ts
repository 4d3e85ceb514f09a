import type { Locator, Page } from '@playwright/test';
import { confirmAction, confirmation } from './support/confirm';
import {
  type DealSummary,
  dealWithDealmaker,
  deposit,
  escalateDispute,
  escrowAs,
  lockEscrow,
  payEscrowHalf,
  proposeSettlement,
  raiseDispute,
  sendMessage,
  uniqueWord,
  walletOf,
} from './support/deals';
import { type Actor, expect, test } from './support/fixtures';
import { grantOperator } from './support/operator';
import { horizontalOverflow, seriousAxeViolations, smallTouchTargets } from './support/page-checks';

// Disputes that settle money: the three participants agree on a split of the locked escrow, or a dealer
// escalates and an operator decides on the Operator console; the wallets, the escrow and the deal follow.

const dateTime = String.raw`[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M`;

async function openDisputes(page: Page, deal: DealSummary) {
  await page.goto(`/deals/${deal.id}`);
  await expect(page.getByRole('heading', { level: 1, name: deal.title })).toBeVisible();
  await page.getByRole('button', { name: 'Manage Disputes' }).click();
  const dialog = page.getByRole('dialog', { name: 'Deal Disputes' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** The amount shown beside one of a split's labels ('To the dealmaker (@carol)'). */
const splitValue = (scope: Locator, label: string) =>
  scope.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');

async function expectSplit(scope: Locator, amounts: [string, string, string]) {
  await expect(splitValue(scope, 'To the dealmaker')).toHaveText(amounts[0]);
  await expect(splitValue(scope, 'Refund to the creator')).toHaveText(amounts[1]);
  await expect(splitValue(scope, 'Refund to the counterpart')).toHaveText(amounts[2]);
}

type People = { creator: Actor; counterpart: Actor; dealmaker: Actor };

/** A deal with its escrow locked and a dispute raised by `raiser`: what a settlement needs. */
async function disputedDeal(
  people: People,
  deal: { title: string; budget: number },
  dispute: { raiser: Actor; title: string; description: string },
) {
  const created = await dealWithDealmaker(people, {
    ...deal,
    description: 'A deal whose dealers and dealmaker disagree.',
    timeline: '3 weeks',
  });
  await lockEscrow(people, created);
  const disputeId = await raiseDispute(dispute.raiser, created.id, dispute.title, dispute.description);
  return { deal: created, disputeId };
}

const proposal = (scope: Locator, proposer: string) =>
  scope.getByRole('listitem', { name: `Proposal by @${proposer}` });

async function expectBalance(page: Page, balance: string, newest: string) {
  await page.goto('/deposit');
  await expect(
    page.locator('dt', { hasText: /^Current Balance$/ }).locator('xpath=following-sibling::dd[1]'),
  ).toHaveText(balance);
  await expect(
    page
      .getByRole('listitem')
      .filter({ has: page.getByText(/^Balance: \$/) })
      .first(),
  ).toContainText(newest);
}

test('the three participants agree on a split: the escrow is paid out as agreed and the deal completes', async ({
  alice,
  bob,
  carol,
}) => {
  test.setTimeout(120_000);
  const people = { creator: alice, counterpart: bob, dealmaker: carol };
  const [a, b, c] = [alice.user.username, bob.user.username, carol.user.username];
  const disputeTitle = 'Only part of the work was delivered';
  const { deal } = await disputedDeal(
    people,
    { title: `Settled supply deal ${uniqueWord('s')}`, budget: 1000.01 },
    { raiser: alice, title: disputeTitle, description: 'Two of the three reports are missing.' },
  );

  // The dealmaker proposes $700.00 for themselves: the rest back in proportion to the halves.
  const cDialog = await openDisputes(carol.page, deal);
  const cCard = cDialog.getByRole('article', { name: disputeTitle });
  await expect(cCard).toContainText(new RegExp(`Escalates to an operator on ${dateTime}`));
  await expect(cCard.getByRole('button', { name: 'Escalate now' })).toHaveCount(0);
  await cCard.getByRole('button', { name: 'Propose a split' }).click();
  const cForm = cCard.getByRole('form', { name: 'Propose a settlement' });
  await cForm.getByLabel('To the dealmaker ($)').fill('700');
  await expectSplit(cForm, ['$700.00', '$150.01', '$150.00']);
  await expect(cForm.getByRole('slider', { name: 'To the dealmaker' })).toHaveValue('70000');
  await cForm.getByRole('button', { name: 'Propose', exact: true }).click();
  await expect(confirmation(carol.page)).toContainText(
    `Propose to split the escrow of '${deal.title}' ($1,000.01): $700.00 to the dealmaker (@${c}), $150.01 back to @${a}, $150.00 back to @${b}. It replaces the open proposal, and settles once all three of you accept it.`,
  );
  await confirmAction(carol.page, 'Propose settlement');
  await expect(cDialog.getByText('Settlement proposed')).toBeVisible();
  const carolsProposal = proposal(cCard, c);
  await expect(carolsProposal).toContainText(`Accepted by @${c}`);
  await expect(carolsProposal).toContainText(`Waiting for @${a} and @${b}`);
  await expectSplit(carolsProposal, ['$700.00', '$150.01', '$150.00']);
  await expect(carolsProposal.getByRole('button', { name: 'Accept' })).toHaveCount(0);
  await expect(carolsProposal.getByRole('button', { name: 'Withdraw' })).toBeVisible();

  // The counterpart counter-proposes $600.00 with the slider: it supersedes the dealmaker's.
  const bDialog = await openDisputes(bob.page, deal);
  const bCard = bDialog.getByRole('article', { name: disputeTitle });
  await expect(proposal(bCard, c).getByRole('button', { name: 'Accept' })).toBeVisible();
  await expect(proposal(bCard, c).getByRole('button', { name: 'Withdraw' })).toHaveCount(0);
  await bCard.getByRole('button', { name: 'Propose a split' }).click();
  const bForm = bCard.getByRole('form', { name: 'Propose a settlement' });
  await bForm.getByRole('slider', { name: 'To the dealmaker' }).fill('60000');
  await expect(bForm.getByLabel('To the dealmaker ($)')).toHaveValue('600.00');
  await expectSplit(bForm, ['$600.00', '$200.01', '$200.00']);
  await bForm.getByRole('button', { name: 'Propose', exact: true }).click();
  await expect(confirmation(bob.page)).toContainText(
    `$600.00 to the dealmaker (@${c}), $200.01 back to @${a}, $200.00 back to @${b}.`,
  );
  await confirmAction(bob.page, 'Propose settlement');
  await expect(proposal(bCard, b)).toContainText(`Waiting for @${a} and @${c}`);
  await expect(proposal(bCard, c)).toContainText('Superseded by a newer proposal');
  await expect(proposal(bCard, c).getByRole('button')).toHaveCount(0);

  // The dealmaker accepts it (the page follows live), then the creator, last.
  await expect(proposal(cCard, b)).toContainText(`Waiting for @${a} and @${c}`);
  await expect(proposal(cCard, c)).toContainText('Superseded by a newer proposal');
  await proposal(cCard, b).getByRole('button', { name: 'Accept' }).click();
  await expect(confirmation(carol.page)).toContainText(
    `Accept splitting the escrow of '${deal.title}' ($1,000.01): $600.00 to the dealmaker (@${c}), $200.01 back to @${a}, $200.00 back to @${b}. Once everyone has accepted, the escrow is paid out this way and the deal is completed.`,
  );
  await confirmAction(carol.page, 'Accept settlement');
  await expect(proposal(cCard, b)).toContainText(`Accepted by @${b} and @${c}`);
  await expect(proposal(cCard, b)).toContainText(`Waiting for @${a}`);

  const aDialog = await openDisputes(alice.page, deal);
  const aCard = aDialog.getByRole('article', { name: disputeTitle });
  await expect(proposal(aCard, b)).toContainText(`Waiting for @${a}`);
  await proposal(aCard, b).getByRole('button', { name: 'Accept' }).click();
  await expect(confirmation(alice.page)).toContainText(
    'You are the last to accept: the escrow is paid out at once and the deal is completed. This cannot be undone.',
  );
  await confirmAction(alice.page, 'Accept settlement');
  await expect(aDialog.getByText('Everyone accepted: the escrow was settled')).toBeVisible();
  await expect(aCard.getByText('RESOLVED', { exact: true })).toBeVisible();
  const settled = aCard.getByRole('region', { name: 'Settlement' });
  await expect(settled).toContainText(new RegExp(`Settled by agreement on ${dateTime}`));
  await expectSplit(settled, ['$600.00', '$200.01', '$200.00']);
  await expect(aCard).toContainText(
    `Settled by agreement: $600.00 to the dealmaker (${c}), $200.01 back to ${a}, $200.00 back to ${b}.`,
  );
  await expect(aCard).not.toContainText('Escalates to an operator');
  await expect(aCard.getByRole('button', { name: /Accept|Withdraw|Propose a split/ })).toHaveCount(0);
  await alice.page.keyboard.press('Escape');

  // The escrow shows settled, the deal completed.
  const escrowBox = alice.page.getByRole('region', { name: 'Escrow Payment Status' });
  await expect(escrowBox.getByText('Settled', { exact: true })).toBeVisible();
  await expect(escrowBox).toContainText(
    'The escrow was settled: split between the dealmaker and the dealers as the settlement of a dispute said.',
  );
  await expect(alice.page.getByRole('region', { name: 'Deal Completed' })).toContainText(
    "A dispute's settlement completed this deal",
  );

  // Each wallet got its part.
  await expectBalance(alice.page, '$200.01', `Escrow settlement refund for "${deal.title}"`);
  await expectBalance(bob.page, '$200.00', '+$200.00');
  await expectBalance(carol.page, '$600.00', `Payment received for "${deal.title}" (settlement)`);
});

test('a dealer escalates, and an operator settles on the Operator console', async ({
  alice,
  bob,
  carol,
  dave,
}) => {
  test.setTimeout(150_000);
  const people = { creator: alice, counterpart: bob, dealmaker: carol };
  const [a, b, c, d] = [alice.user.username, bob.user.username, carol.user.username, dave.user.username];
  const disputeTitle = 'The market study came late';
  const { deal } = await disputedDeal(
    people,
    { title: `Escalated consulting deal ${uniqueWord('e')}`, budget: 800 },
    { raiser: bob, title: disputeTitle, description: 'It arrived three weeks after the date agreed.' },
  );
  await sendMessage(bob, deal.id, 'The study came three weeks after the date we agreed.');
  await sendMessage(carol, deal.id, 'The client sent me the data two weeks late.');

  // Not an operator: no console, no link.
  await alice.page.goto('/operator');
  await expect(alice.page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(alice.page.getByRole('heading', { name: 'Operator console' })).toHaveCount(0);
  await expect(alice.page.getByRole('link', { name: 'Operator', exact: true })).toHaveCount(0);

  // The creator escalates now.
  const aDialog = await openDisputes(alice.page, deal);
  const aCard = aDialog.getByRole('article', { name: disputeTitle });
  await aCard.getByRole('button', { name: 'Escalate now' }).click();
  await expect(confirmation(alice.page)).toContainText(
    `Send the dispute "${disputeTitle}" on '${deal.title}' to an operator now. An operator can then decide how the escrow is split.`,
  );
  await confirmAction(alice.page, 'Escalate now');
  await expect(aDialog.getByText('Dispute escalated to an operator')).toBeVisible();
  await expect(aCard).toContainText(new RegExp(`Escalated to an operator on ${dateTime}`));
  await expect(aCard.getByRole('button', { name: 'Escalate now' })).toHaveCount(0);
  await alice.page.keyboard.press('Escape');

  // An operator, made by the server's command, finds it in the queue.
  await grantOperator(dave);
  const o = dave.page;
  await o.goto('/deals');
  await o.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operator' }).click();
  await expect(o).toHaveURL(/\/operator$/);
  await expect(o.getByRole('heading', { level: 1, name: 'Operator console' })).toBeVisible();
  const item = o
    .getByRole('region', { name: 'Escalated disputes' })
    .getByRole('article', { name: deal.title });
  await expect(item).toContainText(`Deal #${deal.id}`);
  await expect(item).toContainText(disputeTitle);
  await expect(item).toContainText(new RegExp(`Escalated to an operator on ${dateTime}`));
  await expect(splitValue(item, 'Escrow amount')).toHaveText('$800.00 (locked)');
  await expect(item).toContainText('No settlement was proposed.');
  await expect(item).toContainText(`${b} raised a dispute: ${disputeTitle}`);

  // The chat is evidence: not in the queue, but read on demand (read-only, and audited), from the keyboard.
  await expect(item).not.toContainText('The client sent me the data two weeks late.');
  const readMessages = item.getByRole('button', { name: "Read the deal's messages" });
  await readMessages.focus();
  await o.keyboard.press('Enter');
  const evidence = o.getByRole('dialog', { name: "The deal's messages and timeline" });
  await expect(evidence).toContainText(`Deal: ${deal.title}`);
  const entries = evidence
    .getByRole('region', { name: 'Messages and timeline entries, newest first' })
    .getByRole('listitem');
  await expect(entries.first()).toContainText(`The dispute "${disputeTitle}" went to the operators`);
  await expect(entries.nth(1)).toContainText(`@${c}`);
  await expect(entries.nth(1)).toContainText('The client sent me the data two weeks late.');
  await expect(entries.nth(2)).toContainText(`@${b}`);
  await expect(entries.nth(2)).toContainText('The study came three weeks after the date we agreed.');
  await expect(evidence.getByRole('textbox')).toHaveCount(0);
  await o.keyboard.press('Escape');
  await expect(evidence).toBeHidden();
  await expect(readMessages).toBeFocused();

  const form = item.getByRole('form', { name: `Settle '${deal.title}'` });
  await form.getByRole('button', { name: 'Settle escrow' }).click();
  await expect(form).toContainText('Enter the amount for the dealmaker');
  await expect(form).toContainText('Resolution is required');
  await expect(confirmation(o)).toHaveCount(0);
  await form.getByLabel('To the dealmaker ($)').fill('500');
  await expectSplit(form, ['$500.00', '$150.00', '$150.00']);
  const resolution = 'The study was useful but late: the dealmaker keeps $500.00.';
  await form.getByLabel('Resolution').fill(resolution);
  await form.getByRole('button', { name: 'Settle escrow' }).click();
  await expect(confirmation(o)).toContainText(
    `Settle the escrow of '${deal.title}' ($800.00): $500.00 to the dealmaker (@${c}), $150.00 back to @${a}, $150.00 back to @${b}. The dispute is resolved and the deal is completed. This cannot be undone.`,
  );
  await confirmAction(o, 'Settle escrow');
  await expect(o.getByText(`Settled the escrow of '${deal.title}'`)).toBeVisible();
  await expect(item).toHaveCount(0);

  // The ledger's invariants all hold, and still do on a second run.
  const ledger = o.getByRole('region', { name: 'Ledger check' });
  await ledger.getByRole('button', { name: 'Run again' }).click();
  await expect(ledger.getByRole('button', { name: 'Run again' })).toBeEnabled();
  await expect(ledger.getByText(/^All \d+ checks pass$/)).toBeVisible();
  await expect(ledger.getByText('Pass', { exact: true }).first()).toBeVisible();
  await expect(ledger.getByText('Fail', { exact: true })).toHaveCount(0);
  await expect(ledger.getByText(/^Looks for: .* · 0 violations$/)).toHaveCount(
    await ledger.getByRole('listitem').count(),
  );

  // The audit log, filtered by the deal, lists the settlement.
  const audit = o.getByRole('region', { name: 'Audit log' });
  await audit.getByLabel('Deal id').fill(String(deal.id));
  await audit.getByRole('button', { name: 'Apply filters' }).click();
  const rows = audit.locator('tbody tr');
  const settleRow = rows.filter({ hasText: 'operator.settle' });
  await expect(settleRow).toHaveCount(1);
  await expect(settleRow.locator('td').nth(1)).toHaveText(`@${d}`);
  await expect(settleRow.locator('td').nth(3)).toHaveText(`#${deal.id}`);
  await expect(settleRow.locator('td').nth(5)).toContainText('"toDealmakerCents":50000');
  const readRow = rows.filter({ hasText: 'operator.read-deal' });
  await expect(readRow).toHaveCount(1);
  await expect(readRow.locator('td').nth(1)).toHaveText(`@${d}`);
  const dealCells = await rows.locator('td:nth-child(4)').allTextContents();
  expect(dealCells.length).toBeGreaterThan(1);
  expect(new Set(dealCells)).toEqual(new Set([`#${deal.id}`]));
  await audit.getByLabel('Username').fill(d);
  await audit.getByRole('button', { name: 'Apply filters' }).click();
  await expect(rows.filter({ hasText: 'operator.settle' })).toHaveCount(1);

  // The participants see the operator's settlement, and their wallets hold it.
  const settledDialog = await openDisputes(alice.page, deal);
  const settledCard = settledDialog.getByRole('article', { name: disputeTitle });
  await expect(settledCard).toContainText(new RegExp(`Settled by an operator on ${dateTime}`));
  await expect(settledCard).toContainText(resolution);
  await expectSplit(settledCard.getByRole('region', { name: 'Settlement' }), [
    '$500.00',
    '$150.00',
    '$150.00',
  ]);
  await alice.page.keyboard.press('Escape');
  await expect(
    alice.page.getByRole('region', { name: 'Escrow Payment Status' }).getByText('Settled', { exact: true }),
  ).toBeVisible();
  await expectBalance(alice.page, '$150.00', `Escrow settlement refund for "${deal.title}"`);
  await expectBalance(carol.page, '$500.00', `Payment received for "${deal.title}" (settlement)`);
  expect((await walletOf(bob)).balance).toBe(150);
});

test('an operator who takes part in a deal reads its messages but may not settle it; on a phone the console fits and passes axe-core', async ({
  alice,
  bob,
  carol,
}) => {
  test.setTimeout(120_000);
  const people = { creator: alice, counterpart: bob, dealmaker: carol };
  const disputeTitle = 'The warehouse inventory was counted twice';
  const { deal, disputeId } = await disputedDeal(
    people,
    { title: `Inventory audit of a wholesale grocer with four warehouses ${uniqueWord('i')}`, budget: 5000 },
    { raiser: bob, title: disputeTitle, description: 'Half of the pallets appear in two counts.' },
  );
  await sendMessage(bob, deal.id, 'Please look at the second count before anyone pays anything.');
  await escalateDispute(bob, disputeId);
  // The creator is an operator too: the dispute is in their queue, but not theirs to decide.
  await grantOperator(alice);

  const page = alice.page;
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/operator');
  const item = page
    .getByRole('region', { name: 'Escalated disputes' })
    .getByRole('article', { name: deal.title });
  await expect(item).toContainText('You take part in this deal: another operator must settle it.');
  await expect(item.getByRole('form')).toHaveCount(0);
  await expect(item.getByRole('button', { name: 'Settle escrow' })).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  const consoleFindings = {
    overflow: (await horizontalOverflow(page)).overflow,
    small: await smallTouchTargets(page),
    axe: await seriousAxeViolations(page),
  };

  await item.getByRole('button', { name: "Read the deal's messages" }).click();
  const evidence = page.getByRole('dialog', { name: "The deal's messages and timeline" });
  await expect(evidence).toContainText('Please look at the second count before anyone pays anything.');
  await page.waitForLoadState('networkidle');
  const dialogFindings = {
    overflow: (await horizontalOverflow(page)).overflow,
    small: await smallTouchTargets(page),
    axe: await seriousAxeViolations(page),
  };
  expect({ consoleFindings, dialogFindings }).toEqual({
    consoleFindings: { overflow: 0, small: [], axe: [] },
    dialogFindings: { overflow: 0, small: [], axe: [] },
  });
});

test('on a phone the settlement fits the screen and passes axe-core, its confirmation too', async ({
  alice,
  bob,
  carol,
}) => {
  test.setTimeout(90_000);
  const people = { creator: alice, counterpart: bob, dealmaker: carol };
  const disputeTitle = 'The due diligence report leaves out two of the three depots';
  const { deal, disputeId } = await disputedDeal(
    people,
    {
      title: `Acquisition of a regional courier company with depots in three provinces ${uniqueWord('p')}`,
      budget: 123456.78,
    },
    { raiser: bob, title: disputeTitle, description: 'Only the northern depot was visited.' },
  );
  await proposeSettlement(carol, disputeId, 100000);
  await proposeSettlement(bob, disputeId, 61728.39);

  const page = alice.page;
  await page.setViewportSize({ width: 390, height: 800 });
  const dialog = await openDisputes(page, deal);
  const card = dialog.getByRole('article', { name: disputeTitle });
  await expect(proposal(card, bob.user.username)).toContainText(
    `Waiting for @${alice.user.username} and @${carol.user.username}`,
  );
  await card.getByRole('button', { name: 'Propose a split' }).click();
  await card.getByLabel('To the dealmaker ($)').fill('99999.99');
  await expectSplit(card.getByRole('form', { name: 'Propose a settlement' }), [
    '$99,999.99',
    '$11,728.40',
    '$11,728.39',
  ]);
  await page.waitForLoadState('networkidle');
  const dialogFindings = {
    overflow: (await horizontalOverflow(page)).overflow,
    small: await smallTouchTargets(page),
    axe: await seriousAxeViolations(page),
  };

  await proposal(card, bob.user.username).getByRole('button', { name: 'Accept' }).click();
  await expect(confirmation(page)).toContainText('$61,728.39 to the dealmaker');
  const confirmationFindings = {
    overflow: (await horizontalOverflow(page)).overflow,
    axe: await seriousAxeViolations(page),
  };
  expect({ dialogFindings, confirmationFindings }).toEqual({
    dialogFindings: { overflow: 0, small: [], axe: [] },
    confirmationFindings: { overflow: 0, axe: [] },
  });
});

test('a lone half counts down to its refund', async ({ alice, bob, carol }) => {
  const deal = await dealWithDealmaker(
    { creator: alice, counterpart: bob, dealmaker: carol },
    {
      title: `Half-paid deal ${uniqueWord('h')}`,
      description: 'One half waits.',
      budget: 300,
      timeline: '1 week',
    },
  );
  await deposit(alice, 150);
  await payEscrowHalf(alice, deal.id);
  const { expiresAt } = await escrowAs(bob, deal.id);
  // The server's deadline (72 hours by default), in the whole hours a clock shows.
  const hours = Math.floor((new Date(expiresAt).getTime() - Date.now()) / 3_600_000);
  expect(hours).toBeGreaterThan(1);
  await bob.page.goto(`/deals/${deal.id}`);
  const escrowBox = bob.page.getByRole('region', { name: 'Escrow Payment Status' });
  await expect(escrowBox.getByText(`Half-payment expires in ${hours} h`)).toBeVisible();
  await expect(escrowBox).toContainText('(refunded unless the other half is paid)');
});
