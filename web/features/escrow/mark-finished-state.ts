import type { Deal } from '../../../contract/deals';
import type { DealViewer } from '../deals';

export type MarkFinishedState =
  /** Not offered: not a dealer, no dealmaker yet, or the deal is complete. */
  | 'hidden'
  /** 'Mark as Finished' can be clicked. */
  | 'available'
  /** The viewer's own side is done: a disabled 'Completed'. */
  | 'done';

/**
 * Spec §6: Mark as Finished as the server offers it (`can.markFinished`); once the viewer's own mark is
 * given, until the deal completes, a disabled Completed in its place.
 */
export function markFinishedState(
  deal: Pick<Deal, 'can' | 'is_completed' | 'completed_by_creator' | 'completed_by_counterpart'>,
  viewer: Pick<DealViewer, 'role'>,
): MarkFinishedState {
  if (deal.can.markFinished) return 'available';
  if (deal.is_completed) return 'hidden';
  const ownMark =
    viewer.role === 'creator'
      ? deal.completed_by_creator
      : viewer.role === 'counterpart' && deal.completed_by_counterpart;
  return ownMark ? 'done' : 'hidden';
}
