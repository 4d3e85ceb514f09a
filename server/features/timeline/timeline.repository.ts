import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  type Alongside,
  alongside,
  defineStatement,
  defineStatementPart,
  executeNamed,
} from '../../db/prepared';

export type NewDealEvent = {
  dealId: number;
  kind: string;
  actorId: number | null;
  message: string;
  details?: Record<string, unknown> | null;
};

/** A row of the merged timeline: a system entry or a chat message. */
export type TimelineRow = {
  type: 'event' | 'message';
  id: number;
  kind: string | null;
  message: string;
  createdAt: Date;
  senderId: number | null;
  clientId: string | null;
  username: string | null;
  fullName: string | null;
};

const entryParams = {
  dealId: 'int4',
  kind: 'text',
  actorId: 'int4?',
  message: 'text',
  details: 'jsonb?',
} as const;
const entryInsert =
  'insert into deal_events (deal_id, kind, actor_id, message, details) values ($dealId, $kind, $actorId, $message, $details)';
const valuesOf = (event: NewDealEvent) => ({
  dealId: event.dealId,
  kind: event.kind,
  actorId: event.actorId,
  message: event.message,
  details: event.details ?? null,
});

/** A prepared statement: every state change of a deal writes one, inside its transaction. */
const insertEntry = defineStatement({
  name: 'deal_event_insert',
  params: entryParams,
  text: entryInsert,
  columns: {},
});

/** The same entry, carried by the statement that stores the change's notifications. */
const entryPart = defineStatementPart({
  name: 'deal_event',
  host: 'notifications_insert',
  params: entryParams,
  text: `deal_event as (${entryInsert})`,
});

export const timelineRepository = {
  /** A prepared statement: every state change of a deal writes one, inside its transaction. */
  async insert(db: DbOrTx, event: NewDealEvent) {
    await executeNamed(db, insertEntry, valuesOf(event));
  },

  /** The same entry, written by the statement that stores the change's notifications. */
  insertAlongside(event: NewDealEvent): Alongside {
    return alongside(entryPart, valuesOf(event));
  },

  /**
   * The deal's system entries and chat messages in one list, newest first,
   * older than `beforeId`: both take their ids from one sequence.
   */
  async page(
    db: DbOrTx,
    dealId: number,
    options: { beforeId?: number; limit: number },
  ): Promise<TimelineRow[]> {
    const before = options.beforeId ?? Number.MAX_SAFE_INTEGER;
    return timelineRows(
      await db.execute(sql`
        select * from (
          (select ${eventColumns} from deal_events e left join users u on u.id = e.actor_id
            where e.deal_id = ${dealId} and e.id < ${before}::bigint
            order by e.id desc limit ${options.limit})
          union all
          (select ${messageColumns} from messages m join users u on u.id = m.sender_id
            where m.deal_id = ${dealId} and m.id < ${before}::bigint
            order by m.id desc limit ${options.limit})
        ) entries order by id desc limit ${options.limit}`),
    );
  },

  /** The deal's latest system entries alone, newest first. */
  async events(db: DbOrTx, dealId: number, limit: number): Promise<TimelineRow[]> {
    return timelineRows(
      await db.execute(sql`
        select ${eventColumns} from deal_events e left join users u on u.id = e.actor_id
          where e.deal_id = ${dealId} order by e.id desc limit ${limit}`),
    );
  },

  /** The `limit` entries after `afterId`, oldest first (a client catching up). */
  async after(
    db: DbOrTx,
    dealId: number,
    options: { afterId: number; limit: number },
  ): Promise<TimelineRow[]> {
    return timelineRows(
      await db.execute(sql`
        select * from (
          (select ${eventColumns} from deal_events e left join users u on u.id = e.actor_id
            where e.deal_id = ${dealId} and e.id > ${options.afterId}::bigint
            order by e.id limit ${options.limit})
          union all
          (select ${messageColumns} from messages m join users u on u.id = m.sender_id
            where m.deal_id = ${dealId} and m.id > ${options.afterId}::bigint
            order by m.id limit ${options.limit})
        ) entries order by id limit ${options.limit}`),
    );
  },
};

/** A system entry's columns, as one row of the timeline. */
const eventColumns = sql.raw(`'event' as type, e.id, e.kind, e.message, e.created_at, e.actor_id as sender_id,
  null::text as client_id, u.username, u.full_name`);
/** A chat message's columns, as one row of the timeline. */
const messageColumns = sql.raw(
  `'message' as type, m.id, null as kind, m.content as message, m.created_at, m.sender_id, m.client_id, u.username, u.full_name`,
);

function timelineRows(result: unknown): TimelineRow[] {
  const { rows } = result as { rows: Array<Record<string, unknown>> };
  return rows.map((row) => ({
    type: row.type as 'event' | 'message',
    id: Number(row.id),
    kind: (row.kind as string | null) ?? null,
    message: String(row.message),
    createdAt: new Date(row.created_at as string),
    senderId: row.sender_id === null ? null : Number(row.sender_id),
    clientId: (row.client_id as string | null) ?? null,
    username: (row.username as string | null) ?? null,
    fullName: (row.full_name as string | null) ?? null,
  }));
}
