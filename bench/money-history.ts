/**
 * A money history for a bench database, so that it looks like an established marketplace's rather
 * than a fresh install's: `count` deposits into one seeded user's wallet, with their ledger and
 * history rows (consistent, so the ledger checks still hold), then ANALYZE.
 *
 * Why: PostgreSQL checks each history row's foreign key to ledger_transfers with a plan cached per
 * connection. Planned while ledger_transfers is empty or tiny, that plan is a sequential scan, and it
 * stays one as the table grows until autovacuum next analyzes it (up to a minute): on a fresh
 * database, a few thousand money movements later every check reads the whole table, and the
 * figures depend on which pooled connection a statement lands on (seen: the same deposit bench at
 * 300 and at 4,000 requests/s). A running marketplace's ledger is large and analyzed.
 */
export async function seedMoneyHistory(
  query: (text: string, values?: unknown[]) => Promise<unknown>,
  userId: number,
  count: number,
) {
  await query(`insert into wallets (user_id) values ($1) on conflict do nothing`, [userId]);
  await query(
    `with transfers as (
       insert into ledger_transfers (kind, from_account, to_account, amount_cents)
       select 'deposit', 'world', 'wallet:' || $1::int, 100 from generate_series(1, $2::int)
       returning id
     )
     insert into wallet_transactions (user_id, transfer_id, type, amount_cents, balance_after_cents, description)
     select $1::int, id, 'deposit', 100, 100 * row_number() over (order by id), 'Deposit of $1.00' from transfers`,
    [userId, count],
  );
  await query(
    `update wallets set balance_cents = balance_cents + 100 * $2::bigint,
                        total_deposited_cents = total_deposited_cents + 100 * $2::bigint
      where user_id = $1`,
    [userId, count],
  );
  await query('analyze');
}
