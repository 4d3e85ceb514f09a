import { useState } from 'react';
import type { Deal } from '../../../contract/deals';
import { formatMoney } from '../../lib/money';
import { useTimedMessage } from '../../lib/use-timed-message';
import { BidDialog } from './bid-dialog';
import { dealCardActions } from './card-actions';
import { DealCardActions } from './deal-card-actions';
import { type Flash, FlashStrip, flashDurationMs } from './deal-flash';
import { type DealSectionProps, DetailSection } from './deal-section';

/**
 * The deal page for someone with no part in the deal: join it as its counterpart, bid to become its
 * dealmaker, or change or withdraw their bid, with the Deals page's messages.
 */
export function DealVisitorSection({ deal, viewer }: DealSectionProps) {
  const [flash, showFlash] = useTimedMessage<Flash>(flashDurationMs);
  const [bidDeal, setBidDeal] = useState<Deal | null>(null);
  if (viewer.isParticipant) return null;
  const actions = dealCardActions(deal, viewer);
  if (actions.length === 0 && !deal.my_bid && !flash) return null;

  return (
    <DetailSection
      title="Take part"
      description={
        deal.dealmaker || deal.is_completed
          ? 'This deal has its dealmaker.'
          : 'Bid to become this deal’s dealmaker, or join it as the second dealer.'
      }
    >
      <div className="space-y-4">
        <FlashStrip flash={flash} />
        {deal.my_bid && (
          <p className="rounded-lg bg-indigo-50 px-3 py-2 text-sm text-indigo-800">
            Your bid: <span className="font-semibold">{formatMoney(deal.my_bid.price)}</span>
          </p>
        )}
        {actions.length > 0 && (
          <div className="flex flex-wrap gap-2">
            <DealCardActions deal={deal} actions={actions} onFlash={showFlash} onBid={setBidDeal} />
          </div>
        )}
      </div>
      <BidDialog deal={bidDeal} onClose={() => setBidDeal(null)} onFlash={showFlash} />
    </DetailSection>
  );
}
