import pg from 'pg';
import { TokenSigner } from '../../server/features/auth/tokens';
import { seedMoneyHistory } from '../money-history';
import type { PlanUser } from './protocol';

/**
 * The capacity bench's data, straight into the database with triggers off (setup, not anyone's change:
 * not in the audit log), as http.bench.ts seeds:
 *
 * - `userCount` verified users, each signed in once: an open session row and a token signed with the
 *   server's JWT_SECRET, as a sign-in would issue (no password hashing: 20,000 argon2 hashes would take
 *   minutes and measure nothing here).
 * - Team deals: users are split among the workers (user u → worker u % workers), and within each worker
 *   every run of three users shares a deal in progress (creator, counterpart, dealmaker, with its escrow
 *   and milestone as the product opens them, and 20 chat messages), twice over with shifted teams, so
 *   most users take part in two deals whose participants all live in the same worker: a chat message's
 *   deliveries are timed on one clock.
 * - Open deals up to `dealCount` in all, by random users, titled with two words of `words` (each word is
 *   in ~5% of titles: a search's matches), for the Deals page, searches and bids.
 */
export const words = (
  'freight packaging warehouse courier bakery software solar textile furniture catering printing plumbing ' +
  'roofing landscaping consulting marketing translation recruiting cleaning security coffee dairy vineyard ' +
  'fishing mining timber ceramics jewelry bicycle pharmacy bookkeeping photography tailoring brewery orchard ' +
  'fitness veterinary aviation shipping robotics'
).split(' ');

export type Seeded = {
  /** By user index (0 … userCount − 1). */
  users: PlanUser[];
  openDeals: Array<[dealId: number, creatorId: number]>;
};

export async function seed(
  url: string,
  options: { userCount: number; workers: number; dealCount: number; jwtSecret: string },
): Promise<Seeded> {
  const { userCount, workers } = options;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`SET session_replication_role = replica`);
    const inserted = await client.query<{ id: number; username: string; email: string }>(
      `insert into users (username, email, full_name, password_hash, verified_at)
       select 'cap_' || g, 'cap_' || g || '@example.test', 'Capacity User ' || g, 'not-a-password-hash', now()
         from generate_series(0, $1::int - 1) g
       returning id, username, email`,
      [userCount],
    );
    const rows = new Array<{ id: number; username: string; email: string }>(userCount);
    for (const row of inserted.rows) rows[Number(row.username.slice(4))] = row;
    await client.query(`insert into wallets (user_id) select id from users`);
    const expiresAt = new Date(Date.now() + 2 * 24 * 3_600_000);
    await client.query(
      `insert into sessions (id, user_id, expires_at, device)
       select 'capacity-' || id, id, $1, 'Capacity bench' from users`,
      [expiresAt],
    );
    const signer = new TokenSigner(options.jwtSecret);
    const users: PlanUser[] = await Promise.all(
      rows.map(async (row) => ({
        id: row.id,
        token: await signer.sign({ ...row, tokenVersion: 0 }, { id: `capacity-${row.id}`, expiresAt }),
        deals: [],
      })),
    );

    // Teams of three consecutive users of the same worker, and again shifted by one with the roles turned.
    const teams: number[][] = [];
    for (let worker = 0; worker < workers; worker++) {
      const own = users.map((_, index) => index).filter((index) => index % workers === worker);
      for (let k = 0; k + 2 < own.length; k += 3) teams.push([own[k]!, own[k + 1]!, own[k + 2]!]);
      for (let k = 1; k + 3 < own.length; k += 3) teams.push([own[k + 1]!, own[k + 2]!, own[k]!]);
    }
    const team = await client.query<{ id: number; title: string }>(
      `insert into deals (title, description, budget_cents, timeline, creator_id, counterpart_id, dealmaker_id)
       select 'Team deal ' || n, 'Work in progress between three bench users, with its chat.', 500000, '6 weeks', c, p, d
         from unnest($1::int[], $2::int[], $3::int[]) with ordinality as t(c, p, d, n)
       returning id, title`,
      [0, 1, 2].map((role) => teams.map((members) => users[members[role]!]!.id)),
    );
    for (const row of team.rows) {
      for (const member of teams[Number(row.title.slice('Team deal '.length)) - 1]!) {
        users[member]!.deals.push(row.id);
      }
    }
    // Escrow and its one milestone, as the product opens them when a dealmaker is assigned.
    await client.query(
      `insert into escrows (deal_id, amount_cents, creator_share_cents, counterpart_share_cents)
       select id, budget_cents, budget_cents - budget_cents / 2, budget_cents / 2
         from deals where dealmaker_id is not null`,
    );
    await client.query(
      `insert into milestones (deal_id, position, title, amount_cents, creator_share_cents, counterpart_share_cents)
       select id, 1, 'Whole deal', budget_cents, budget_cents - budget_cents / 2, budget_cents / 2
         from deals where dealmaker_id is not null`,
    );
    await client.query(
      `insert into messages (deal_id, sender_id, content)
       select d.id, case g % 3 when 0 then d.creator_id when 1 then d.counterpart_id else d.dealmaker_id end,
              'Message ' || g || ' about the work'
         from deals d cross join generate_series(1, 20) g where d.dealmaker_id is not null`,
    );

    const openCount = Math.max(0, options.dealCount - teams.length);
    const creators = Array.from({ length: openCount }, (_, g) => users[(g * 7919) % userCount]!.id);
    const titles = Array.from({ length: openCount }, (_, g) => {
      const first = words[g % words.length]!;
      return `${first[0]!.toUpperCase()}${first.slice(1)} ${words[Math.floor(g / words.length) % words.length]} deal ${g}`;
    });
    const open = await client.query<{ id: number; creator_id: number }>(
      `insert into deals (title, description, budget_cents, timeline, creator_id)
       select title, 'Deal ' || g || ' for a regional buyer with a long history: terms, volumes and dates to agree.',
              100000 + g, '4 weeks', c
         from unnest($1::int[], $2::text[]) with ordinality as t(c, title, g)
       returning id, creator_id`,
      [creators, titles],
    );

    // A money history like an established marketplace's, on a user the workload leaves alone.
    const ledgerUser = await client.query<{ id: number }>(
      `insert into users (username, email, full_name, password_hash, verified_at)
       values ('cap_ledger', 'cap_ledger@example.test', 'Capacity Ledger', 'not-a-password-hash', now())
       returning id`,
    );
    await seedMoneyHistory((text, values) => client.query(text, values), ledgerUser.rows[0]!.id, 20_000);
    await client.query(`SET session_replication_role = origin`);
    await client.query(`vacuum analyze`);
    return { users, openDeals: open.rows.map((row) => [row.id, row.creator_id]) };
  } finally {
    await client.end();
  }
}
