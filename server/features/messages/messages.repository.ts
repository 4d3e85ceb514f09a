import { and, asc, desc, eq, gt, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { type Alongside, defineStatement, executeNamed } from '../../db/prepared';
import { messageReads, messages, users } from '../../db/schema';

const messageView = { message: messages, username: users.username, fullName: users.fullName };

/** The deal as the sender's service saw it when it asked deal-policy: the send stores nothing if it has changed since. */
export type DealSeen = {
  id: number;
  creatorId: number;
  counterpartId: number | null;
  dealmakerId: number | null;
  title: string;
};

export type SendOutcome<Notice> =
  /** The deal is gone, or its people or title are no longer those the service saw: nothing was stored. */
  | { status: 'changed' }
  /** Stored now, with the notifications stored with it. */
  | { status: 'sent'; message: MessageView; notices: Notice[] }
  /** The message this sender already stored on the deal under the same clientId. */
  | { status: 'repeated'; message: MessageView | undefined };

/**
 * `send`'s statement. The message is stored only while the deal still has the participants and title
 * the service saw (it asked deal-policy about them): the deal is share-locked (a delete or a leave waits
 * for the insert, a concurrent send does not), so the answer holds until the commit. It carries the
 * message's chat notifications, a part of the notifications feature (notifications.repository
 * `chatBurst`), which may read `inserted` (one row when the message was stored, none for a clientId the
 * sender already used on the deal): the message and its notices commit together, in one round trip.
 * No row at all: the deal changed.
 */
const sendMessage = defineStatement({
  name: 'message_send',
  params: {
    dealId: 'int4',
    creatorId: 'int4',
    counterpartId: 'int4?',
    dealmakerId: 'int4?',
    title: 'text',
    senderId: 'int4',
    content: 'text',
    clientId: 'text?',
  },
  alone: false,
  text: (part) => `
  with deal as (
    select id from deals
     where id = $dealId::int and creator_id = $creatorId::int
       and counterpart_id is not distinct from $counterpartId::int
       and dealmaker_id is not distinct from $dealmakerId::int
       and title = $title::text
       for share
  ), inserted as (
    insert into messages (deal_id, sender_id, content, client_id)
    select $dealId::int, $senderId::int, $content::text, $clientId::text from deal
    on conflict do nothing
    returning id, created_at
  ), sender as (
    select username, full_name from users where id = $senderId::int
  ), ${part!.ctes}
  select inserted.id, inserted.created_at as "createdAt", sender.username, sender.full_name as "fullName",
         (select coalesce(json_agg(carried), '[]') from ${part!.name} carried) as alongside
    from deal
    left join inserted on true
    left join sender on true`,
  columns: {
    id: 'int4?',
    createdAt: 'timestamptz?',
    username: 'text',
    fullName: 'text',
    alongside: 'alongside',
  },
});

export const messagesRepository = {
  /**
   * Stores a message and the notifications that come `alongside` in one statement, unless the deal
   * changed since the service saw it; a clientId the sender already used on the deal stores nothing
   * (the answer is then the stored message).
   */
  async send<Notice>(
    db: DbOrTx,
    input: { deal: DealSeen; senderId: number; content: string; clientId: string | null },
    notices: Alongside<Notice>,
  ): Promise<SendOutcome<Notice>> {
    const { deal, senderId, content, clientId } = input;
    const [row] = await executeNamed(
      db,
      sendMessage,
      {
        dealId: deal.id,
        creatorId: deal.creatorId,
        counterpartId: deal.counterpartId,
        dealmakerId: deal.dealmakerId,
        title: deal.title,
        senderId,
        content,
        clientId,
      },
      notices,
    );
    if (!row) return { status: 'changed' };
    if (row.id === null || row.createdAt === null) {
      return { status: 'repeated', message: await this.findByClientId(db, deal.id, senderId, clientId!) };
    }
    return {
      status: 'sent',
      notices: row.alongside,
      message: {
        message: { id: row.id, dealId: deal.id, senderId, content, clientId, createdAt: row.createdAt },
        username: row.username,
        fullName: row.fullName,
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
