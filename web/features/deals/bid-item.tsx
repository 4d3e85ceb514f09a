import type { Bid, Deal } from '../../../contract/deals';
import { Avatar } from '../../components/ui/avatar';
import { Badge } from '../../components/ui/badge';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import { formatMoney } from '../../lib/money';
import { formatDateTime } from '../../lib/time';
import { type BidSelection, bidSelectionStyles } from './bid-selection';
import { aboveBudgetText, bidderStatsText, deliveryText } from './bid-texts';

/** What the bid borders mean, for the dealers who select. */
export function SelectionLegend() {
  const items: Array<{ swatch: string; label: string }> = [
    { swatch: 'border-blue-500', label: 'Selected by the creator' },
    { swatch: 'border-yellow-400', label: 'Selected by the counterpart' },
    { swatch: 'border-green-500', label: 'Selected by both' },
  ];
  return (
    <ul aria-label="Selection colors" className="mb-4 flex flex-wrap gap-x-5 gap-y-2 text-xs text-slate-500">
      {items.map((item) => (
        <li key={item.label} className="flex items-center gap-1.5">
          <span aria-hidden="true" className={cn('h-3 w-5 rounded border-2 bg-white', item.swatch)} />
          {item.label}
        </li>
      ))}
    </ul>
  );
}

type BidItemProps = {
  bid: Bid;
  deal: Deal;
  selection: BidSelection;
  isMine: boolean;
  selectedByMe: boolean;
  /** Present for a dealer: the bid is a toggle button. */
  onSelect?: () => void;
  busy: boolean;
  selecting: boolean;
};

/**
 * One bid: who, when, how much, and who selected it; what the bidder proposes and in how many days, their
 * record (rating, reviews, completed deals) and whether the price is above the deal's budget. A toggle
 * button for a dealer.
 */
export function BidItem({ bid, selection, isMine, selectedByMe, onSelect, busy, selecting }: BidItemProps) {
  const style = bidSelectionStyles[selection];
  const content = (
    <>
      <span className="flex w-full items-center justify-between gap-4">
        <span className="flex min-w-0 items-center gap-3">
          <Avatar name={bid.dealmaker} size="sm" />
          <span className="min-w-0 text-left">
            <span className="flex flex-wrap items-center gap-2">
              <span className="truncate font-medium text-slate-900">@{bid.dealmaker}</span>
              {isMine && <Badge tone="indigo">Your bid</Badge>}
            </span>
            <span className="block text-xs text-slate-500">{formatDateTime(bid.timestamp)}</span>
          </span>
        </span>
        <span className="flex shrink-0 flex-col items-end gap-1">
          <span className="text-lg font-semibold text-slate-900">{formatMoney(bid.price)}</span>
          {bid.aboveBudget && <Badge tone="amber">{aboveBudgetText}</Badge>}
          {selecting ? (
            <Spinner size="sm" decorative className="text-indigo-500" />
          ) : (
            style.label && <span className="text-xs font-medium text-slate-600">{style.label}</span>
          )}
        </span>
      </span>
      <BidDetails bid={bid} />
    </>
  );
  const classes = cn(
    'flex w-full flex-col items-stretch gap-2 rounded-xl border-2 bg-white px-4 py-3 text-left transition',
    style.border,
  );
  if (!onSelect) {
    return (
      <div className={classes} data-selection={selection} data-bid-id={bid.id}>
        {content}
      </div>
    );
  }
  return (
    <button
      type="button"
      aria-pressed={selectedByMe}
      data-selection={selection}
      data-bid-id={bid.id}
      disabled={busy}
      onClick={onSelect}
      className={cn(
        classes,
        'cursor-pointer hover:bg-slate-50 hover:shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:cursor-wait disabled:opacity-70',
      )}
    >
      {content}
    </button>
  );
}

/** Under a bid: the proposal, the delivery estimate and the bidder's record, when the answer has them. */
function BidDetails({ bid }: { bid: Bid }) {
  const facts = [
    bid.deliveryDays != null && deliveryText(bid.deliveryDays),
    bid.bidder && bidderStatsText(bid.bidder),
  ].filter((fact): fact is string => !!fact);
  if (!bid.proposal && facts.length === 0) return null;
  return (
    <span className="block space-y-1.5 border-t border-slate-100 pt-2 text-sm">
      {bid.proposal && (
        <span data-bid-proposal className="block break-words whitespace-pre-line text-slate-700">
          {bid.proposal}
        </span>
      )}
      {facts.length > 0 && (
        <span className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
          {facts.map((fact) => (
            <span key={fact}>{fact}</span>
          ))}
        </span>
      )}
    </span>
  );
}
