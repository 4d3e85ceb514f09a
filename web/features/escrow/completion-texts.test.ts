import { describe, expect, it } from 'vitest';
import { completionLine, completionMessageTone, completionParts, completionState } from './completion-texts';

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

describe('completionState', () => {
  it('says Settled, not Pending, for a side without its mark once a settlement completed the deal', () => {
    expect(completionState(false, true)).toBe('settled');
    expect(completionState(true, true)).toBe('completed');
    expect(completionState(false, false)).toBe('pending');
    expect(completionState(true, false)).toBe('completed');
  });
});
