import { type SQL, sql } from 'drizzle-orm';
import type { LedgerCheck } from '../../../contract/operator';
import type { DbOrTx } from '../../db/client';

type Row = Record<string, unknown>;

async function rows(db: DbOrTx, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}

/** The balance of every account, from the ledger alone. */
const accountSides = sql`
  select to_account as account, kind, amount_cents as amount from ledger_transfers
  union all select from_account, kind, -amount_cents from ledger_transfers`;

/**
 * Every money invariant of DESIGN.md §6, checked from the database alone: the
 * ledger is the truth; wallets, wallet history, escrows and settlements must
 * agree with it. Each query answers the rows that break its rule (none when
 * the books are right).
 */
const invariants: Array<{ name: string; description: string; query: SQL }> = [
  {
    name: 'transfer and wallet rows disagree',
    description: "Each transfer's wallet sides are written exactly once, with the right sign and user.",
    query: sql`
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
  },
  {
    name: 'accounts do not sum to zero',
    description: 'Double entry: what leaves one account arrives in another, so all accounts sum to zero.',
    query: sql`select sum(amount)::text as total from (${accountSides}) sides having sum(amount) <> 0`,
  },
  {
    name: 'account below zero',
    description: 'No account but the outside world is ever below zero.',
    query: sql`
      select account, sum(amount)::text as balance from (${accountSides}) sides
       where account <> 'world' group by account having sum(amount) < 0`,
  },
  {
    name: 'wallet differs from its ledger account',
    description: 'Each wallet equals its ledger account, and its totals equal its deposits and withdrawals.',
    query: sql`
      with derived as (
        select substring(account from 8)::int as user_id,
               sum(amount) as balance,
               sum(case when kind = 'deposit' then amount else 0 end) as deposited,
               sum(case when kind = 'withdraw' then -amount else 0 end) as withdrawn
          from (${accountSides}) sides
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
  },
  {
    name: 'balance_after chain broken',
    description:
      "Each user's history adds up: every balance_after is the running sum of the amounts, in id order.",
    query: sql`
      select user_id, id::text, balance_after_cents::text as balance_after, running::text
        from (
          select user_id, id, balance_after_cents,
                 sum(amount_cents) over (partition by user_id order by id) as running
            from wallet_transactions
        ) chain
       where balance_after_cents <> running or balance_after_cents < 0`,
  },
  {
    name: 'last balance_after differs from the wallet',
    description: "The last balance_after of each user's history is the wallet's balance.",
    query: sql`
      select w.user_id, w.balance_cents::text as balance, last.balance_after_cents::text as last_balance_after
        from wallets w
        left join lateral (
          select balance_after_cents from wallet_transactions t
           where t.user_id = w.user_id order by id desc limit 1
        ) last on true
       where coalesce(last.balance_after_cents, 0) <> w.balance_cents`,
  },
  {
    name: 'escrow holds the wrong amount',
    description:
      'An escrow holds exactly its funded milestones not released yet and the paid shares of the one being funded, until it is paid out (completed or settled), then nothing; an escrow that is gone held nothing.',
    query: sql`
      with held as (
        select substring(account from 8)::int as deal_id, sum(amount) as held
          from (${accountSides}) sides
         where account like 'escrow:%'
         group by account
      ), expected as (
        select e.deal_id, e.status,
               case when e.status in ('completed', 'settled') then 0
                    else e.held_cents
                       + (case when e.creator_paid and e.status = 'pending' then coalesce(m.creator_share_cents, 0) else 0 end)
                       + (case when e.counterpart_paid and e.status = 'pending' then coalesce(m.counterpart_share_cents, 0) else 0 end)
               end as expected
          from escrows e
          left join lateral (
            select creator_share_cents, counterpart_share_cents from milestones
             where deal_id = e.deal_id and status = 'open' order by position limit 1
          ) m on true
      )
      select coalesce(e.deal_id, h.deal_id) as deal_id, e.status,
             coalesce(h.held, 0)::text as held, coalesce(e.expected, 0)::text as expected
        from expected e
        full join held h on h.deal_id = e.deal_id
       where coalesce(h.held, 0) <> coalesce(e.expected, 0)`,
  },
  {
    name: 'milestones disagree with their escrow or the ledger',
    description:
      "A deal's milestones add up to its escrow (amounts to the budget, creator shares to the creator's half), the escrow row is their sum (held, released, and the halves of the one being funded), and the ledger holds for each milestone what it should: its amount while funded, its paid shares while open, nothing once released or refunded (a settled milestone's money left with the settlement's split, which is the deal's, so it keeps its amount here).",
    query: sql`
      with per_milestone as (
        select m.deal_id, m.id, m.status,
               coalesce(sum(case when t.kind = 'escrow_lock' then t.amount_cents else -t.amount_cents end), 0) as ledger,
               case when m.status in ('funded', 'submitted', 'settled') then m.amount_cents
                    when m.status = 'open' then
                      (case when m.creator_paid then m.creator_share_cents else 0 end)
                    + (case when m.counterpart_paid then m.counterpart_share_cents else 0 end)
                    else 0 end as expected
          from milestones m
          left join ledger_transfers t on t.milestone_id = m.id
         group by m.deal_id, m.id, m.status, m.amount_cents, m.creator_paid, m.counterpart_paid,
                  m.creator_share_cents, m.counterpart_share_cents
      )
      select deal_id, id::text as milestone_id, status, ledger::text as held, expected::text as expected
        from per_milestone where ledger <> expected
      union all
      select e.deal_id, null, e.status, coalesce(sum(m.amount_cents), 0)::text, e.amount_cents::text
        from escrows e
        left join milestones m on m.deal_id = e.deal_id
        left join lateral (
          select creator_paid, counterpart_paid from milestones
           where deal_id = e.deal_id and status = 'open' order by position limit 1
        ) c on true
       group by e.deal_id, e.status, e.amount_cents, e.creator_share_cents, e.held_cents, e.released_cents,
                e.creator_paid, e.counterpart_paid, c.creator_paid, c.counterpart_paid
      having coalesce(sum(m.amount_cents), 0) <> e.amount_cents
          or coalesce(sum(m.creator_share_cents), 0) <> e.creator_share_cents
          or (e.status <> 'settled' and e.held_cents <>
                coalesce(sum(m.amount_cents) filter (where m.status in ('funded', 'submitted')), 0))
          or e.released_cents <> coalesce(sum(m.amount_cents) filter (where m.status = 'released'), 0)
          or e.creator_paid <> coalesce(c.creator_paid, true)
          or e.counterpart_paid <> coalesce(c.counterpart_paid, true)`,
  },
  {
    name: 'half paid twice or refunded unpaid',
    description:
      "A share of a milestone is paid at most once: per payer and milestone, payments and refunds alternate, starting with a payment (a settlement's split, for no milestone, is checked with the settlement).",
    query: sql`
      select milestone_id, payer, id::text, paid_count::text
        from (
          select id, milestone_id,
                 case when kind = 'escrow_lock' then from_account else to_account end as payer,
                 sum(case when kind = 'escrow_lock' then 1 else -1 end) over (
                   partition by milestone_id, case when kind = 'escrow_lock' then from_account else to_account end
                   order by id
                 ) as paid_count
            from ledger_transfers
           where kind in ('escrow_lock', 'escrow_refund') and milestone_id is not null
        ) halves
       where paid_count not in (0, 1)`,
  },
  {
    name: 'escrow status disagrees with its halves or its deal',
    description:
      'Statuses agree: an open milestone has at most one share paid, a funded, submitted, released or settled one both, a refunded one none; locked, completed and settled escrows show both halves paid; the deal is completed exactly when its escrow was paid out.',
    query: sql`
      select e.deal_id, e.status, e.creator_paid, e.counterpart_paid, d.is_completed, null as milestone_id
        from escrows e join deals d on d.id = e.deal_id
       where (e.status = 'pending' and (e.creator_paid and e.counterpart_paid))
          or (e.status in ('locked', 'completed', 'settled') and not (e.creator_paid and e.counterpart_paid))
          or ((e.status in ('completed', 'settled')) <> d.is_completed)
          or e.status not in ('pending', 'locked', 'completed', 'settled')
      union all
      select m.deal_id, m.status, m.creator_paid, m.counterpart_paid, null, m.id
        from milestones m
       where (m.status = 'open' and m.creator_paid and m.counterpart_paid)
          or (m.status in ('funded', 'submitted', 'released', 'settled') and not (m.creator_paid and m.counterpart_paid))
          or (m.status = 'refunded' and (m.creator_paid or m.counterpart_paid))`,
  },
  {
    name: 'dealmaker not paid exactly once',
    description:
      "Each released milestone paid its dealmaker exactly once, its whole amount, and no other milestone paid anyone; a settled deal paid its dealmaker the settlement's share once (none when it is 0).",
    query: sql`
      select m.deal_id, m.id as milestone_id, m.status, count(t.id)::int as releases,
             string_agg(t.to_account || '=' || t.amount_cents::text, ',') as paid
        from milestones m
        join deals d on d.id = m.deal_id
        left join ledger_transfers t on t.kind = 'escrow_release' and t.milestone_id = m.id
       group by m.deal_id, m.id, m.status, m.amount_cents, d.dealmaker_id
      having count(t.id) <> (case when m.status = 'released' then 1 else 0 end)
          or (count(t.id) > 0 and (min(t.to_account) <> 'wallet:' || d.dealmaker_id or min(t.amount_cents) <> m.amount_cents))
      union all
      select d.id, null, coalesce(e.status, 'none'), count(t.id)::int,
             string_agg(t.to_account || '=' || t.amount_cents::text, ',')
        from deals d
        left join escrows e on e.deal_id = d.id
        left join settlements s on s.deal_id = d.id
        left join ledger_transfers t on t.kind = 'escrow_release' and t.milestone_id is null
                                    and t.from_account = 'escrow:' || d.id
       group by d.id, e.status, d.dealmaker_id, s.deal_id, s.to_dealmaker_cents
      having count(t.id) <> (case when s.deal_id is not null and s.to_dealmaker_cents > 0 then 1 else 0 end)
          or (count(t.id) > 0 and (min(t.to_account) <> 'wallet:' || d.dealmaker_id
                                   or min(t.amount_cents) <> s.to_dealmaker_cents))`,
  },
  {
    name: 'settlement does not add up',
    description:
      "A settlement's three parts add up to the money it split (its deal's settled milestones), and only a settled escrow has one.",
    query: sql`
      select s.deal_id, e.status,
             (select coalesce(sum(m.amount_cents), 0) from milestones m
               where m.deal_id = s.deal_id and m.status = 'settled')::text as held,
             (s.to_dealmaker_cents + s.refund_to_creator_cents + s.refund_to_counterpart_cents)::text as parts
        from settlements s left join escrows e on e.deal_id = s.deal_id
       where e.deal_id is null or e.status <> 'settled'
          or s.to_dealmaker_cents + s.refund_to_creator_cents + s.refund_to_counterpart_cents <>
             (select coalesce(sum(m.amount_cents), 0) from milestones m
               where m.deal_id = s.deal_id and m.status = 'settled')`,
  },
];

/** Runs every money invariant (GET /api/admin/ledger/check; the money tests after each scenario). */
export async function checkLedger(db: DbOrTx): Promise<LedgerCheck> {
  const checks: LedgerCheck['checks'] = [];
  for (const invariant of invariants) {
    const violations = await rows(db, invariant.query);
    checks.push({
      name: invariant.name,
      description: invariant.description,
      ok: violations.length === 0,
      violations,
    });
  }
  const [counts] = await rows(
    db,
    sql`select (select count(*) from ledger_transfers)::int as transfers,
               (select count(*) from wallets)::int as wallets,
               (select count(*) from escrows)::int as escrows,
               (select count(*) from wallet_transactions)::int as "walletTransactions"`,
  );
  return {
    ok: checks.every((check) => check.ok),
    checkedAt: new Date().toISOString(),
    counts: counts as LedgerCheck['counts'],
    checks,
  };
}

/**
 * Runs the ledger check by itself every `intervalMs` (LEDGER_CHECK_MINUTES), the first time soon after
 * start, and hands each result to `report` (the metrics show it per invariant, so an alert can fire on
 * the first wrong cent). A check that fails to run (the database away) is logged and tried next time.
 */
export function checkLedgerEvery(
  db: DbOrTx,
  intervalMs: number,
  report: (result: LedgerCheck) => void,
  log: { error(object: unknown, message: string): void },
): { stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const run = async () => {
    try {
      report(await checkLedger(db));
    } catch (error) {
      log.error({ err: error }, 'the scheduled ledger check could not run');
    }
    if (!stopped) timer = setTimeout(run, intervalMs).unref();
  };
  timer = setTimeout(run, Math.min(intervalMs, 5_000)).unref();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
