import type { QueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { Bid, Deal, PublicDeal } from '../../../contract/deals';
import type { EscrowStatusResponse } from '../../../contract/escrow';
import type { ServerEventListeners, ServerEvents } from '../../../contract/realtime';
import { sameUser } from '../../lib/same-user';
import type { RealtimeSocket } from '../../lib/socket';
import { dealmakerRequestKeys } from '../dealmaker-requests';
import {
  type DealListData,
  dealQueryKeys,
  refreshDeal,
  reloadDeal,
  removeDealFromCaches,
  setMyBidInCaches,
  upsertDealInCaches,
} from '../deals';
import { myBidKeys, myBidsConcern, savedSearchKeys } from '../discovery';
import { disputesQueryKey } from '../disputes';
import { escrowQueryKey, milestonesQueryKey } from '../escrow';
import {
  catchUpDealHistory,
  isChatInView,
  isIncomingMessage,
  messageKeys,
  putMessageInCache,
  putReadInCache,
} from '../messages';
import { putNotificationInCache } from '../notifications';
import { progressQueryKey } from '../progress';
import { walletKeys } from '../wallet';

/**
 * The one place that maps realtime events (contract/realtime.ts) to query-cache changes. Every
 * change is idempotent: the user's own actions already updated their screen, and hearing of them
 * again (or twice) changes nothing.
 */

/** Who is signed in, as far as the events care. */
export type LiveViewer = { id: number; username: string } | null;

export type LiveUpdateHandlers = ServerEventListeners;

/** Notification toasts stay 3 seconds (spec §9). */
export const notificationDurationMs = 3000;

/** Notifications about money: the wallet may have changed. */
const isMoneyNotification = (kind: string) => kind.startsWith('escrow-') || kind.startsWith('payment-');

/** How often, at most, the counts of the searches on screen are asked again. */
const recountIntervalMs = 3000;

/** `run` at once, then at most once per `intervalMs` (a call within the interval runs at its end). */
function throttled(run: () => void, intervalMs: number): () => void {
  let last = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    const since = Date.now() - last;
    if (since >= intervalMs) {
      last = Date.now();
      run();
    } else if (!timer) {
      timer = setTimeout(() => {
        timer = undefined;
        last = Date.now();
        run();
      }, intervalMs - since);
    }
  };
}

const isFullDeal = (data: PublicDeal | { id: number }): data is PublicDeal => 'dealer_creator' in data;
const isFullBid = (data: Bid | { id: number }): data is Bid => 'dealmaker' in data;

