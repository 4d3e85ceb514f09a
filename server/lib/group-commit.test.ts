import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit';

/** A write that records its batches and waits for the test to let it finish. */
function recordingWrites() {
  const batches: string[][] = [];
  const finishers: Array<() => void> = [];
  const commit = new GroupCommit<string, string>({
    maxTogether: 3,
    together: (first, next) => first[0] === next[0],
    write: async (batch) => {
      batches.push(batch.map((pending) => pending.item));
      await new Promise<void>((resolve) => finishers.push(resolve));
      for (const pending of batch) {
        if (pending.item.endsWith('!')) throw new Error(`failed at ${pending.item}`);
        pending.resolve(`stored ${pending.item}`);
      }
    },
  });
  const finishNext = async () => {
    while (finishers.length === 0) await new Promise((resolve) => setImmediate(resolve));
    finishers.shift()!();
  };
  return { commit, batches, finishNext };
}

describe('GroupCommit', () => {
  it('writes the first item alone, then those that came meanwhile together, in order and by prefix', async () => {
    const { commit, batches, finishNext } = recordingWrites();
    const answers = ['a1', 'a2', 'a3', 'b1', 'a4', 'a5', 'a6'].map((item) => commit.add('key', item));
    for (let i = 0; i < 4; i++) await finishNext();
    expect(await Promise.all(answers)).toEqual([
      'stored a1',
      'stored a2',
      'stored a3',
      'stored b1',
      'stored a4',
      'stored a5',
      'stored a6',
    ]);
    // a1 alone; then a2 a3 (b1 may not join them); b1 (a4 may not join it); a4 a5 a6.
    expect(batches).toEqual([['a1'], ['a2', 'a3'], ['b1'], ['a4', 'a5', 'a6']]);
  });

  it('keeps keys apart and never holds more than maxTogether in one write', async () => {
    const { commit, batches, finishNext } = recordingWrites();
    const answers = [
      ...['a1', 'a2', 'a3', 'a4', 'a5'].map((item) => commit.add('one', item)),
      commit.add('two', 'a9'),
    ];
    for (let i = 0; i < 4; i++) await finishNext();
    await Promise.all(answers);
    expect(batches).toEqual([['a1'], ['a9'], ['a2', 'a3', 'a4'], ['a5']]);
  });

  it('fails only the items a failing write left unanswered, and goes on with the queue', async () => {
    const { commit, finishNext } = recordingWrites();
    const first = commit.add('key', 'a1');
    const together = Promise.allSettled(['a2', 'a3!', 'a4'].map((item) => commit.add('key', item)));
    const after = commit.add('key', 'a5');
    for (let i = 0; i < 3; i++) await finishNext();
    expect(await first).toBe('stored a1');
    expect(await together).toEqual([
      { status: 'fulfilled', value: 'stored a2' },
      { status: 'rejected', reason: new Error('failed at a3!') },
      { status: 'rejected', reason: new Error('failed at a3!') },
    ]);
    expect(await after).toBe('stored a5');
  });
});
