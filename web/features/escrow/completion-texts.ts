/** Spec §8: the completion message is red when it says something failed. */
export function completionMessageTone(message: string): 'success' | 'error' {
  return /failed/i.test(message) ? 'error' : 'success';
}

export const completionFailed = 'Failed to mark deal as complete. Please try again.';

/** '✅ Completed' or '⏳ Pending', per dealer (spec §2 Participants box). */
export const completionLine = (done: boolean) => (done ? '✅ Completed' : '⏳ Pending');

/**
 * A dealer's side once a dispute's settlement completed the deal without their mark (`deal.settled`):
 * not pending, since nothing is awaited from them any more.
 */
export const settledLine = 'Settled';

/** What a dealer's 'Marked as Complete' line says: their mark, or for a settled deal without it, Settled. */
export const completionState = (done: boolean, settled: boolean): 'completed' | 'pending' | 'settled' =>
  done ? 'completed' : settled ? 'settled' : 'pending';

/** The spec's line split into its mark and its word, so the mark can be drawn as an icon. */
export const completionParts = (done: boolean) => {
  const [mark = '', ...words] = completionLine(done).split(' ');
  return { mark, word: words.join(' ') };
};
