import { describe, expect, it } from 'vitest';
import {
  completionLine,
  completionMessageTone,
  completionParts,
  markFinishedState,
} from './completion-rules';

const deal = {
  dealer_creator: 'ada',
  dealer_joined: 'bob',
  dealmaker: 'cy',
  is_completed: false,
  completed_by_creator: false,
  completed_by_counterpart: false,
};

describe('markFinishedState', () => {
  it('offers Mark as Finished to a dealer once the deal has a dealmaker', () => {
    expect(markFinishedState(deal, 'ada')).toBe('available');
    expect(markFinishedState(deal, 'Bob')).toBe('available');
  });

  it('turns into a disabled Completed once the own side is done', () => {
    expect(markFinishedState({ ...deal, completed_by_creator: true }, 'ada')).toBe('done');
    expect(markFinishedState({ ...deal, completed_by_creator: true }, 'bob')).toBe('available');
  });

  it('is hidden for the dealmaker, others, without a dealmaker and after completion', () => {
    expect(markFinishedState(deal, 'cy')).toBe('hidden');
    expect(markFinishedState(deal, 'eve')).toBe('hidden');
    expect(markFinishedState({ ...deal, dealmaker: null }, 'ada')).toBe('hidden');
    expect(markFinishedState({ ...deal, is_completed: true }, 'ada')).toBe('hidden');
  });
});

describe('completion texts', () => {
  it('colours messages that say Failed red', () => {
    expect(completionMessageTone('Failed to mark deal as complete. Please try again.')).toBe('error');
    expect(completionMessageTone('Escrow payment has been released to the dealmaker!')).toBe('success');
  });

  it('writes one line per dealer', () => {
    expect(completionLine(true)).toBe('✅ Completed');
    expect(completionLine(false)).toBe('⏳ Pending');
  });
});

describe('completionParts', () => {
  it('splits the spec line into its mark and its word', () => {
    expect(completionParts(true)).toEqual({ mark: '✅', word: 'Completed' });
    expect(completionParts(false)).toEqual({ mark: '⏳', word: 'Pending' });
  });
});
