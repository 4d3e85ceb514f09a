import type { Bid, Deal } from '../../../../contract/deals';
import { Alert } from '../../../components/ui/alert';
import { Avatar } from '../../../components/ui/avatar';
import { Badge } from '../../../components/ui/badge';
import { EmptyState } from '../../../components/ui/empty-state';
import { HandshakeIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api';
import { cn } from '../../../lib/cn';
import { formatMoney } from '../../../lib/money';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { formatDateTime } from '../../../lib/time';
import { type BidSelection, bidSelectionOf, bidSelectionStyles, isSelectedByViewer } from '../deal-rules';
import { useDealBids, useSelectBid } from '../deals-api';
import { sameUser } from '../deals-cache';
import { type DealSectionProps, DetailSection } from './deal-section';

/**
 * The bids, while the deal has no dealmaker. A dealer clicks a bid to select it and clicks it again to
 * unselect it; the same bid selected by both dealers finalizes the deal. Others see only their own bid.
 */
export function DealBidsSection({ deal, viewer }: DealSectionProps) {
  const open = !deal.dealmaker;
  const bids = useDealBids(deal.id, open);
  const select = useSelectBid({
    onSuccess: (updated) => {
      if (updated.dealmaker) notifySuccess(`Deal finalized with ${updated.dealmaker} as dealmaker.`);
    },
    onError: (error) => {
      console.error('Selecting a bid failed', error);
      notifyError(errorMessage(error, 'Failed to select bid'));
    },
  });
  if (!open) return null;

  const canSelect = viewer.isDealer && !deal.is_completed;
  const count = bids.data?.length;

  return (
    <DetailSection
      title="Bids"
      aside={count !== undefined && <Badge tone="neutral">{count === 1 ? '1 bid' : `${count} bids`}</Badge>}
      description={
        canSelect
          ? deal.dealer_joined
            ? 'Click a bid to select it, and click it again to unselect it. When both dealers select the same bid, the deal is finalized.'
            : 'Click a bid to select it, and click it again to unselect it. The deal is finalized once a counterpart has joined and both dealers select the same bid.'
          : viewer.isDealer
            ? undefined
            : 'Only the dealers of a deal see all of its bids; you see only your own.'
      }
    >
      {canSelect && !!count && <SelectionLegend />}
      {bids.isPending ? (
        <div className="flex justify-center py-8 text-indigo-500">
          <Spinner label="Loading bids" />
        </div>
      ) : bids.isError ? (
        <Alert variant="error">Failed to load bids.</Alert>
      ) : bids.data.length === 0 ? (
        <EmptyState
          icon={<HandshakeIcon size={28} />}
          title="No bids yet"
          description={
            viewer.isDealer
              ? 'Bids from dealmakers will appear here.'
              : 'You have not placed a bid on this deal.'
          }
          className="py-8"
        />
      ) : (
        <ul className="space-y-3">
          {bids.data.map((bid) => (
            <li key={bid.id}>
              <BidItem
                bid={bid}
                deal={deal}
                selection={bidSelectionOf(deal, bid.id)}
                isMine={sameUser(bid.dealmaker, viewer.username)}
                selectedByMe={isSelectedByViewer(deal, bid.id, viewer.role)}
                onSelect={canSelect ? () => select.mutate({ dealId: deal.id, bidId: bid.id }) : undefined}
                busy={select.isPending}
                selecting={select.isPending && select.variables?.bidId === bid.id}
              />
            </li>
          ))}
        </ul>
      )}
    </DetailSection>
  );
}

function SelectionLegend() {
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

function BidItem({ bid, selection, isMine, selectedByMe, onSelect, busy, selecting }: BidItemProps) {
  const style = bidSelectionStyles[selection];
  const content = (
    <>
      <div className="flex min-w-0 items-center gap-3">
        <Avatar name={bid.dealmaker} size="sm" />
        <div className="min-w-0 text-left">
          <p className="flex flex-wrap items-center gap-2">
            <span className="truncate font-medium text-slate-900">@{bid.dealmaker}</span>
            {isMine && <Badge tone="indigo">Your bid</Badge>}
          </p>
          <p className="text-xs text-slate-500">{formatDateTime(bid.timestamp)}</p>
        </div>
      </div>
      <div className="flex shrink-0 flex-col items-end gap-1">
        <span className="text-lg font-semibold text-slate-900">{formatMoney(bid.price)}</span>
        {selecting ? (
          <Spinner size="sm" decorative className="text-indigo-500" />
        ) : (
          style.label && <span className="text-xs font-medium text-slate-600">{style.label}</span>
        )}
      </div>
    </>
  );
  const classes = cn(
    'flex w-full items-center justify-between gap-4 rounded-xl border-2 bg-white px-4 py-3 transition',
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
