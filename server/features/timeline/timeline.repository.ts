import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { dealEvents } from '../../db/schema';

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

export const timelineRepository = {
  async insert(db: DbOrTx, event: NewDealEvent) {
    await db.insert(dealEvents).values({ ...event, details: event.details ?? null });
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
    const result = (await db.execute(sql`
      select * from (
        (select 'event' as type, e.id, e.kind, e.message, e.created_at, e.actor_id as sender_id,
                null::text as client_id, u.username, u.full_name
           from deal_events e left join users u on u.id = e.actor_id
          where e.deal_id = ${dealId} and e.id < ${before}::bigint
          order by e.id desc limit ${options.limit})
        union all
        (select 'message', m.id, null, m.content, m.created_at, m.sender_id, m.client_id, u.username, u.full_name
           from messages m join users u on u.id = m.sender_id
          where m.deal_id = ${dealId} and m.id < ${before}::bigint
          order by m.id desc limit ${options.limit})
      ) entries order by id desc limit ${options.limit}`)) as unknown as {
      rows: Array<Record<string, unknown>>;
    };
    return result.rows.map((row) => ({
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
  },
};
