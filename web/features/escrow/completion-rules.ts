import type { Deal } from '../../../contract/deals';
import { dealViewerOf } from '../deals';

type CompletionFields = Pick<
  Deal,
  | 'dealer_creator'
  | 'dealer_joined'
  | 'dealmaker'
  | 'is_completed'
  | 'completed_by_creator'
  | 'completed_by_counterpart'
>;

export type MarkFinishedState =
  /** Not offered: not a dealer, no dealmaker yet, or the deal is complete. */
  | 'hidden'
  /** 'Mark as Finished' can be clicked. */
  | 'available'
  /** The viewer's own side is done: a disabled 'Completed'. */
  | 'done';

/** Spec §6: Mark as Finished shows only to a dealer when the deal has a dealmaker and is not complete. */
export function markFinishedState(deal: CompletionFields, username: string): MarkFinishedState {
  const { role, isDealer } = dealViewerOf(deal, username);
  if (!isDealer || !deal.dealmaker || deal.is_completed) return 'hidden';
  const done = role === 'creator' ? deal.completed_by_creator : deal.completed_by_counterpart;
  return done ? 'done' : 'available';
}

/** Spec §8: the completion message is red when it says something failed. */
export function completionMessageTone(message: string): 'success' | 'error' {
  return /failed/i.test(message) ? 'error' : 'success';
}

export const completionFailed = 'Failed to mark deal as complete. Please try again.';

/** '✅ Completed' or '⏳ Pending', per dealer (spec §2 Participants box). */
export const completionLine = (done: boolean) => (done ? '✅ Completed' : '⏳ Pending');

/** The spec's line split into its mark and its word, so the mark can be drawn as an icon. */
export const completionParts = (done: boolean) => {
  const [mark = '', ...words] = completionLine(done).split(' ');
  return { mark, word: words.join(' ') };
};
