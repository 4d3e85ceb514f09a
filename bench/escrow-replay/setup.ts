// Setup of the payment replay (README.md): a migrated database with 7 users, 12 deals with escrows and a money history.
// pgbench replays as the owner, so the database is only migrated (no restricted role) and seeded as the owner,
// who alone may ANALYZE.
import pg from 'pg';
import { migrateDatabase } from '../../server/db/client';
import { seedMoneyHistory } from '../money-history';

const url = process.env.URL!;
await migrateDatabase(url);
const client = new pg.Client({ connectionString: url });
await client.connect();
const q = (text: string, values?: unknown[]) => client.query(text, values);
await q(
  `insert into users (username, email, full_name, password_hash, verified_at) select 'u' || g, 'u' || g || '@x.test', 'U ' || g, 'x', now() from generate_series(1, 7) g`,
);
await q(`insert into wallets (user_id, balance_cents) select id, 100000000000 from users where id <= 6`);
await q(
  `insert into deals (title, description, budget_cents, timeline, creator_id, counterpart_id, dealmaker_id) select 'Bench deal ' || g, 'd', 10000, 'now', 1 + (g % 6), 1 + ((g + 1) % 6), 7 from generate_series(1, 12) g`,
);
await q(
  `insert into escrows (deal_id, amount_cents, creator_share_cents, counterpart_share_cents) select id, 10000, 5000, 5000 from deals`,
);
await seedMoneyHistory(q, 7, 20000);
await client.end();
console.log('ok');
