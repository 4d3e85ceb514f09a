/** The deal chat: history with the deal's timeline entries, live messages, typing, read marks, unread counts. */

// Whether a deal's chat is in front of the viewer now (open, on screen, tab visible): its messages need no toast.
export { isChatInView } from './chat-in-view';
// The deal's chat, as the deal page's section (participants only).
export { DealMessagesSection } from './deal-messages-panel';
// Which incoming message events count, and the shape of the cached history, for the realtime layer.
export { isIncomingMessage, type MessagePages } from './message-list';
// The chat history in the query cache, for the realtime layer: messages others send, read marks, and
// catching up after a reconnection (or a change of the deal) without reloading.
export {
  catchUpAllHistories,
  catchUpDealHistory,
  isDealHistoryKey,
  messageKeys,
  putMessageInCache,
  putReadInCache,
} from './messages-api';
// "3 unread" on a deal of the viewer's, for the deal lists.
export { UnreadMessagesBadge } from './unread-messages-badge';
