import { describe, expect, it } from 'vitest';
import { milestoneStatuses } from '../../../contract/milestones';
import {
  acceptanceText,
  acceptedByText,
  approvalText,
  autoReleaseText,
  awaitsAcceptanceOf,
  disputeTitleOf,
  dueDateText,
  durationText,
  loneShareText,
  milestoneLabel,
  milestoneStatusWords,
  releasedText,
  totalCentsOf,
} from './milestone-texts';

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;
const day = 24 * hour;
const now = new Date('2026-03-01T12:00:00.000Z');
const at = (ms: number) => new Date(now.getTime() + ms).toISOString();

describe('milestoneStatusWords', () => {
  it('has words for every status the contract knows', () => {
    expect(milestoneStatuses.map((status) => milestoneStatusWords[status])).toEqual([
      'Open',
      'Funded',
      'Submitted for approval',
      'Released',
      'Refunded',
      'Settled',
    ]);
  });
});

describe('durationText', () => {
  it('says the two largest units, as a clock counting down shows them', () => {
    expect(durationText(13 * day + 4 * hour + 59 * minute)).toBe('13 days 4 hours');
    expect(durationText(5 * hour + 12 * minute + 30 * second)).toBe('5 hours 12 minutes');
    expect(durationText(3 * minute + 9 * second + 999)).toBe('3 minutes 9 seconds');
    expect(durationText(42 * second + 500)).toBe('42 seconds');
  });

  it('leaves out a unit at zero, and says one in the singular', () => {
    expect(durationText(2 * day + 30 * minute)).toBe('2 days');
    expect(durationText(day + hour)).toBe('1 day 1 hour');
    expect(durationText(hour + 5 * second)).toBe('1 hour');
    expect(durationText(minute + second)).toBe('1 minute 1 second');
    expect(durationText(0)).toBe('0 seconds');
    expect(durationText(-5000)).toBe('0 seconds');
  });
});

describe('autoReleaseText', () => {
  it('counts down to the release while submitted', () => {
    expect(autoReleaseText(at(13 * day + 4 * hour + 10 * second), now)).toBe(
      'Released by itself in 13 days 4 hours',
    );
    expect(autoReleaseText(at(7 * second + 200), now)).toBe('Released by itself in 7 seconds');
  });

  it('says the release is due once the time is up, and that the timer stopped while a dispute holds it', () => {
    expect(autoReleaseText(at(400), now)).toBe('Released by itself any moment now');
    expect(autoReleaseText(at(-3 * second), now)).toBe('Released by itself any moment now');
    expect(autoReleaseText(null, now)).toBe('Timer stopped: a dispute is open');
  });
});

describe('loneShareText', () => {
  it('says when a share waiting alone goes back to its payer', () => {
    expect(loneShareText(at(71 * hour + 59 * minute), now)).toBe(
      'The paid share is refunded by itself in 2 days 23 hours unless the other share is paid',
    );
    expect(loneShareText(at(-1), now)).toBe('The paid share is refunded any moment now');
    expect(loneShareText(null, now)).toBeNull();
  });
});

describe('names', () => {
  it('names a milestone by its position and title, also as a dispute title within its length', () => {
    expect(milestoneLabel({ position: 2, title: 'Design' })).toBe('Milestone 2 "Design"');
    expect(disputeTitleOf({ position: 2, title: 'Design' })).toBe('Milestone 2 "Design"');
    const long = disputeTitleOf({ position: 12, title: 'x'.repeat(200) });
    expect(long).toHaveLength(200);
    expect(long.startsWith('Milestone 12 "xxx')).toBe(true);
    expect(long.endsWith('x…"')).toBe(true);
  });
});

describe('dueDateText', () => {
  it('shows a date alone as that calendar date, and a date with a time as such', () => {
    expect(dueDateText('2027-01-15T00:00:00.000Z')).toBe('Due January 15, 2027');
    // Shown in the viewer's time zone: the day may differ by one far from Greenwich.
    expect(dueDateText('2027-01-15T12:30:00.000Z')).toMatch(/^Due Jan 1[456], 2027, \d{1,2}:\d{2} [AP]M$/);
  });
});

describe('approvalText', () => {
  const dealers = { creator: 'ada', counterpart: 'bob' };
  const submitted = { status: 'submitted' as const, creatorApproved: false, counterpartApproved: false };

  it('says who approved a submitted milestone and who it waits for', () => {
    expect(approvalText(submitted, dealers)).toBe('Waiting for @ada and @bob to approve');
    expect(approvalText({ ...submitted, creatorApproved: true }, dealers)).toBe(
      'Approved by @ada — waiting for @bob',
    );
    expect(approvalText({ ...submitted, counterpartApproved: true }, dealers)).toBe(
      'Approved by @bob — waiting for @ada',
    );
  });

  it('keeps who approved a released milestone, and says nothing otherwise', () => {
    expect(
      approvalText({ status: 'released', creatorApproved: true, counterpartApproved: true }, dealers),
    ).toBe('Approved by @ada and @bob');
    expect(approvalText({ ...submitted, status: 'released' }, dealers)).toBeNull();
    expect(approvalText({ ...submitted, status: 'funded' }, dealers)).toBeNull();
  });
});

describe('releasedText', () => {
  it('says what the dealmaker received of the whole', () => {
    expect(releasedText('cy', 100.01, 300.02)).toBe('Released to @cy so far: $100.01 of $300.02');
    expect(releasedText('cy', 0, 1_000_000)).toBe('Released to @cy so far: $0.00 of $1,000,000.00');
  });

  it('adds the milestones up in cents', () => {
    expect(totalCentsOf([{ amount: 0.1 }, { amount: 0.2 }, { amount: 100.01 }])).toBe(10_031);
  });
});

describe('acceptanceText', () => {
  const participants = ['ada', 'bob', 'cy'];

  it('says who accepted, in their order, and who the plan waits for, in the deal’s order', () => {
    expect(acceptanceText({ acceptedBy: ['cy'] }, participants)).toBe(
      'Accepted by @cy — waiting for @ada, @bob',
    );
    expect(acceptanceText({ acceptedBy: ['cy', 'Ada'] }, participants)).toBe(
      'Accepted by @cy, @Ada — waiting for @bob',
    );
    expect(acceptanceText({ acceptedBy: ['cy', 'ada', 'bob'] }, participants)).toBe(
      'Accepted by @cy, @ada, @bob',
    );
    expect(acceptedByText({ acceptedBy: ['bob', 'ada'] })).toBe('Accepted by @bob, @ada');
  });

  it('knows whether the viewer has yet to accept, case-insensitively', () => {
    expect(awaitsAcceptanceOf({ acceptedBy: ['cy'] }, 'ada')).toBe(true);
    expect(awaitsAcceptanceOf({ acceptedBy: ['cy', 'ADA'] }, 'ada')).toBe(false);
  });
});
