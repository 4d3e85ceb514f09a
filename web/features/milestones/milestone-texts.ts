import { limits } from '../../../contract/limits';
import type { Milestone, MilestonePlan, MilestoneStatus } from '../../../contract/milestones';
import { amountToCents, formatUsdCents } from '../../../contract/money';
import type { BadgeTone } from '../../components/ui/badge';
import { sameUser } from '../../lib/same-user';
import { formatCalendarDate, formatDateTime } from '../../lib/time';

/** What the Milestones section says, in words: pure functions of the milestones, the plans and the time. */

/** A milestone's status as its badge says it. */
export const milestoneStatusWords: Record<MilestoneStatus, string> = {
  open: 'Open',
  funded: 'Funded',
  submitted: 'Submitted for approval',
  released: 'Released',
  refunded: 'Refunded',
  settled: 'Settled',
};

export const milestoneStatusTones: Record<MilestoneStatus, BadgeTone> = {
  open: 'neutral',
  funded: 'indigo',
  submitted: 'amber',
  released: 'green',
  refunded: 'neutral',
  settled: 'green',
};

/** 'Milestone 2 "Design"': how a milestone is named on its row, in its dialogs and in a dispute's title. */
export const milestoneLabel = (milestone: Pick<Milestone, 'position' | 'title'>) =>
  `Milestone ${milestone.position} "${milestone.title}"`;

/** The title a dispute raised from a milestone starts with, within a dispute title's length. */
export function disputeTitleOf(milestone: Pick<Milestone, 'position' | 'title'>): string {
  const label = milestoneLabel(milestone);
  const max = limits.dispute.title.max;
  return label.length <= max ? label : `${label.slice(0, max - 2)}…"`;
}

const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;

/**
 * A time left as a clock counting down shows it, in its two largest units: '13 days 4 hours',
 * '5 hours 12 minutes', '3 minutes 9 seconds', '42 seconds' (a unit at zero is left out: '2 days').
 */
export function durationText(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const parts: Array<[number, string]> = [
    [Math.floor(seconds / 86_400), 'day'],
    [Math.floor(seconds / 3600) % 24, 'hour'],
    [Math.floor(seconds / 60) % 60, 'minute'],
    [seconds % 60, 'second'],
  ];
  const first = parts.findIndex(([count]) => count > 0);
  if (first === -1) return plural(0, 'second');
  return parts
    .slice(first, first + 2)
    .filter(([count]) => count > 0)
    .map(([count, unit]) => plural(count, unit))
    .join(' ');
}

/** Said while a submitted milestone's timer is stopped (a dispute is open: `autoReleaseAt` is null). */
export const timerStoppedText = 'Timer stopped: a dispute is open';

/** A submitted milestone's auto-release, counting down: 'Released by itself in 13 days 4 hours'. */
export function autoReleaseText(autoReleaseAt: string | null, now: Date): string {
  if (!autoReleaseAt) return timerStoppedText;
  const left = Date.parse(autoReleaseAt) - now.getTime();
  if (Number.isNaN(left)) return timerStoppedText;
  return left < 1000 ? 'Released by itself any moment now' : `Released by itself in ${durationText(left)}`;
}

/** While one share waits alone for the other: when it goes back to its payer. Null without a deadline. */
export function loneShareText(expiresAt: string | null, now: Date): string | null {
  if (!expiresAt) return null;
  const left = Date.parse(expiresAt) - now.getTime();
  if (Number.isNaN(left)) return null;
  return left < 1000
    ? 'The paid share is refunded any moment now'
    : `The paid share is refunded by itself in ${durationText(left)} unless the other share is paid`;
}

/**
 * A due date as the API answers it: a date alone comes back as midnight UTC and is shown as that
 * calendar date ('Due January 15, 2027', wherever the viewer is); a date and time as such.
 */
export function dueDateText(dueDate: string): string {
  const calendar = /^(\d{4}-\d{2}-\d{2})T00:00:00(?:\.000)?Z$/.exec(dueDate);
  return `Due ${calendar ? formatCalendarDate(calendar[1]!) : formatDateTime(dueDate)}`;
}

/** The deal's two dealers, by username. */
export type Dealers = { creator: string; counterpart: string };

const tagged = (names: string[]) => names.map((name) => `@${name}`);
const andList = (names: string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

/**
 * Who approved a submitted (or released) milestone: 'Approved by @alice — waiting for @bob',
 * 'Approved by @alice and @bob', or while nobody has, 'Waiting for @alice and @bob to approve'. Null
 * when approvals do not apply (not submitted, and released without them).
 */
export function approvalText(
  milestone: Pick<Milestone, 'status' | 'creatorApproved' | 'counterpartApproved'>,
  dealers: Dealers,
): string | null {
  const approved = [
    ...(milestone.creatorApproved ? [dealers.creator] : []),
    ...(milestone.counterpartApproved ? [dealers.counterpart] : []),
  ];
  const waiting = [
    ...(milestone.creatorApproved ? [] : [dealers.creator]),
    ...(milestone.counterpartApproved ? [] : [dealers.counterpart]),
  ];
  if (milestone.status !== 'submitted') {
    return milestone.status === 'released' && approved.length > 0
      ? `Approved by ${andList(tagged(approved))}`
      : null;
  }
  if (approved.length === 0) return `Waiting for ${andList(tagged(waiting))} to approve`;
  if (waiting.length === 0) return `Approved by ${andList(tagged(approved))}`;
  return `Approved by ${andList(tagged(approved))} — waiting for ${andList(tagged(waiting))}`;
}

/** 'Released to @carol so far: $100.01 of $300.02'. */
export function releasedText(dealmaker: string, released: number, total: number): string {
  return `Released to @${dealmaker} so far: ${formatUsdCents(amountToCents(released))} of ${formatUsdCents(
    amountToCents(total),
  )}`;
}

/** The sum of the milestones' amounts in cents (the deal's budget, as the plan divides it). */
export const totalCentsOf = (milestones: ReadonlyArray<Pick<Milestone, 'amount'>>) =>
  milestones.reduce((sum, milestone) => sum + amountToCents(milestone.amount), 0);

/**
 * Who accepted a plan, and who it still waits for, the participants in the deal's order (creator,
 * counterpart, dealmaker): 'Accepted by @a, @b — waiting for @c'; 'Accepted by @a, @b, @c' once all did.
 */
export function acceptanceText(plan: Pick<MilestonePlan, 'acceptedBy'>, participants: string[]): string {
  const waiting = participants.filter((name) => !plan.acceptedBy.some((other) => sameUser(other, name)));
  const accepted = acceptedByText(plan);
  return waiting.length === 0 ? accepted : `${accepted} — waiting for ${tagged(waiting).join(', ')}`;
}

/** 'Accepted by @a, @b': who accepted a plan (for one no longer open, without whom it waited for). */
export const acceptedByText = (plan: Pick<MilestonePlan, 'acceptedBy'>) =>
  `Accepted by ${tagged(plan.acceptedBy).join(', ')}`;

/** Whether the viewer has yet to accept the plan. */
export const awaitsAcceptanceOf = (plan: Pick<MilestonePlan, 'acceptedBy'>, username: string) =>
  !plan.acceptedBy.some((name) => sameUser(name, username));

/** What became of an earlier proposal, in the history's words. */
export const planStatusWords: Record<MilestonePlan['status'], string> = {
  open: 'Waiting for acceptance',
  accepted: 'Agreed by everyone',
  superseded: 'Superseded by a newer proposal',
  withdrawn: 'Withdrawn by its proposer',
};
