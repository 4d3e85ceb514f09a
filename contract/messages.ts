import { z } from 'zod';
import { bodyDealId, decimalId, maxId } from './fields';
import { limits } from './limits';

export const messageSchema = z.object({
  id: z.number().int(),
  dealId: z.number().int(),
  content: z.string(),
  createdAt: z.string(),
  senderId: z.number().int(),
  sender: z.object({ id: z.number().int(), username: z.string(), full_name: z.string() }),
  senderUsername: z.string(),
  /** The id the sending client gave the message, so it can replace its temporary copy. */
  clientId: z.string().nullable(),
});
export type Message = z.infer<typeof messageSchema>;

export const sendMessageSchema = z.object({
  dealId: bodyDealId,
  content: z
    .string({ error: 'Message content is required' })
    .trim()
    .min(1, 'Message cannot be empty')
    .max(limits.message.max, `Message must be at most ${limits.message.max} characters`),
  /** Client-generated id: a retried send with the same id stores one message. */
  clientId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'clientId must be 1–64 letters, digits, dash or underscore')
    .optional(),
});
export type NewMessage = z.output<typeof sendMessageSchema>;

export const messageHistoryQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(limits.page.maxLimit).default(limits.page.defaultLimit),
    /** Cursor: only messages older than the message with this id. */
    before: decimalId().optional(),
    /** Catching up: only the messages after this id, oldest first (a client that reconnects). */
    after: decimalId().optional(),
  })
  .refine((query) => query.before === undefined || query.after === undefined, {
    message: 'Ask for messages before an id or after one, not both',
  });

/** GET /api/messages/unread: the caller's deals with messages they have not read. */
export const unreadMessagesSchema = z.object({
  deals: z.array(z.object({ dealId: z.number().int(), unread: z.number().int(), lastMessageAt: z.string() })),
});
export type UnreadMessages = z.infer<typeof unreadMessagesSchema>;

/** POST /api/messages/deal/{dealId}/read */
export const markMessagesReadSchema = z.object({
  lastReadId: z.number({ error: 'lastReadId is required' }).int().nonnegative().max(maxId),
});
export const messagesReadAnswerSchema = z.object({ unread: z.number().int() });

/** GET /api/messages/deal/{dealId}/reads: how far each participant has read (the caller included). */
export const messageReadsSchema = z.object({
  reads: z.array(z.object({ userId: z.number().int(), username: z.string(), lastReadId: z.number().int() })),
});
export type MessageReads = z.infer<typeof messageReadsSchema>;

/** The `messages-read` realtime event: a participant has read the deal's chat up to a message. */
export type MessagesReadEvent = { dealId: number; userId: number; username: string; lastReadId: number };

export const typingUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  full_name: z.string(),
});
export type TypingUser = z.infer<typeof typingUserSchema>;