export function createLiveUpdates(queryClient: QueryClient, getViewer: () => LiveViewer): LiveUpdateHandlers {
  const invalidate = (queryKey: readonly unknown[], exact = false) =>
    void queryClient.invalidateQueries({ queryKey, exact });
  const invalidateDeal = (dealId: number) => invalidate(dealQueryKeys.detail(dealId), true);
  /** What the viewer may do with the deal (`can`) changed with their own bid: every copy asks again. */
  const refreshMine = (dealId: number) =>
    void refreshDeal(queryClient, dealId, getViewer()?.username ?? null);
  /** The deal changed: its timeline has a new entry, which an open chat shows. */
  const followTimeline = (dealId: number) =>
    void catchUpDealHistory(queryClient, dealId).catch((error) =>
      console.warn(`The timeline of deal ${dealId} could not be brought up to date:`, error),
    );

  /**
   * The counts of the searches on screen ("12 deals match") are asked again when deals come, go or
   * change: at once, then at most once every few seconds however busy the marketplace is.
   */
  const recount = throttled(() => invalidate(dealQueryKeys.counts()), recountIntervalMs);

  /** Something happened on a deal: My Bids asks again when one of its bids is on that deal. */
  const followMyBids = (dealId: number | null) => {
    if (dealId !== null && myBidsConcern(queryClient, dealId)) invalidate(myBidKeys.all);
  };

  /** The viewer's own bid was deleted (elsewhere): no cached copy of the deal may still offer it. */
  const forgetMyBid = (dealId: number, bidId: number) => {
    const copies: Array<Deal | undefined> = [
      queryClient.getQueryData<Deal>(dealQueryKeys.detail(dealId)),
      ...[dealQueryKeys.mine(), dealQueryKeys.dealmaker()].flatMap((key) =>
        queryClient.getQueryData<Deal[]>(key)?.filter((deal) => deal.id === dealId),
      ),
      ...queryClient
        .getQueriesData<DealListData>({ queryKey: dealQueryKeys.lists() })
        .flatMap(([, data]) =>
          data?.pages.flatMap((page) => page.deals.filter((deal) => deal.id === dealId)),
        ),
    ];
    if (copies.some((deal) => deal?.my_bid?.id === bidId)) {
      setMyBidInCaches(queryClient, dealId, null);
      refreshMine(dealId);
    }
  };

  const handlers: LiveUpdateHandlers = {
    'deal-updated': ({ dealId, data, updateType }) => {
      // A deal came, went or changed: the counts of the searches on screen may have changed with it.
      recount();
      followMyBids(dealId);
      if (updateType === 'deleted' || !isFullDeal(data)) {
        removeDealFromCaches(queryClient, dealId);
        queryClient.removeQueries({ queryKey: dealmakerRequestKeys.ofDeal(dealId) });
        queryClient.removeQueries({ queryKey: messageKeys.ofDeal(dealId) });
        // Requests sent to the viewer about this deal are gone with it.
        invalidate(dealmakerRequestKeys.incoming());
        return;
      }
      // Broadcasts carry public fields only: the viewer's own bid and what they may do (`can`) stay as
      // cached, and the deal is asked for again, as this viewer sees it, in the background.
      const viewer = getViewer()?.username ?? null;
      upsertDealInCaches(queryClient, data, { source: 'broadcast', viewer });
      void refreshDeal(queryClient, dealId, viewer);
      // Who may plan milestones follows the deal's people (a counterpart joined or left, a dealmaker came).
      invalidate(milestonesQueryKey(dealId));
      followTimeline(dealId);
      if (updateType === 'finalized' || updateType === 'dealmaker-assigned') {
        // The other bids and the open requests were removed; the escrow opens.
        invalidate(dealQueryKeys.bids(dealId));
        invalidate(dealmakerRequestKeys.ofDeal(dealId));
        invalidate(dealmakerRequestKeys.incoming());
        invalidate(escrowQueryKey(dealId));
      }
    },

    'bid-updated': ({ dealId, data, updateType }) => {
      const viewer = getViewer();
      followMyBids(dealId);
      if (isFullBid(data) && sameUser(data.dealmaker, viewer?.username)) {
        // The viewer's own bid, placed or changed in another tab (or this one): My Bids lists it.
        setMyBidInCaches(queryClient, dealId, { id: data.id, price: data.price });
        refreshMine(dealId);
        invalidate(myBidKeys.all);
      } else if (updateType === 'deleted') {
        forgetMyBid(dealId, data.id);
      }
      invalidate(dealQueryKeys.bids(dealId));
      // A new or changed bid may have changed the dealers' selections.
      invalidateDeal(dealId);
      if (updateType === 'selected') followTimeline(dealId);
    },

    'dealmaker-request-updated': ({ dealId }) => {
      invalidate(dealmakerRequestKeys.ofDeal(dealId));
      invalidate(dealmakerRequestKeys.incoming());
    },

    // A request to join asked, accepted or declined: the creator's list and the requester's own answer.
    'join-request-updated': ({ dealId }) => {
      invalidate(dealQueryKeys.joinRequests(dealId));
      followTimeline(dealId);
    },

    'escrow-updated': ({ dealId, data }) => {
      queryClient.setQueryData<EscrowStatusResponse>(escrowQueryKey(dealId), (status) =>
        status ? { ...status, escrowExists: true, escrow: data } : status,
      );
      invalidate(escrowQueryKey(dealId));
      // A settlement changes the milestones without a milestone event (settled, refunded).
      invalidate(milestonesQueryKey(dealId));
      // escrow_paid protects the deal on the Deals page and in My Deals.
      void reloadDeal(queryClient, dealId, getViewer()?.username ?? null);
      invalidate(walletKeys.all);
      followTimeline(dealId);
    },

    // A milestone or a plan changed: the viewer's own milestones (with what they may do) are asked again.
    'milestone-updated': ({ dealId }) => {
      invalidate(milestonesQueryKey(dealId));
      followTimeline(dealId);
    },

    'progress-updated': ({ dealId }) => {
      invalidate(progressQueryKey(dealId));
      followTimeline(dealId);
    },

    'dispute-updated': ({ dealId }) => {
      invalidate(disputesQueryKey(dealId));
      followTimeline(dealId);
    },

    'message-updated': (event) => {
      // The viewer's own messages are shown by the tab that sends them.
      if (!isIncomingMessage(event, { dealId: event.dealId, viewerId: getViewer()?.id })) return;
      putMessageInCache(queryClient, event.messageData);
      // One more unread message on the deal's badge (the open chat marks it read again).
      invalidate(messageKeys.unread(), true);
    },

    // Someone read the chat: "Seen by" under the viewer's messages follows.
    'messages-read': (event) => putReadInCache(queryClient, event),

    // Typing belongs to the open chat panel: nothing cached.
    'typing-updated': () => {},

    notification: (event) => {
      const { message, kind, dealId } = event;
      // A chat message needs no toast when its chat is in front of the viewer (open, on screen, tab visible).
      if (!(kind === 'message' && isChatInView(dealId))) toast(message, { duration: notificationDurationMs });
      // The bell counts it at once.
      putNotificationInCache(queryClient, event);
      if (isMoneyNotification(kind)) invalidate(walletKeys.all);
      // A new deal matches a saved search: its count of new matches goes up.
      if (kind === 'saved-search-match') invalidate(savedSearchKeys.all);
      followMyBids(dealId);
    },

    // A list on screen hears the deals that changed, each once in its latest state, at most once a second.
    'deals-feed': ({ changes }) => {
      for (const change of changes) handlers['deal-updated'](change);
    },
  };
  return handlers;
}

/** Listens to every event on the socket; returns the function that stops listening. */
export function attachLiveUpdates(socket: RealtimeSocket, handlers: LiveUpdateHandlers): () => void {
  const events = Object.keys(handlers) as Array<keyof ServerEvents>;
  const listen = <E extends keyof ServerEvents>(event: E, on: boolean) => {
    // The socket's typed on/off take one event at a time; the map pairs each event with its handler.
    const handler = handlers[event] as never;
    if (on) socket.on(event, handler);
    else socket.off(event, handler);
  };
  for (const event of events) listen(event, true);
  return () => {
    for (const event of events) listen(event, false);
  };
}
