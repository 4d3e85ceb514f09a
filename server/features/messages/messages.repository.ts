import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { maxId } from '../../../contract/fields';
import { limits } from '../../../contract/limits';
import type { DbOrTx } from '../../db/client';
import { type Alongside, defineStatement, executeNamed, type RowOf } from '../../db/prepared';
import { messageReads, messages, users } from '../../db/schema';

/**
 * A timestamp as the API writes it (`Date.toISOString`: UTC, milliseconds, 'Z'), written by PostgreSQL:
 * a page of history then parses and formats no Date in Node. `MS` drops the microseconds, as pg's
 * parsing into a Date did.
 */
const isoTime = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A message with its sender's names (`m` joined to its sender `u`), as messages.presenter answers it. */
const messageColumns = `m.id, m.deal_id as "dealId", m.sender_id as "senderId", m.content,
       m.client_id as "clientId", ${isoTime('m.created_at')} as "createdAt", u.username, u.full_name as "fullName"`;
const messageColumnTypes = {
  id: 'int4',
  dealId: 'int4',
  senderId: 'int4',
  content: 'text',
  clientId: 'text?',
  createdAt: 'text',
  username: 'text',
  fullName: 'text',
} as const;
export type MessageView = RowOf<typeof messageColumnTypes>;

/**
 * A page of the deal's messages next to a cursor (older than it, newest first, or newer, oldest first),
 * answered oldest first, and only when the viewer takes part in the deal (creator, counterpart or
 * dealmaker: deal-policy `requireParticipant`'s rule): the check and the page are one round trip. No
 * row is an empty page or a refusal; the service asks the policy which (messages.service `history`).
 *
 * The inner LIMIT, the largest page, only bounds the planner's guess: alone, `limit $limit` is costed
 * as a tenth of the deal's messages in the generic plan, and for a long chat PostgreSQL planned every
 * call afresh rather than use it.
 */
const historyPage = (name: string, direction: 'older' | 'newer') =>
  defineStatement({
    name,
    params: { dealId: 'int4', viewerId: 'int4', cursor: 'int8', limit: 'int4' },
    text: `
  select ${messageColumns}
    from deals d
   cross join lateral (
     select * from (
       select * from messages
        where messages.deal_id = d.id and messages.id ${direction === 'older' ? '<' : '>'} $cursor::bigint
        order by messages.id ${direction === 'older' ? 'desc' : 'asc'}
        limit ${limits.page.maxLimit}
     ) page
     limit $limit::int
   ) m
    join users u on u.id = m.sender_id
   where d.id = $dealId::int and $viewerId::int in (d.creator_id, d.counterpart_id, d.dealmaker_id)
   order by m.id`,
    columns: messageColumnTypes,
  });
const olderMessages = historyPage('message_history_older', 'older');
const newerMessages = historyPage('message_history_newer', 'newer');

const messageByClientId = defineStatement({
  name: 'message_by_client_id',
  params: { dealId: 'int4', senderId: 'int4', clientId: 'text' },
  text: `
  select ${messageColumns}
    from messages m join users u on u.id = m.sender_id
   where m.deal_id = $dealId::int and m.sender_id = $senderId::int and m.client_id = $clientId::text`,
  columns: messageColumnTypes,
});

/** The deal as the sender's service saw it when it asked deal-policy: the send stores nothing if it has changed since. */
export type DealSeen = {
  id: number;
  creatorId: number;
  counterpartId: number | null;
  dealmakerId: number | null;
  title: string;
};

/** A message to store: its text, and the id its client gave it (a retry with the same one stores nothing). */
export type NewChatMessage = { content: string; clientId: string | null };

export type SendOutcome<Notice> =
  /** The deal is gone, or its people or title are no longer those the service saw: nothing was stored. */
  | { status: 'changed' }
  /**
   * Stored with the notifications that came with them: each message as it is now stored, in the order
   * given, or null for one whose clientId the sender had already used on the deal (nothing stored).
   */
  | { status: 'stored'; messages: Array<MessageView | null>; notices: Notice[] };

