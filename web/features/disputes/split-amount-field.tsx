import type { Escrow } from '../../../contract/escrow';
import { formatCents, formatUsdCents } from '../../../contract/money';
import { TextField } from '../../components/ui/input';
import {
  escrowCentsOf,
  readSplitAmount,
  type SettlementPeople,
  type SplitCents,
  settlementPreview,
  splitFacts,
} from './settlement-texts';

/** The three amounts of a split (to the dealmaker, each dealer's refund); dashes while there is none. */
export function SplitLines({ split, people }: { split: SplitCents | null; people: SettlementPeople }) {
  const facts = splitFacts(
    split ?? { toDealmakerCents: 0, refundToCreatorCents: 0, refundToCounterpartCents: 0 },
    people,
  );
  return (
    <dl className="space-y-1 rounded-lg bg-white/80 px-3 py-2 text-sm ring-1 ring-slate-200">
      {facts.map((fact) => (
        <div key={fact.label} className="flex flex-wrap justify-between gap-x-4">
          <dt className="min-w-0 break-words text-slate-600">{fact.label}</dt>
          <dd className="font-semibold text-slate-900 tabular-nums">{split ? fact.value : '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

type SplitAmountFieldProps = {
  escrow: Pick<Escrow, 'amount' | 'creatorAmount'>;
  people: SettlementPeople;
  /** The amount as typed, in dollars. */
  text: string;
  onTextChange: (text: string) => void;
  /** Shown under the field once a submit found the amount unusable. */
  problem?: string | null;
};

/**
 * 'To the dealmaker': an amount and a slider over the whole escrow, and the three amounts it pays,
 * computed as the server will (the rest back to the dealers in proportion to what each paid).
 */
export function SplitAmountField({ escrow, people, text, onTextChange, problem }: SplitAmountFieldProps) {
  const { amountCents } = escrowCentsOf(escrow);
  const { cents } = readSplitAmount(text, amountCents);
  return (
    <div className="space-y-2">
      <TextField
        label="To the dealmaker ($)"
        name="toDealmaker"
        inputMode="decimal"
        autoComplete="off"
        value={text}
        onChange={(event) => onTextChange(event.target.value)}
        hint={`From $0.00 to ${formatUsdCents(amountCents)}, the whole escrow.`}
        error={problem ?? undefined}
      />
      <input
        type="range"
        aria-label="To the dealmaker"
        aria-valuetext={cents === null ? undefined : formatUsdCents(cents)}
        min={0}
        max={amountCents}
        step={1}
        value={cents ?? 0}
        onChange={(event) => onTextChange(formatCents(Number(event.target.value)))}
        className="h-10 w-full cursor-pointer accent-indigo-600"
      />
      <div aria-live="polite">
        <SplitLines split={cents === null ? null : settlementPreview(escrow, cents)} people={people} />
      </div>
    </div>
  );
}
