import type { JoinRequest } from './deal-changes';
import type { Bid, DealmakerRequest, PublicDeal } from './deals';
import type { Dispute } from './disputes';
import type { Escrow } from './escrow';
import type { Message, MessagesReadEvent, TypingUser } from './messages';
import type { Milestone, MilestonePlan } from './milestones';
import type { NotificationEvent } from './notifications';
import type { ProgressItem } from './progress';

/** updateType values of spec §9 (plus 'sent' for messages and the request/bid life-cycle words). */
export type UpdateType =
  | 'created'
  | 'joined'
  | 'left'
  | 'dealmaker-assigned'
  | 'finalized'
  | 'updated'
  | 'deleted'
  | 'selected'
  | 'accepted'
  | 'rejected'
  | 'canceled'
  | 'sent';

export type DealEvent<T> = { dealId: number; data: T; updateType: UpdateType };

/** A deal that changed, as lists hear of it: its public fields, or only its id when it was deleted. */
export type DealChange = DealEvent<PublicDeal | { id: number }>;

/**
 * A dealer's selection of a bid, as bid-updated 'selected' carries it: whether
 * it finalized the deal, and then with whom and for how much.
 */
export type BidSelectionChange = {
  id: number;
  dealFinalized: boolean;
  finalDealmaker?: string;
  finalPrice?: number;
};

/** What happened to a milestone or a milestone plan ('milestone-updated'). */
export type MilestoneUpdateType =
  | 'updated'
  | 'submitted'
  | 'approved'
  | 'released'
  | 'plan-proposed'
  | 'plan-accepted'
  | 'plan-agreed'
  | 'plan-withdrawn';

/** A dealmaker request accepted: the receiver is the deal's dealmaker now. */
export type AcceptedRequestChange = { id: number; dealmaker: string };

/** Server → client events (spec §7 Realtime events). */
export type ServerEvents = {
  /**
   * The deal's public fields only (`my_bid` null, no `can`: they are the viewer's), at once, to the sockets
   * watching that deal (`watch-deal`: its page is open) and to every socket of a client that does not
   * know feeds (the original client: see RealtimeHandshake).
   */
  'deal-updated': DealChange;
  /**
   * To the sockets subscribed to the deals feed (`deals-feed:subscribe`: a list of deals is on screen):
   * the deals that changed since the last one, each in its latest state, at most once a second.
   */
  'deals-feed': { changes: DealChange[] };
  'bid-updated': DealEvent<Bid | BidSelectionChange | { id: number }>;
  /**
   * A request created or rejected carries it whole; canceled, only its id; accepted, its id and the deal's new
   * dealmaker (the original client sets it on the deal in its list, so that "Bid as Dealmaker" goes at once).
   */
  'dealmaker-request-updated': DealEvent<DealmakerRequest | { id: number } | AcceptedRequestChange>;
  /** A half paid or refunded, the escrow locked or released: to the deal's participants. */
  'escrow-updated': DealEvent<Escrow>;
  /**
   * A milestone paid, funded, submitted, approved or released (its public fields: `can` empty, each
   * viewer asks for theirs), or a plan proposed, accepted, agreed or withdrawn: to the deal's room.
   */
  'milestone-updated': { dealId: number; data: Milestone | MilestonePlan; updateType: MilestoneUpdateType };
  /** A request to join an 'approval' deal asked, accepted or declined: to its creator and its requester. */
  'join-request-updated': DealEvent<JoinRequest | { id: number }>;
  /** A stored notification and the user's new unread count: to the user's own room. */
  notification: NotificationEvent;
  /** A participant has read the deal's chat up to a message: to the deal's other participants. */
  'messages-read': MessagesReadEvent;
  /**
   * The item under `data`; under `progressData` the deal's public fields, not the item: the original client
   * merges `progressData` into the deal it shows, so an item there would put the item's id in the deal's place.
   */
  'progress-updated': DealEvent<ProgressItem> & { progressData: PublicDeal };
  'dispute-updated': DealEvent<Dispute>;
  'message-updated': { dealId: number; messageData: Message; updateType: 'sent' };
  'typing-updated': { dealId: number; userInfo: TypingUser; isTyping: boolean };
};

