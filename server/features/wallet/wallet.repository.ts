import { and, desc, eq, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { executeNamed, prepared } from '../../db/prepared';
import { requesterSettings } from '../../db/requester';
import {
  ledgerTransfers,
  type WalletRow,
  type WalletTransactionRow,
  wallets,
  walletTransactions,
} from '../../db/schema';

const walletOf = prepared((db) =>
  db
    .select()
    .from(wallets)
    .where(eq(wallets.userId, sql.placeholder('userId')))
    .prepare('wallet_of_user'),
);
/** The statement of `moveWallet` ($1 user, $2 delta, …), prepared once per connection. */
const moveWalletSql = `
  with requester as (
    -- Names who moves the money for the audit log's trigger, so that the statement also stands alone
    -- (a deposit outside a transaction); inside one it repeats what BEGIN set.
    select set_config('dealmaker.actor_id', $13::text, true) as actor_id,
           set_config('dealmaker.actor_username', $14::text, true) as actor_username,
           set_config('dealmaker.address', $15::text, true) as address
  ), moved as (
    update wallets
       set balance_cents = balance_cents + $2::bigint,
           total_deposited_cents = total_deposited_cents + $3::bigint,
           total_withdrawn_cents = total_withdrawn_cents + $4::bigint,
           updated_at = now()
     where user_id = $1::int
       and balance_cents + $2::bigint between 0 and $5::bigint
       and exists (select from requester)
    returning *
  ), transfer as (
    insert into ledger_transfers (kind, from_account, to_account, amount_cents, deal_id)
    select $6::text, $7::text, $8::text, $9::bigint, $10::int
      from moved
    returning id
  ), history as (
    insert into wallet_transactions (user_id, transfer_id, type, amount_cents, balance_after_cents, description, deal_id)
    select $1::int, transfer.id, $11::text, $2::bigint, moved.balance_cents, $12::text, $10::int
      from moved, transfer
    returning id, created_at, transfer_id
  )
  select moved.balance_cents, moved.total_deposited_cents, moved.total_withdrawn_cents, moved.updated_at,
         history.id as transaction_id, history.created_at, history.transfer_id
    from moved, history`;

/**
 * The statement of `depositMany` ($1 user, $2 amounts, $3 descriptions, $4 maximum balance, $5–$8 the
 * transfer's kind, accounts and history type, $9–$11 the requester): `moveWallet` for several deposits
 * into one wallet, in their order, each with its own transfer and history row and the balance right
 * after it. Nothing moves when there is no such wallet or the total would pass the maximum.
 */
const depositManySql = `
  with requester as (
    select set_config('dealmaker.actor_id', $9::text, true) as actor_id,
           set_config('dealmaker.actor_username', $10::text, true) as actor_username,
           set_config('dealmaker.address', $11::text, true) as address
  ), items as (
    select item.amount, item.description, item.ord, nextval('ledger_transfers_id_seq') as transfer_id
      from unnest($2::bigint[], $3::text[]) with ordinality as item(amount, description, ord)
  ), moved as (
    update wallets
       set balance_cents = balance_cents + total.cents,
           total_deposited_cents = total_deposited_cents + total.cents,
           updated_at = now()
      from (select sum(amount)::bigint as cents from items) total
     where user_id = $1::int
       and balance_cents + total.cents <= $4::bigint
       and exists (select from requester)
    returning total.cents as total_cents, wallets.balance_cents, wallets.total_deposited_cents,
              wallets.total_withdrawn_cents, wallets.updated_at
  ), numbered as (
    -- What each deposit left behind it: the totals less the deposits that come after it.
    select items.*, moved.*, sum(items.amount) over (order by items.ord) - moved.total_cents as after_delta
      from items, moved
  ), transfer as (
    insert into ledger_transfers (id, kind, from_account, to_account, amount_cents, deal_id)
    select transfer_id, $5::text, $6::text, $7::text, amount, null from numbered
  ), history as (
    insert into wallet_transactions (user_id, transfer_id, type, amount_cents, balance_after_cents, description, deal_id)
    select $1::int, transfer_id, $8::text, amount, balance_cents + after_delta, description, null from numbered
    returning id, created_at, transfer_id
  )
  select numbered.balance_cents + numbered.after_delta as balance_cents,
         numbered.total_deposited_cents + numbered.after_delta as total_deposited_cents,
         numbered.total_withdrawn_cents, numbered.updated_at,
         history.id as transaction_id, history.created_at, history.transfer_id
    from history join numbered using (transfer_id)
   order by numbered.ord`;

/** The wallet and history row as a wallet statement answers them (`moveWallet`, `depositMany`). */
function movedRow(
  userId: number,
  row: Record<string, string | Date>,
  history: { type: string; amountCents: number; description: string; dealId: number | null },
): { wallet: WalletRow; transaction: WalletTransactionRow } {
  const wallet: WalletRow = {
    userId,
    balanceCents: Number(row.balance_cents),
    totalDepositedCents: Number(row.total_deposited_cents),
    totalWithdrawnCents: Number(row.total_withdrawn_cents),
    updatedAt: new Date(row.updated_at!),
  };
  return {
    wallet,
    transaction: {
      id: Number(row.transaction_id),
      userId,
      transferId: Number(row.transfer_id),
      type: history.type,
      amountCents: history.amountCents,
      balanceAfterCents: wallet.balanceCents,
      description: history.description,
      dealId: history.dealId,
      createdAt: new Date(row.created_at!),
    },
  };
}

export const walletRepository = {
  /** Creates the user's empty wallet unless it exists; safe when two requests race to create it. */
  async ensure(db: DbOrTx, userId: number) {
    await db.insert(wallets).values({ userId }).onConflictDoNothing({ target: wallets.userId });
  },

  async find(db: DbOrTx, userId: number) {
    const [row] = await walletOf(db).execute({ userId });
    return row;
  },

  /**
   * One transfer with one wallet side, in one statement: the wallet changes by
   * `delta` (locking its row until the transaction ends), the ledger_transfers
   * row and the wallet's history row (with the balance right after) are
   * written. Nothing happens — and nothing comes back — when there is no such
   * wallet or the balance would leave [0, maxBalance].
   */
  async moveWallet(
    db: DbOrTx,
    move: {
      userId: number;
      delta: number;
      depositedCents: number;
      withdrawnCents: number;
      maxBalanceCents: number;
      transfer: {
        kind: string;
        fromAccount: string;
        toAccount: string;
        amountCents: number;
        dealId: number | null;
      };
      history: { type: string; description: string };
    },
  ): Promise<{ wallet: WalletRow; transaction: WalletTransactionRow } | undefined> {
    const { userId, delta, transfer, history } = move;
    const requester = requesterSettings();
    const [row] = await executeNamed<Record<string, string | Date>>(db, 'wallet_move', moveWalletSql, [
      userId,
      delta,
      move.depositedCents,
      move.withdrawnCents,
      move.maxBalanceCents,
      transfer.kind,
      transfer.fromAccount,
      transfer.toAccount,
      transfer.amountCents,
      transfer.dealId,
      history.type,
      history.description,
      requester.actorId,
      requester.actorUsername,
      requester.address,
    ]);
    if (!row) return undefined;
    return movedRow(userId, row, {
      type: history.type,
      amountCents: delta,
      description: history.description,
      dealId: transfer.dealId,
    });
  },

  /**
   * Several deposits into one wallet in one statement (`depositManySql`), answered in their order;
   * nothing, and nothing moves, when there is no such wallet or the total would pass the maximum.
   */
  async depositMany(
    db: DbOrTx,
    move: {
      userId: number;
      deposits: Array<{ amountCents: number; description: string }>;
      maxBalanceCents: number;
      transfer: { kind: string; fromAccount: string; toAccount: string };
      historyType: string;
      requester: { actorId: string; actorUsername: string; address: string };
    },
  ): Promise<Array<{ wallet: WalletRow; transaction: WalletTransactionRow }> | undefined> {
    const { userId, deposits, transfer, requester } = move;
    const rows = await executeNamed<Record<string, string | Date>>(
      db,
      'wallet_deposit_many',
      depositManySql,
      [
        userId,
        deposits.map((deposit) => deposit.amountCents),
        deposits.map((deposit) => deposit.description),
        move.maxBalanceCents,
        transfer.kind,
        transfer.fromAccount,
        transfer.toAccount,
        move.historyType,
        requester.actorId,
        requester.actorUsername,
        requester.address,
      ],
    );
    if (rows.length !== deposits.length) return undefined;
    return rows.map((row, i) =>
      movedRow(userId, row, {
        type: move.historyType,
        amountCents: deposits[i]!.amountCents,
        description: deposits[i]!.description,
        dealId: null,
      }),
    );
  },

  /** Newest first; `beforeId` pages back, `type` keeps one type; no `limit` lists them all. */
  listTransactions(
    db: DbOrTx,
    userId: number,
    options: { beforeId?: number; limit?: number; type?: string },
  ) {
    const query = db
      .select()
      .from(walletTransactions)
      .where(
        and(
          eq(walletTransactions.userId, userId),
          options.beforeId ? lt(walletTransactions.id, options.beforeId) : undefined,
          options.type ? eq(walletTransactions.type, options.type) : undefined,
        ),
      )
      .orderBy(desc(walletTransactions.id));
    return options.limit === undefined ? query : query.limit(options.limit);
  },
};

export const ledgerRepository = {
  /** An account's balance as the ledger tells it: everything in minus everything out. */
  async balanceOf(db: DbOrTx, account: string): Promise<number> {
    const [row] = await db
      .select({
        balance: sql<string>`coalesce(sum(case when ${ledgerTransfers.toAccount} = ${account} then ${ledgerTransfers.amountCents} else -${ledgerTransfers.amountCents} end), 0)::text`,
      })
      .from(ledgerTransfers)
      .where(or(eq(ledgerTransfers.toAccount, account), eq(ledgerTransfers.fromAccount, account)));
    return Number(row?.balance ?? 0);
  },
};
