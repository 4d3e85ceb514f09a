import { describe, expect, it } from 'vitest';
import type { DealCan } from '../../../contract/deals';
import { nothingAllowed } from '../../../contract/vocabulary';
import { markFinishedState } from './mark-finished-state';

const deal = {
  is_completed: false,
  completed_by_creator: false,
  completed_by_counterpart: false,
  can: nothingAllowed,
};
const offered = { ...deal, can: { markFinished: true } satisfies DealCan };

describe('markFinishedState', () => {
  it('offers Mark as Finished when the server allows it', () => {
    expect(markFinishedState(offered, { role: 'creator' })).toBe('available');
    expect(markFinishedState(offered, { role: 'counterpart' })).toBe('available');
  });

  it('turns into a disabled Completed once the own side is done', () => {
    expect(markFinishedState({ ...deal, completed_by_creator: true }, { role: 'creator' })).toBe('done');
    expect(markFinishedState({ ...offered, completed_by_creator: true }, { role: 'counterpart' })).toBe(
      'available',
    );
  });

  it('is hidden when the server does not offer it, and after completion', () => {
    expect(markFinishedState(deal, { role: 'dealmaker' })).toBe('hidden');
    expect(markFinishedState(deal, { role: null })).toBe('hidden');
    expect(markFinishedState(deal, { role: 'creator' })).toBe('hidden');
    expect(
      markFinishedState({ ...deal, is_completed: true, completed_by_creator: true }, { role: 'creator' }),
    ).toBe('hidden');
  });
});