/**
 * The name the original system's client reads each event's object under.
 * Events go out with both keys (`data`, per spec §7, and this one) holding the same object.
 * `progress-updated` carries its own `progressData` (see ServerEvents).
 */
export const originalClientPayloadKeys = {
  'deal-updated': 'dealData',
  'bid-updated': 'bidData',
  'dealmaker-request-updated': 'requestData',
  'escrow-updated': 'escrowData',
} as const satisfies Partial<Record<keyof ServerEvents, string>>;

/** An event's payload as clients receive it: with its object also under the original client's name. */
export function withOriginalClientKey<E extends keyof ServerEvents>(event: E, payload: ServerEvents[E]) {
  const key = (originalClientPayloadKeys as Partial<Record<keyof ServerEvents, string>>)[event];
  return key ? { ...payload, [key]: (payload as { data: unknown }).data } : payload;
}

/** The same events as Socket.IO listener signatures. */
export type ServerEventListeners = { [E in keyof ServerEvents]: (payload: ServerEvents[E]) => void };

/** Server → one socket, about that socket itself (never published to a room). */
export type SocketNotices = {
  /**
   * The socket sent events faster than allowed and this one (`event`) was dropped; a socket that goes on
   * is disconnected. An acknowledgement the dropped event asked for answers `{ ok: false, message }`.
   */
  'rate-limited': { message: string; event: string };
  /**
   * The socket's session was ended (from another device, by a password change or reset, by signing out):
   * the socket is closed right after; `message` says why, for the tab to show (null after signing out).
   */
  'session-ended': { message: string | null };
};
/** Everything a socket may receive. */
export type SocketEvents = ServerEvents & SocketNotices;
export type SocketEventListeners = { [E in keyof SocketEvents]: (payload: SocketEvents[E]) => void };

/** Client → server events (spec §7): ids may arrive as numbers or numeric strings. */
export type ClientEvents = {
  'join-user-room': (userId: number | string) => void;
  'join-deal-room': (
    dealId: number | string,
    ack?: (result: { ok: boolean; message?: string }) => void,
  ) => void;
  'leave-deal-room': (dealId: number | string) => void;
  'user-typing-start': (payload: { dealId: number | string }) => void;
  'user-typing-stop': (payload: { dealId: number | string }) => void;
  /**
   * A list of deals is on screen (and the tab visible): send `deals-feed` until unsubscribed. The
   * acknowledgement, if asked for, comes once the subscription holds.
   */
  'deals-feed:subscribe': (ack?: (result: { ok: boolean }) => void) => void;
  'deals-feed:unsubscribe': () => void;
  /** A deal's page is open: send its `deal-updated` at once (any signed-in socket, a few deals at a time). */
  'watch-deal': (dealId: number | string, ack?: (result: { ok: boolean; message?: string }) => void) => void;
  'unwatch-deal': (dealId: number | string) => void;
};

/**
 * What a client sends in its Socket.IO handshake (`io(url, { auth })`). `feeds: true` says it subscribes
 * to what it shows (the deals feed, the deals it watches): without it the socket is the original
 * client's, which never subscribes and hears `deal-updated` for every deal, as the spec says
 * (docs/decisions/0030-deal-feeds.md).
 */
export type RealtimeHandshake = { token?: string; feeds?: boolean };

export const realtimeRooms = {
  user: (userId: number) => `user:${userId}`,
  /** The deal's participants (join-deal-room): its chat, typing and money. */
  deal: (dealId: number) => `deal:${dealId}`,
  /** Anyone signed in with the deal's page open (watch-deal): its deal-updated. */
  dealWatch: (dealId: number) => `deal-watch:${dealId}`,
  isDealWatch: (room: string) => room.startsWith('deal-watch:'),
  /** The sockets subscribed to the deals feed. */
  dealsFeed: 'deals-feed',
  /** The sockets of clients that do not know feeds (the original client): every deal-updated. */
  originalClients: 'signed-in',
} as const;
