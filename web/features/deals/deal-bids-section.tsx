import { Alert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { EmptyState } from '../../components/ui/empty-state';
import { HandshakeIcon } from '../../components/ui/icons';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api';
import { notifyError, notifySuccess } from '../../lib/notify';
import { sameUser } from '../../lib/same-user';
import { BidItem, SelectionLegend } from './bid-item';
import { bidSelectionOf, isSelectedByViewer } from './bid-selection';
import { useDealBids, useSelectBid } from './bids-api';
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

  const canSelect = deal.can.selectBid;
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
