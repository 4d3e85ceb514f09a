import type { Locator, Page } from '@playwright/test';
import { confirmAction, confirmation } from './support/confirm';
import { type DealSummary, dealWithDealmaker, deposit, uniqueWord } from './support/deals';
import { type Actor, expect, test } from './support/fixtures';
import { horizontalOverflow, seriousAxeViolations, smallTouchTargets } from './support/page-checks';

// Staged escrow on the deal page: the three participants agree on a plan of three milestones in the
// editor, the dealers fund each milestone, the dealmaker submits it; the first is released when both
// dealers approve it, the second by itself when its timer runs out (the journeys' server releases after
// 21.6 s, support/global-setup.ts), and a dispute about the third stops its timer and a settlement of the
// money held ends the deal.

/** Set to a folder (e.g. /tmp) to keep pictures of the Milestones section, on a desktop and a phone. */
const screenshotDir = process.env.MILESTONES_SCREENSHOT_DIR;

/** A picture of the section alone (the sticky navigation bar left out of it). */
async function picture(page: Page, name: string) {
  if (!screenshotDir) return;
  await section(page).screenshot({
    path: `${screenshotDir}/milestones-${name}.png`,
    style: '[role="banner"], header { position: static !important; }',
  });
}

const section = (page: Page) => page.getByRole('region', { name: 'Milestones' });
const milestone = (page: Page, name: string) => section(page).getByRole('listitem', { name });
const research = 'Milestone 1 "Research"';
const design = 'Milestone 2 "Design"';
const launch = 'Milestone 3 "Launch"';

/** One dealer's share on a milestone ("Creator's share" / "Counterpart's share"). */
const share = (item: Locator, label: "Creator's share" | "Counterpart's share") =>
  item.getByRole('listitem').filter({ hasText: label });

async function openDeal(page: Page, deal: DealSummary) {
  await page.goto(`/deals/${deal.id}`);
  await expect(page.getByRole('heading', { level: 1, name: deal.title })).toBeVisible();
  await expect(section(page).getByRole('list', { name: 'Milestones of this deal' })).toBeVisible();
}

/** Pays the viewer's share of a milestone with its button and confirmation; waits for the answer. */
async function payShare(page: Page, name: string, question: string, answer: string) {
  const item = milestone(page, name);
  await item.getByRole('button', { name: 'Pay my share' }).click();
  await expect(confirmation(page)).toContainText(question);
  await confirmAction(page, 'Pay my share');
  await expect(item.getByText(answer)).toBeVisible();
}

async function submitForApproval(page: Page, name: string, note?: string) {
  const item = milestone(page, name);
  await item.getByRole('button', { name: 'Submit for approval' }).click();
  const dialog = page.getByRole('dialog', { name: 'Submit for approval?' });
  await expect(dialog).toBeVisible();
  if (note) await dialog.getByLabel('Note to the dealers (optional)').fill(note);
  await dialog.getByRole('button', { name: 'Submit for approval' }).click();
  await expect(dialog).toBeHidden();
  await expect(
    item.getByText(/^Submitted for approval: milestone \d "[A-Za-z]+" is released to you/),
  ).toBeVisible();
  await expect(item.getByText('Submitted for approval', { exact: true })).toBeVisible();
}

const status = (item: Locator, word: string) => expect(item.getByText(word, { exact: true })).toBeVisible();

async function phoneFindings(page: Page) {
  await page.waitForLoadState('networkidle');
  return {
    overflow: (await horizontalOverflow(page)).overflow,
    small: await smallTouchTargets(page),
    axe: await seriousAxeViolations(page),
  };
}

