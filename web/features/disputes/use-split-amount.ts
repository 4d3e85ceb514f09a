import { useState } from 'react';
import type { Escrow } from '../../../contract/escrow';
import { escrowCentsOf, readSplitAmount } from './settlement-texts';

/**
 * The amount typed for the dealmaker in a split form, and what a submit found wrong with it: `field`
 * goes to SplitAmountField, `take()` gives the amount in cents (or null, and shows why).
 */
export function useSplitAmount(escrow: Pick<Escrow, 'amount' | 'creatorAmount'>) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  return {
    field: {
      escrow,
      text,
      problem,
      onTextChange: (next: string) => {
        setText(next);
        setProblem(null);
      },
    },
    take: (): number | null => {
      const read = readSplitAmount(text, escrowCentsOf(escrow).amountCents);
      setProblem(read.problem);
      return read.cents;
    },
    clear: () => {
      setText('');
      setProblem(null);
    },
  };
}
