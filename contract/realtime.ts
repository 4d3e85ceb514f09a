import type { Dispute, ProgressItem } from './collaboration';
import type { Bid, Deal, DealmakerRequest } from './deals';
import type { Message, TypingUser } from './messages';
import type { Escrow } from './wallet';

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

export type NotificationPayload = { message: string; dealId?: number; kind: string };

/** Server → client events (spec §7 Realtime events). */
export type ServerEvents = {
  'deal-updated': DealEvent<Deal | { id: number }>;
  'bid-updated': DealEvent<Bid | { id: number }>;
  'dealmaker-request-updated': DealEvent<DealmakerRequest | { id: number }>;
  /** A half paid or refunded, the escrow locked or released: to the deal's participants. */
  'escrow-updated': DealEvent<Escrow>;
  notification: NotificationPayload;
  'progress-updated': DealEvent<ProgressItem>;
  'dispute-updated': DealEvent<Dispute>;
  'message-updated': { dealId: number; messageData: Message; updateType: 'sent' };
  'typing-updated': { dealId: number; userInfo: TypingUser; isTyping: boolean };
};

/** The same events as Socket.IO listener signatures. */
export type ServerEventListeners = { [E in keyof ServerEvents]: (payload: ServerEvents[E]) => void };

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
};

export const realtimeRooms = {
  user: (userId: number) => `user:${userId}`,
  deal: (dealId: number) => `deal:${dealId}`,
  signedIn: 'signed-in',
} as const;
