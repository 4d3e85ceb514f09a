import { afterEach, describe, expect, it } from 'vitest';
import { makeDeal } from '../../test/deal-fixtures';
import { cleanup, render } from '../../test/render';
import { DealCompletionLines } from './deal-completion-lines';

const staffed = { dealer_joined: 'bob', dealmaker: 'erin', is_completed: true };

/** Each dealer's line: who, and what it says. */
const lines = (container: HTMLElement) =>
  [...container.querySelectorAll('dl > div')].map((line) => [
    line.querySelector('dt')?.textContent,
    line.querySelector('dd')?.textContent,
  ]);

describe('DealCompletionLines', () => {
  afterEach(cleanup);

  it('says Settled, not Pending, for a dealer who had not marked a deal a settlement completed', async () => {
    const deal = makeDeal({ ...staffed, settled: true, completed_by_creator: true });
    const { container } = await render(<DealCompletionLines deal={deal} />);
    expect(lines(container)).toEqual([
      ['Creator (@alice)', '✅ Completed'],
      ['Counterpart (@bob)', 'Settled'],
    ]);
    expect(container.textContent).not.toContain('Pending');
  });

  it('keeps Pending for a dealer yet to mark a deal that was not settled', async () => {
    const deal = makeDeal({ ...staffed, is_completed: false, completed_by_creator: true });
    const { container } = await render(<DealCompletionLines deal={deal} />);
    expect(lines(container)).toEqual([
      ['Creator (@alice)', '✅ Completed'],
      ['Counterpart (@bob)', '⏳ Pending'],
    ]);
  });
});