test('three milestones: agreed in the editor, approved, released by itself, and disputed into a settlement', async ({
  alice,
  bob,
  carol,
}) => {
  test.setTimeout(240_000);
  const [a, b, c] = [alice.user.username, bob.user.username, carol.user.username];
  const people = { creator: alice, counterpart: bob, dealmaker: carol };
  const deal = await dealWithDealmaker(people, {
    title: `Staged market entry ${uniqueWord('m')}`,
    description: 'Research, design and launch, each paid and released on its own.',
    budget: 300.02,
    timeline: '3 months',
  });
  await deposit(alice, 200);
  // Exactly the counterpart's shares of the first two milestones: the third finds the wallet short.
  await deposit(bob, 100.01);
  const [ap, bp, cp] = [alice.page, bob.page, carol.page] as const;
  for (const actor of [alice, bob, carol] as Actor[]) await openDeal(actor.page, deal);

  // ── The plan: the dealmaker writes it in the editor ──
  const whole = milestone(cp, 'Milestone 1 "Whole deal"');
  await expect(whole).toContainText('$300.02');
  await status(whole, 'Open');
  await expect(section(cp).getByText(`Released to @${c} so far: $0.00 of $300.02`)).toBeVisible();
  // Without a plan the dealers pay their halves in the escrow box: no second Pay button here.
  await expect(
    milestone(ap, 'Milestone 1 "Whole deal"').getByRole('button', { name: 'Pay my share' }),
  ).toHaveCount(0);
  await section(cp).getByRole('button', { name: 'Propose a plan' }).click();
  const editor = section(cp).getByRole('form', { name: 'Propose a milestone plan' });
  const remainder = editor.getByText(/left to assign$|over the budget$|^Adds up to the budget/);
  await expect(remainder).toHaveText('$300.02 left to assign');
  await editor.getByRole('button', { name: 'Add milestone' }).click();
  await editor.getByRole('button', { name: 'Add milestone' }).click();
  const row = (n: number) => editor.getByRole('group', { name: `Milestone ${n}` });
  await expect(row(3)).toBeVisible();
  await row(1).getByLabel('Amount ($)').fill('250');
  await expect(remainder).toHaveText('$50.02 left to assign');
  await row(2).getByLabel('Amount ($)').fill('60');
  await expect(remainder).toHaveText('$9.98 over the budget');
  await editor.getByRole('button', { name: 'Split evenly' }).click();
  await expect(row(1).getByLabel('Amount ($)')).toHaveValue('100.01');
  await expect(row(2).getByLabel('Amount ($)')).toHaveValue('100.01');
  await expect(row(3).getByLabel('Amount ($)')).toHaveValue('100.00');
  await expect(remainder).toHaveText('Adds up to the budget of $300.02');
  // The contract's schema speaks before the server: every title is required.
  await editor.getByRole('button', { name: 'Propose plan' }).click();
  await expect(row(1)).toContainText('Title is required');
  await row(1).getByLabel('Title').fill('Research');
  await row(2).getByLabel('Title').fill('Design');
  await row(3).getByLabel('Title').fill('Launch');
  await row(1).getByLabel('Due date (optional)').fill('2027-01-15');
  // The server says by how much a plan misses the budget.
  await row(3).getByLabel('Amount ($)').fill('90');
  await expect(remainder).toHaveText('$10.00 left to assign');
  await editor.getByRole('button', { name: 'Propose plan' }).click();
  await expect(editor.getByRole('alert')).toContainText('Failed to propose the plan');
  await expect(editor.getByRole('alert')).toContainText(
    'The milestones add up to $290.02, $10.00 less than the budget of $300.02.',
  );
  await row(3).getByLabel('Amount ($)').fill('100.00');
  await expect(remainder).toHaveText('Adds up to the budget of $300.02');

  // The Milestones section passes axe with the editor open, on a desktop and on a phone.
  await cp.waitForLoadState('networkidle');
  expect(await seriousAxeViolations(cp)).toEqual([]);
  await cp.setViewportSize({ width: 390, height: 800 });
  await section(cp).scrollIntoViewIfNeeded();
  expect(await phoneFindings(cp)).toEqual({ overflow: 0, small: [], axe: [] });
  await picture(cp, 'phone-editor');
  await cp.setViewportSize({ width: 1280, height: 800 });

  await editor.getByRole('button', { name: 'Propose plan' }).click();
  await expect(section(cp).getByText('Plan proposed', { exact: true })).toBeVisible();
  await expect(editor).toHaveCount(0);
  const proposal = (page: Page) => section(page).getByRole('article', { name: `Plan proposed by @${c}` });
  await expect(proposal(cp)).toContainText(`Accepted by @${c} — waiting for @${a}, @${b}`);
  await expect(proposal(cp)).toContainText('1. ResearchDue January 15, 2027$100.01');
  await expect(proposal(cp).getByRole('button', { name: 'Accept plan' })).toHaveCount(0);
  await expect(proposal(cp).getByRole('button', { name: 'Withdraw' })).toBeVisible();

  // The creator and the counterpart accept; each sees the others' acceptance as it happens.
  await expect(proposal(ap)).toContainText(`Accepted by @${c} — waiting for @${a}, @${b}`);
  await expect(proposal(ap).getByRole('button', { name: 'Withdraw' })).toHaveCount(0);
  await proposal(ap).getByRole('button', { name: 'Accept plan' }).click();
  await expect(section(ap).getByText('Plan accepted', { exact: true })).toBeVisible();
  await expect(proposal(ap)).toContainText(`Accepted by @${c}, @${a} — waiting for @${b}`);
  await expect(proposal(ap).getByRole('button', { name: 'Accept plan' })).toHaveCount(0);
  await expect(proposal(bp)).toContainText(`Accepted by @${c}, @${a} — waiting for @${b}`);
  await expect(proposal(cp)).toContainText(`Accepted by @${c}, @${a} — waiting for @${b}`);
  await proposal(bp).getByRole('button', { name: 'Accept plan' }).click();
  await expect(section(bp).getByText('Everyone accepted: the deal is paid in 3 milestones')).toBeVisible();
  for (const page of [ap, bp, cp]) {
    await expect(
      section(page).getByRole('list', { name: 'Milestones of this deal' }).locator('> li'),
    ).toHaveCount(3);
    await expect(proposal(page)).toHaveCount(0);
    // Until money is paid, another plan may still replace it.
    await expect(section(page).getByRole('button', { name: 'Propose a different plan' })).toBeVisible();
  }
  await section(ap).getByText('Earlier proposals (1)').click();
  await expect(
    section(ap).getByRole('listitem', { name: new RegExp(`^Plan proposed by @${c} on `) }),
  ).toContainText('Agreed by everyone');
  await expect(milestone(ap, research)).toContainText('Due January 15, 2027');
  await expect(share(milestone(ap, research), "Creator's share")).toContainText(`@${a}(you)$50.01Not paid`);
  await expect(share(milestone(ap, research), "Counterpart's share")).toContainText(`@${b}$50.00Not paid`);
  // The odd cents alternate: the creator's on the first milestone, the counterpart's on the second.
  await expect(share(milestone(ap, design), "Creator's share")).toContainText('$50.00');
  await expect(share(milestone(ap, design), "Counterpart's share")).toContainText('$50.01');
  await expect(milestone(ap, launch)).toContainText('$100.00');

  // ── Milestone 1: funded by both, submitted, approved by both: released ──
  // Milestones are funded in order: only the first can be paid.
  await expect(milestone(ap, design).getByRole('button', { name: 'Pay my share' })).toHaveCount(0);
  await payShare(
    ap,
    research,
    `Pay $50.01 from your wallet into escrow for Milestone 1 "Research" of '${deal.title}'. Balance after: $149.99.`,
    'Your share ($50.01) of milestone 1 "Research" has been paid successfully. Waiting for the other party.',
  );
  await expect(share(milestone(ap, research), "Creator's share")).toContainText('Paid');
  await expect(milestone(ap, research).getByRole('button', { name: 'Take my share back' })).toBeVisible();
  await expect(milestone(ap, research)).toContainText(
    /The paid share is refunded by itself in 2 days 23 hours unless the other share is paid/,
  );
  await expect(share(milestone(bp, research), "Creator's share")).toContainText(`@${a}$50.01Paid`);
  await payShare(
    bp,
    research,
    `Pay $50.00 from your wallet into escrow for Milestone 1 "Research" of '${deal.title}'. Balance after: $50.01.`,
    'Both shares of milestone 1 "Research" are paid: it is funded.',
  );
  await status(milestone(bp, research), 'Funded');
  await status(milestone(cp, research), 'Funded');

  await submitForApproval(cp, research, 'The market study is in the shared folder.');
  for (const page of [ap, bp]) {
    const item = milestone(page, research);
    await status(item, 'Submitted for approval');
    await expect(item).toContainText(`Note from @${c}The market study is in the shared folder.`);
    await expect(item.getByText(/^Released by itself in \d+ seconds$/)).toBeVisible();
  }
  await expect(milestone(ap, research).getByText(`Waiting for @${a} and @${b} to approve`)).toBeVisible();
  await picture(bp, 'desktop-submitted');
  await milestone(ap, research).getByRole('button', { name: 'Approve' }).click();
  await expect(confirmation(ap)).toContainText(
    `Approve Milestone 1 "Research" as delivered. Once @${b} approves it too, its $100.01 is released to @${c}. This cannot be undone.`,
  );
  await confirmAction(ap, 'Approve');
  await expect(
    milestone(ap, research).getByText(
      'You approved milestone 1 "Research". It is released once the other dealer approves it too.',
    ),
  ).toBeVisible();
  await expect(milestone(bp, research).getByText(`Approved by @${a} — waiting for @${b}`)).toBeVisible();
  await milestone(bp, research).getByRole('button', { name: 'Approve' }).click();
  await expect(confirmation(bp)).toContainText(
    `@${a} already approved it: its $100.01 is released to @${c} at once. This cannot be undone.`,
  );
  await confirmAction(bp, 'Approve');
  await expect(
    milestone(bp, research).getByText(
      'Both dealers approved: milestone 1 "Research" ($100.01) was released to the dealmaker.',
    ),
  ).toBeVisible();
  for (const page of [ap, bp, cp]) {
    await status(milestone(page, research), 'Released');
    await expect(section(page).getByText(`Released to @${c} so far: $100.01 of $300.02`)).toBeVisible();
  }
  await expect(milestone(cp, research).getByText(`Approved by @${a} and @${b}`)).toBeVisible();
  await picture(ap, 'desktop-released');

  // The dealmaker's wallet names the milestone paid.
  await cp.goto('/deposit');
  const newest = cp
    .getByRole('listitem')
    .filter({ has: cp.getByText(/^Balance: \$/) })
    .first();
  await expect(newest).toContainText(`Payment received for "${deal.title}": milestone 1 "Research"`);
  await expect(newest).toContainText('+$100.01');
  await openDeal(cp, deal);

  // ── Milestone 2: funded and submitted; nobody approves: it is released by itself ──
  await payShare(
    ap,
    design,
    `Pay $50.00 from your wallet into escrow for Milestone 2 "Design" of '${deal.title}'. Balance after: $99.99.`,
    'Your share ($50.00) of milestone 2 "Design" has been paid successfully. Waiting for the other party.',
  );
  await payShare(
    bp,
    design,
    `Pay $50.01 from your wallet into escrow for Milestone 2 "Design" of '${deal.title}'. Balance after: $0.00.`,
    'Both shares of milestone 2 "Design" are paid: it is funded.',
  );
  await submitForApproval(cp, design);
  const countdown = milestone(ap, design).getByText(/^Released by itself in \d+ seconds$/);
  await expect(countdown).toBeVisible();
  const first = await countdown.textContent();
  await expect(countdown).not.toHaveText(first ?? '');
  // Its timer runs out; the release arrives live on every page.
  for (const page of [ap, bp, cp]) {
    await expect(section(page).getByText(`Released to @${c} so far: $200.02 of $300.02`)).toBeVisible({
      timeout: 45_000,
    });
    await status(milestone(page, design), 'Released');
  }
  await expect(milestone(ap, design)).toContainText(new RegExp(`Released to @${c} on `));
  await expect(milestone(ap, design).getByText(/^Approved by/)).toHaveCount(0);

  // ── Milestone 3: the counterpart's wallet is short; then funded, submitted, disputed, settled ──
  await payShare(
    ap,
    launch,
    `Pay $50.00 from your wallet into escrow for Milestone 3 "Launch" of '${deal.title}'. Balance after: $49.99.`,
    'Your share ($50.00) of milestone 3 "Launch" has been paid successfully. Waiting for the other party.',
  );
  await milestone(bp, launch).getByRole('button', { name: 'Pay my share' }).click();
  await expect(confirmation(bp)).toContainText('Your balance is $0.00: you need $50.00. Deposit first.');
  await expect(confirmation(bp).getByRole('button', { name: 'Pay my share' })).toBeDisabled();
  await expect(confirmation(bp).getByRole('link', { name: 'Deposit first' })).toHaveAttribute(
    'href',
    '/deposit',
  );
  await confirmation(bp).getByRole('button', { name: 'Cancel' }).click();
  await deposit(bob, 50);
  await openDeal(bp, deal);
  await payShare(
    bp,
    launch,
    `Pay $50.00 from your wallet into escrow for Milestone 3 "Launch" of '${deal.title}'. Balance after: $0.00.`,
    // The last milestone funded locks the whole escrow: the spec's words.
    'Both parties have paid! Money is now locked in escrow until deal completion.',
  );
  await submitForApproval(cp, launch, 'Launch campaign delivered.');

  // The creator raises a dispute from the milestone: the dispute form opens with its title filled in.
  await milestone(ap, launch).getByRole('button', { name: 'Raise a dispute' }).click();
  const disputes = ap.getByRole('dialog', { name: 'Deal Disputes' });
  const raise = disputes.getByRole('form', { name: 'Raise New Dispute' });
  await expect(raise.getByLabel('Title')).toHaveValue(launch);
  await raise.getByLabel('Description').fill('The campaign ran one week instead of four.');
  await raise.getByRole('button', { name: 'Submit Dispute' }).click();
  await expect(disputes.getByText('Dispute created successfully')).toBeVisible();
  const card = disputes.getByRole('article', { name: launch });
  await expect(card).toBeVisible();

  // The dispute stops the timer on every page (behind the creator's open dialog too), and approvals wait.
  for (const page of [bp, cp]) {
    await expect(milestone(page, launch).getByText('Timer stopped: a dispute is open')).toBeVisible();
  }
  await expect(milestone(bp, launch).getByRole('button', { name: 'Approve' })).toHaveCount(0);

  // A settlement splits the money held (milestone 3's $100.00): proposed by the creator, accepted by all.
  await card.getByRole('button', { name: 'Propose a split' }).click();
  const form = card.getByRole('form', { name: 'Propose a settlement' });
  await form.getByLabel('To the dealmaker ($)').fill('60');
  const splitValue = (scope: Locator, label: string) =>
    scope.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
  await expect(splitValue(form, 'To the dealmaker')).toHaveText('$60.00');
  await expect(splitValue(form, 'Refund to the creator')).toHaveText('$20.00');
  await expect(splitValue(form, 'Refund to the counterpart')).toHaveText('$20.00');
  await form.getByRole('button', { name: 'Propose', exact: true }).click();
  await expect(confirmation(ap)).toContainText(
    `Propose to split the escrow of '${deal.title}' ($100.00): $60.00 to the dealmaker (@${c}), $20.00 back to @${a}, $20.00 back to @${b}. It replaces the open proposal, and settles once all three of you accept it.`,
  );
  await confirmAction(ap, 'Propose settlement');
  await expect(disputes.getByText('Settlement proposed')).toBeVisible();
  await ap.keyboard.press('Escape');
  await expect(disputes).toBeHidden();
  await expect(milestone(ap, launch).getByText('Timer stopped: a dispute is open')).toBeVisible();
  await expect(milestone(ap, launch).getByRole('button', { name: 'Approve' })).toHaveCount(0);

  for (const [page, last] of [
    [cp, false],
    [bp, true],
  ] as const) {
    await page.getByRole('button', { name: 'Manage Disputes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deal Disputes' });
    const theirs = dialog
      .getByRole('article', { name: launch })
      .getByRole('listitem', { name: `Proposal by @${a}` });
    await theirs.getByRole('button', { name: 'Accept' }).click();
    await expect(confirmation(page)).toContainText(
      `Accept splitting the escrow of '${deal.title}' ($100.00): $60.00 to the dealmaker (@${c}), $20.00 back to @${a}, $20.00 back to @${b}.`,
    );
    await confirmAction(page, 'Accept settlement');
    await expect(
      dialog.getByText(last ? 'Everyone accepted: the escrow was settled' : 'Settlement accepted'),
    ).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }

  // The deal is completed by the settlement; the milestones say how each ended; reviews open.
  for (const page of [ap, bp, cp]) {
    await expect(page.getByRole('region', { name: 'Deal Completed' })).toContainText(
      "A dispute's settlement completed this deal",
    );
    await status(milestone(page, research), 'Released');
    await status(milestone(page, design), 'Released');
    await status(milestone(page, launch), 'Settled');
    await expect(milestone(page, launch).getByText('Timer stopped: a dispute is open')).toHaveCount(0);
    await expect(section(page).getByText(`Released to @${c} so far: $200.02 of $300.02`)).toBeVisible();
    await expect(section(page).getByRole('button')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Leave Reviews' })).toBeVisible();
  }
  await expect(
    ap.getByRole('region', { name: 'Escrow Payment Status' }).getByText('Settled', { exact: true }),
  ).toBeVisible();

  // The finished section: axe-clean, and on a phone nothing sticks out (loaded afresh: without the
  // notification toasts of the settlement, whose close buttons are not the page's).
  await openDeal(ap, deal);
  await ap.waitForLoadState('networkidle');
  expect(await seriousAxeViolations(ap)).toEqual([]);
  await ap.setViewportSize({ width: 390, height: 800 });
  await section(ap).scrollIntoViewIfNeeded();
  expect(await phoneFindings(ap)).toEqual({ overflow: 0, small: [], axe: [] });
  await picture(ap, 'phone-settled');
});
