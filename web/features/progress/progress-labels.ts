import type { ProgressItem, ProgressStatus } from '../../../contract/progress';

/** 'in_progress' → 'in progress'. */
export const statusWords = (status: string) => status.replace(/_/g, ' ');

export const progressStatusLabels: Record<ProgressStatus, string> = {
  pending: 'Pending',
  in_progress: 'In Progress',
  completed: 'Completed',
};

/** The buttons an item offers the dealmaker (spec §4 Progress item); completed is final. */
export function progressActions(status: ProgressStatus): Array<{ label: string; to: ProgressStatus }> {
  if (status === 'pending') return [{ label: 'Start Progress', to: 'in_progress' }];
  if (status === 'in_progress') {
    return [
      { label: 'Mark Complete', to: 'completed' },
      { label: 'Reset to Pending', to: 'pending' },
    ];
  }
  return [];
}

/** Items in their 'Step N' order. */
export const inStepOrder = (items: ProgressItem[]) =>
  [...items].sort((a, b) => a.position - b.position || a.id - b.id);
