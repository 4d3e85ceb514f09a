import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

type Row = Record<string, unknown>;

async function rows(db: DbOrTx, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}

/**
 * Every money invariant of DESIGN.md §6, checked from the database alone:
 * the ledger is the truth, wallets, wallet history and escrows must agree
 * with it. Returns one line per violation (none when the books are right).
 * Used by the concurrency and model tests; cheap enough to run on demand.
 */
export async function auditLedger(db: DbOrTx): Promise<string[]> {
  const problems: string[] = [];
  const check = async (name: string, query: SQL) => {
    for (const row of await rows(db, query)) problems.push(`${name}: ${JSON.stringify(row)}`);
  };

  // Each transfer's wallet sides are written exactly once, with the right sign and user.
  await check(
    'transfer and wallet rows disagree',
    sql`
      with expected as (
        select id as transfer_id, substring(to_account from 8)::int as user_id, amount_cents as amount
          from ledger_transfers where to_account like 'wallet:%'
        union all
        select id, substring(from_account from 8)::int, -amount_cents
          from ledger_transfers where from_account like 'wallet:%'
      )
      select coalesce(e.transfer_id, w.transfer_id)::text as transfer_id,
             e.amount::text as expected, w.amount_cents::text as written
        from expected e
        full join wallet_transactions w on w.transfer_id = e.transfer_id and w.user_id = e.user_id
       where e.transfer_id is null or w.id is null or w.amount_cents <> e.amount`,
  );

  // Double entry: what leaves one account arrives in another, so all accounts sum to zero.
  await check(
    'accounts do not sum to zero',
    sql`
      select sum(amount)::text as total from (
        select amount_cents as amount from ledger_transfers
        union all select -amount_cents from ledger_transfers
      ) sides having sum(amount) <> 0`,
  );

  // No account but the outside world is ever below zero.
  await check(
    'account below zero',
    sql`
      select account, sum(amount)::text as balance from (
        select to_account as account, amount_cents as amount from ledger_transfers
        union all select from_account, -amount_cents from ledger_transfers
      ) sides where account <> 'world' group by account having sum(amount) < 0`,
  );

  // Each wallet row equals its ledger account, and its totals equal its deposits and withdrawals.
  await check(
    'wallet differs from its ledger account',
    sql`
      with derived as (
        select substring(account from 8)::int as user_id,
               sum(amount) as balance,
               sum(case when kind = 'deposit' then amount else 0 end) as deposited,
               sum(case when kind = 'withdraw' then -amount else 0 end) as withdrawn
          from (
            select to_account as account, kind, amount_cents as amount from ledger_transfers
            union all select from_account, kind, -amount_cents from ledger_transfers
          ) sides
         where account like 'wallet:%'
         group by account
      )
      select coalesce(w.user_id, d.user_id) as user_id,
             w.balance_cents::text as balance, d.balance::text as ledger_balance,
             w.total_deposited_cents::text as deposited, d.deposited::text as ledger_deposited,
             w.total_withdrawn_cents::text as withdrawn, d.withdrawn::text as ledger_withdrawn
        from wallets w
        full join derived d on d.user_id = w.user_id
       where w.user_id is null
          or w.balance_cents <> coalesce(d.balance, 0)
          or w.total_deposited_cents <> coalesce(d.deposited, 0)
          or w.total_withdrawn_cents <> coalesce(d.withdrawn, 0)
          or w.balance_cents < 0`,
  );

  // Each user's history adds up: every balance_after is the running sum of the amounts, in id order.
  await check(
    'balance_after chain broken',
    sql`
      select user_id, id::text, balance_after_cents::text as balance_after, running::text
        from (
          select user_id, id, balance_after_cents,
                 sum(amount_cents) over (partition by user_id order by id) as running
            from wallet_transactions
        ) chain
       where balance_after_cents <> running or balance_after_cents < 0`,
  );
  await check(
    'last balance_after differs from the wallet',
    sql`
      select w.user_id, w.balance_cents::text as balance, last.balance_after_cents::text as last_balance_after
        from wallets w
        left join lateral (
          select balance_after_cents from wallet_transactions t
           where t.user_id = w.user_id order by id desc limit 1
        ) last on true
       where coalesce(last.balance_after_cents, 0) <> w.balance_cents`,
  );

  // An escrow holds exactly its paid shares until completion, then nothing; an escrow that is gone held nothing.
  await check(
    'escrow holds the wrong amount',
    sql`
      with held as (
        select substring(account from 8)::int as deal_id, sum(amount) as held
          from (
            select to_account as account, amount_cents as amount from ledger_transfers
            union all select from_account, -amount_cents from ledger_transfers
          ) sides
         where account like 'escrow:%'
         group by account
      )
      select coalesce(e.deal_id, h.deal_id) as deal_id, e.status,
             coalesce(h.held, 0)::text as held,
             (case when e.status = 'completed' then 0
                   else (case when e.creator_paid then e.creator_share_cents else 0 end)
                      + (case when e.counterpart_paid then e.counterpart_share_cents else 0 end)
              end)::text as expected
        from escrows e
        full join held h on h.deal_id = e.deal_id
       where coalesce(h.held, 0) <> coalesce(
               case when e.status = 'completed' then 0
                    else (case when e.creator_paid then e.creator_share_cents else 0 end)
                       + (case when e.counterpart_paid then e.counterpart_share_cents else 0 end)
               end, 0)`,
  );

  // A half is paid at most once: per payer and escrow, payments and refunds alternate, starting with a payment.
  await check(
    'half paid twice or refunded unpaid',
    sql`
      select account, payer, id::text, paid_count::text
        from (
          select id,
                 case when kind = 'escrow_lock' then to_account else from_account end as account,
                 case when kind = 'escrow_lock' then from_account else to_account end as payer,
                 sum(case when kind = 'escrow_lock' then 1 else -1 end) over (
                   partition by case when kind = 'escrow_lock' then to_account else from_account end,
                                case when kind = 'escrow_lock' then from_account else to_account end
                   order by id
                 ) as paid_count
            from ledger_transfers
           where kind in ('escrow_lock', 'escrow_refund')
        ) halves
       where paid_count not in (0, 1)`,
  );

  // Statuses agree: locked = both halves paid, completed = the deal completed.
  await check(
    'escrow status disagrees with its halves or its deal',
    sql`
      select e.deal_id, e.status, e.creator_paid, e.counterpart_paid, d.is_completed
        from escrows e join deals d on d.id = e.deal_id
       where (e.status = 'pending' and (e.creator_paid and e.counterpart_paid))
          or (e.status in ('locked', 'completed') and not (e.creator_paid and e.counterpart_paid))
          or ((e.status = 'completed') <> d.is_completed)
          or e.status not in ('pending', 'locked', 'completed')`,
  );

  // Every completed deal paid its dealmaker exactly once, the whole escrow; no other deal paid anyone.
  await check(
    'dealmaker not paid exactly once',
    sql`
      select d.id as deal_id, d.is_completed, count(t.id)::int as releases,
             string_agg(t.to_account || '=' || t.amount_cents::text, ',') as paid
        from deals d
        left join escrows e on e.deal_id = d.id
        left join ledger_transfers t on t.kind = 'escrow_release' and t.from_account = 'escrow:' || d.id
       group by d.id, d.is_completed, d.dealmaker_id, e.amount_cents
      having count(t.id) <> (case when d.is_completed then 1 else 0 end)
          or (d.is_completed and (
                min(t.to_account) <> 'wallet:' || d.dealmaker_id
                or min(t.amount_cents) <> e.amount_cents))`,
  );

  return problems;
}