/**
 * `send`'s statement: one or more messages of one sender on one deal, in their order. They are stored
 * only while the deal still has the participants and title the service saw (it asked deal-policy about
 * them): the deal is share-locked (a delete or a leave waits for the insert, a concurrent send does
 * not), so the answer holds until the commit. Their ids are drawn in their order before the insert, so
 * that each finds its row (a clientId already used stores nothing and answers no row). It carries the
 * chat notifications, a part of the notifications feature (notifications.repository `chatBurst`), which
 * may read `inserted` (the messages stored): messages and notices commit together, in one round trip.
 * No row at all: the deal changed.
 */
const sendMessages = defineStatement({
  name: 'message_send',
  params: {
    dealId: 'int4',
    creatorId: 'int4',
    counterpartId: 'int4?',
    dealmakerId: 'int4?',
    title: 'text',
    senderId: 'int4',
    contents: 'text[]',
    clientIds: 'text?[]',
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
  ), items as (
    select nextval('messages_id_seq')::int as id, item.ord, item.content, item.client_id
      from deal, unnest($contents::text[], $clientIds::text[]) with ordinality as item(content, client_id, ord)
     order by item.ord
  ), inserted as (
    insert into messages (id, deal_id, sender_id, content, client_id)
    select id, $dealId::int, $senderId::int, content, client_id from items order by ord
    on conflict do nothing
    returning id, created_at
  ), sender as (
    select username, full_name from users where id = $senderId::int
  ), ${part!.ctes}
  select inserted.id, ${isoTime('inserted.created_at')} as "createdAt", sender.username, sender.full_name as "fullName",
         (select coalesce(json_agg(carried), '[]') from ${part!.name} carried) as alongside
    from items
    left join inserted using (id)
    left join sender on true
   order by items.ord`,
  columns: {
    id: 'int4?',
    createdAt: 'text?',
    username: 'text',
    fullName: 'text',
    alongside: 'alongside',
  },
});

export const messagesRepository = {
  /**
   * Stores one sender's messages on a deal, in their order, and the notifications that come
   * `alongside`, in one statement, unless the deal changed since the service saw it.
   */
  async send<Notice>(
    db: DbOrTx,
    input: { deal: DealSeen; senderId: number; messages: NewChatMessage[] },
    notices: Alongside<Notice>,
  ): Promise<SendOutcome<Notice>> {
    const { deal, senderId, messages } = input;
    const rows = await executeNamed(
      db,
      sendMessages,
      {
        dealId: deal.id,
        creatorId: deal.creatorId,
        counterpartId: deal.counterpartId,
        dealmakerId: deal.dealmakerId,
        title: deal.title,
        senderId,
        contents: messages.map((message) => message.content),
        clientIds: messages.map((message) => message.clientId),
      },
      notices,
    );
    if (rows.length === 0) return { status: 'changed' };
    return {
      status: 'stored',
      notices: rows[0]!.alongside,
      messages: rows.map((row, i) =>
        row.id === null || row.createdAt === null
          ? null
          : {
              id: row.id,
              dealId: deal.id,
              senderId,
              content: messages[i]!.content,
              clientId: messages[i]!.clientId,
              createdAt: row.createdAt,
              username: row.username,
              fullName: row.fullName,
            },
      ),
    };
  },

  async findByClientId(db: DbOrTx, dealId: number, senderId: number, clientId: string) {
    const [row] = await executeNamed(db, messageByClientId, { dealId, senderId, clientId });
    return row;
  },

  /**
   * One page of the deal's messages, oldest first: the latest `limit`, those before `before`, or those
   * after `after`; none when the viewer does not take part in the deal.
   */
  page(
    db: DbOrTx,
    query: { dealId: number; viewerId: number; limit: number; before?: number; after?: number },
  ): Promise<MessageView[]> {
    const { dealId, viewerId, limit } = query;
    // The latest page is the one before an id no message has.
    return query.after === undefined
      ? executeNamed(db, olderMessages, { dealId, viewerId, limit, cursor: query.before ?? maxId + 1 })
      : executeNamed(db, newerMessages, { dealId, viewerId, limit, cursor: query.after });
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
