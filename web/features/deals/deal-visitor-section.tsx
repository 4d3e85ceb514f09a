import { useState } from 'react';
import { formatMoney } from '../../lib/money';
import { useTimedMessage } from '../../lib/use-timed-message';
import { dealCardActions } from './card-actions';
import { DealCardActions } from './deal-card-actions';
import { type DealDialog, DealDialogs } from './deal-dialogs';
import { type Flash, FlashStrip, flashDurationMs } from './deal-flash';
import { type DealSectionProps, DetailSection } from './deal-section';
import { JoinRequestStatus } from './join-request-status';
import { latestJoinRequest, useJoinRequests } from './join-requests-api';

/**
 * The deal page for someone with no part in the deal: join it as its counterpart (or ask its creator to,
 * and see what became of the request), bid to become its dealmaker, or change or withdraw their bid,
 * with the Deals page's messages.
 */
export function DealVisitorSection({ deal, viewer }: DealSectionProps) {
  const [flash, showFlash] = useTimedMessage<Flash>(flashDurationMs);
  const [dialog, setDialog] = useState<DealDialog | null>(null);
  const asking = !!deal.can.askToJoin && !viewer.isParticipant;
  const requests = useJoinRequests(deal.id, asking);
  if (viewer.isParticipant) return null;
  const myRequest = asking ? latestJoinRequest(requests.data) : undefined;
  // Asking again waits until the viewer's own requests are known, and is gone while one waits.
  const askHidden = asking && (requests.isPending || myRequest?.status === 'pending');
  const actions = dealCardActions(deal, viewer).filter((action) => action !== 'ask-to-join' || !askHidden);
  if (actions.length === 0 && !deal.my_bid && !flash && !myRequest) return null;

  return (
    <DetailSection
      title="Take part"
      description={
        deal.dealmaker || deal.is_completed
          ? 'This deal has its dealmaker.'
          : deal.joinPolicy === 'approval'
            ? 'Bid to become this deal’s dealmaker, or ask its creator to let you join it as the second dealer.'
            : 'Bid to become this deal’s dealmaker, or join it as the second dealer.'
      }
    >
      <div className="space-y-4">
        <FlashStrip flash={flash} />
        {asking && <JoinRequestStatus request={myRequest} />}
        {deal.my_bid && (
          <p className="rounded-lg bg-indigo-50 px-3 py-2 text-sm text-indigo-800">
            Your bid: <span className="font-semibold">{formatMoney(deal.my_bid.price)}</span>
          </p>
        )}
        {actions.length > 0 && (
          <div className="flex flex-wrap gap-2">
            <DealCardActions deal={deal} actions={actions} onFlash={showFlash} onOpen={setDialog} />
          </div>
        )}
      </div>
      <DealDialogs open={dialog} onClose={() => setDialog(null)} onFlash={showFlash} />
    </DetailSection>
  );
}
