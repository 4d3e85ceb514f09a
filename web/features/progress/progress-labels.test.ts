import { describe, expect, it } from 'vitest';
import type { ProgressItem } from '../../../contract/progress';
import { inStepOrder, progressActions, statusWords } from './progress-labels';

describe('progress labels', () => {
  it('offers the moves of each status; completed is final', () => {
    expect(progressActions('pending').map((a) => a.label)).toEqual(['Start Progress']);
    expect(progressActions('in_progress')).toEqual([
      { label: 'Mark Complete', to: 'completed' },
      { label: 'Reset to Pending', to: 'pending' },
    ]);
    expect(progressActions('completed')).toEqual([]);
  });

  it('writes statuses in words and orders items by step', () => {
    expect(statusWords('in_progress')).toBe('in progress');
    const item = (id: number, position: number) => ({ id, position }) as ProgressItem;
    expect(inStepOrder([item(3, 2), item(1, 1), item(2, 3)]).map((i) => i.id)).toEqual([1, 3, 2]);
  });
});
