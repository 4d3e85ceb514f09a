import { and, asc, desc, eq, gt, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { executeNamed } from '../../db/prepared';
import { messageReads, messages, users } from '../../db/schema';

const messageView = { message: messages, username: users.username, fullName: users.fullName };

/** A chat notification the send statement stored (the first of a burst), with its recipient's unread count. */
export type StoredChatNotice = {
  id: number;
  userId: number;
  message: string;
  createdAt: Date;
  unreadCount: number;
};

export type SendOutcome =
  | { status: 'no-deal' }
  | { status: 'not-participant' }
  /** Stored now (`sent`, with its new notices), or the message this sender already stored under the same clientId. */
  | {
      status: 'sent' | 'repeated';
      message: MessageView | undefined;
      participantIds: number[];
      notices: StoredChatNotice[];
    };

/**
 * The statement of `send` ($1 deal, $2 sender, $3 content, $4 clientId, $5 the notice's text with `%s`
 * for the sender's username and then the deal's title), prepared once per connection.
 *
 * The message and its chat notifications commit together in this one statement: a message is never
 * stored without its notices, and a send is one round trip. A chat notification is kept per
 * (recipient, deal, sender) burst: while the recipient has not read it, later messages add nothing
 * (it tells of the first unread message). An unread one is looked up first (cheaper than a
 * conflicting insert), and the conflict, two first messages at once, does nothing rather than refresh
 * the row: an update would lock it until the commit, and a sender's messages would wait on each other.
 * A new notification's unread count is the count in the statement's snapshot, which cannot see the
 * row just inserted, plus that row.
 */
const sendMessageSql = `
  with deal as (
    select creator_id, counterpart_id, dealmaker_id, title from deals where id = $1::int for share
  ), inserted as (
    insert into messages (deal_id, sender_id, content, client_id)
    select $1::int, $2::int, $3::text, $4::text
      from deal
     where $2::int in (deal.creator_id, deal.counterpart_id, deal.dealmaker_id)
    on conflict do nothing
    returning id, created_at
  ), sender as (
    select username, full_name from users where id = $2::int
  ), burst as (
    insert into notifications (user_id, kind, deal_id, actor_id, message)
    select distinct recipient.user_id, 'message', $1::int, $2::int, format($5::text, sender.username, deal.title)
      from inserted, deal, sender,
           unnest(array[deal.creator_id, deal.counterpart_id, deal.dealmaker_id]) as recipient(user_id)
     where recipient.user_id is not null and recipient.user_id <> $2::int
       and not exists (select 1 from notifications unread_chat
                        where unread_chat.user_id = recipient.user_id and unread_chat.deal_id = $1::int
                          and unread_chat.actor_id = $2::int and unread_chat.kind = 'message'
                          and unread_chat.read_at is null)
    on conflict (user_id, deal_id, actor_id) where kind = 'message' and read_at is null do nothing
    returning id, user_id, message, created_at
  )
  select deal.creator_id, deal.counterpart_id, deal.dealmaker_id, inserted.id, inserted.created_at,
         sender.username, sender.full_name,
         (select coalesce(json_agg(json_build_object(
                   'id', burst.id, 'userId', burst.user_id, 'message', burst.message, 'createdAt', burst.created_at,
                   'unreadCount', 1 + (select count(*) from notifications unread
                                        where unread.user_id = burst.user_id and unread.read_at is null))), '[]')
            from burst) as notices
    from deal
    left join inserted on true
    left join sender on true`;

type SentNoticeJson = { id: number; userId: number; message: string; createdAt: string; unreadCount: number };

export const messagesRepository = {
  /**
   * Stores a message in one statement: the deal is share-locked (a delete or a
   * leave waits for the insert, a concurrent send does not), the sender must
   * be one of its participants, and a clientId the sender already used on the
   * deal stores nothing (the caller then answers with the stored message).
   */
  async send(
    db: DbOrTx,
    input: {
      dealId: number;
      senderId: number;
      content: string;
      clientId: string | null;
      noticeFormat: string;
    },
  ): Promise<SendOutcome> {
    const [row] = await executeNamed<Record<string, string | number | Date | SentNoticeJson[] | null>>(
      db,
      'message_send',
      sendMessageSql,
      [input.dealId, input.senderId, input.content, input.clientId, input.noticeFormat],
    );
    if (!row) return { status: 'no-deal' };
    const participantIds = [row.creator_id, row.counterpart_id, row.dealmaker_id]
      .filter((id) => id !== null)
      .map(Number);
    if (!participantIds.includes(input.senderId)) return { status: 'not-participant' };
    if (row.id === null) {
      const stored = await this.findByClientId(db, input.dealId, input.senderId, input.clientId!);
      return { status: 'repeated', message: stored, participantIds, notices: [] };
    }
    return {
      status: 'sent',
      participantIds,
      notices: (row.notices as SentNoticeJson[]).map((notice) => ({
        ...notice,
        createdAt: new Date(notice.createdAt),
      })),
      message: {
        message: {
          id: Number(row.id),
          dealId: input.dealId,
          senderId: input.senderId,
          content: input.content,
          clientId: input.clientId,
          createdAt: new Date(row.created_at as string | Date),
        },
        username: String(row.username),
        fullName: String(row.full_name),
      },
    };
  },

  async findByClientId(db: DbOrTx, dealId: number, senderId: number, clientId: string) {
    const [row] = await db
      .select(messageView)
      .from(messages)
      .innerJoin(users, eq(users.id, messages.senderId))
      .where(
        and(eq(messages.dealId, dealId), eq(messages.senderId, senderId), eq(messages.clientId, clientId)),
      );
    return row;
  },

  async view(db: DbOrTx, id: number) {
    const [row] = await db
      .select(messageView)
      .from(messages)
      .innerJoin(users, eq(users.id, messages.senderId))
      .where(eq(messages.id, id));
    return row;
  },

  /** The newest `limit` messages (older than `beforeId`), newest first. */
  latest(db: DbOrTx, dealId: number, options: { limit: number; beforeId?: number }) {
    return db
      .select(messageView)
      .from(messages)
      .innerJoin(users, eq(users.id, messages.senderId))
      .where(
        and(eq(messages.dealId, dealId), options.beforeId ? lt(messages.id, options.beforeId) : undefined),
      )
      .orderBy(desc(messages.id))
      .limit(options.limit);
  },

  /** The `limit` messages after `afterId`, oldest first (a client catching up). */
  after(db: DbOrTx, dealId: number, options: { limit: number; afterId: number }) {
    return db
      .select(messageView)
      .from(messages)
      .innerJoin(users, eq(users.id, messages.senderId))
      .where(and(eq(messages.dealId, dealId), gt(messages.id, options.afterId)))
      .orderBy(asc(messages.id))
      .limit(options.limit);
  },

  /**
   * Moves the user's read mark on the deal forward to `lastReadId` (never past
   * the deal's last message, never back); returns the mark after the call and
   * whether it moved.
   */
  async markRead(db: DbOrTx, dealId: number, userId: number, lastReadId: number) {
    const result = (await db.execute(sql`
      with target as (
        select least(${lastReadId}::int, coalesce(max(id), 0)) as id from messages where deal_id = ${dealId}
      ), moved as (
        insert into message_reads (deal_id, user_id, last_read_id)
        select ${dealId}, ${userId}, target.id from target
        on conflict (deal_id, user_id) do update set last_read_id = excluded.last_read_id
          where message_reads.last_read_id < excluded.last_read_id
        returning last_read_id
      )
      select (select last_read_id from moved) as moved,
             (select last_read_id from message_reads where deal_id = ${dealId} and user_id = ${userId}) as kept`)) as unknown as {
      rows: Array<{ moved: number | null; kept: number | null }>;
    };
    const row = result.rows[0]!;
    return { lastReadId: Number(row.moved ?? row.kept ?? 0), moved: row.moved !== null };
  },

  /** Each participant's read mark on the deal (those who have read something). */
  async readMarks(db: DbOrTx, dealId: number) {
    return db
      .select({ userId: messageReads.userId, username: users.username, lastReadId: messageReads.lastReadId })
      .from(messageReads)
      .innerJoin(users, eq(users.id, messageReads.userId))
      .where(eq(messageReads.dealId, dealId))
      .orderBy(asc(messageReads.userId));
  },

  /** Messages of others on the deal after the user's read mark. */
  async unreadCount(db: DbOrTx, dealId: number, userId: number, lastReadId: number): Promise<number> {
    const [row] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(messages)
      .where(
        and(eq(messages.dealId, dealId), gt(messages.id, lastReadId), sql`${messages.senderId} <> ${userId}`),
      );
    return Number(row?.count ?? 0);
  },

  /** The user's deals with messages from others after their read mark. */
  async unreadByDeal(db: DbOrTx, userId: number) {
    const result = (await db.execute(sql`
      select d.id as deal_id, unread.count, unread.last_at
        from deals d
        left join message_reads r on r.deal_id = d.id and r.user_id = ${userId}
        cross join lateral (
          select count(*) filter (where m.sender_id <> ${userId})::int as count, max(m.created_at) as last_at
            from messages m
           where m.deal_id = d.id and m.id > coalesce(r.last_read_id, 0)
        ) unread
       where (d.creator_id = ${userId} or d.counterpart_id = ${userId} or d.dealmaker_id = ${userId})
         and unread.count > 0
       order by unread.last_at desc`)) as unknown as {
      rows: Array<{ deal_id: number; count: number; last_at: string }>;
    };
    return result.rows.map((row) => ({
      dealId: Number(row.deal_id),
      unread: Number(row.count),
      lastMessageAt: new Date(row.last_at),
    }));
  },
};

export type MessageView = NonNullable<Awaited<ReturnType<typeof messagesRepository.view>>>;
