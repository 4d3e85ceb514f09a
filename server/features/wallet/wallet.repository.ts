import { and, desc, eq, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { defineStatement, executeNamed, prepared, type RowOf } from '../../db/prepared';
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
/** `moveWallet`'s statement. */
const moveWallet = defineStatement({
  name: 'wallet_move',
  params: {
    userId: 'int4',
    delta: 'int8',
    depositedCents: 'int8',
    withdrawnCents: 'int8',
    maxBalanceCents: 'int8',
    kind: 'text',
    fromAccount: 'text',
    toAccount: 'text',
    amountCents: 'int8',
    dealId: 'int4?',
    milestoneId: 'int4?',
    historyType: 'text',
    description: 'text',
    actorId: 'text',
    actorUsername: 'text',
    address: 'text',
  },
  text: `
  with requester as (
    -- Names who moves the money for the audit log's trigger, so that the statement also stands alone
    -- (a deposit outside a transaction); inside one it repeats what BEGIN set.
    select set_config('dealmaker.actor_id', $actorId::text, true) as actor_id,
           set_config('dealmaker.actor_username', $actorUsername::text, true) as actor_username,
           set_config('dealmaker.address', $address::text, true) as address
  ), moved as (
    update wallets
       set balance_cents = balance_cents + $delta::bigint,
           total_deposited_cents = total_deposited_cents + $depositedCents::bigint,
           total_withdrawn_cents = total_withdrawn_cents + $withdrawnCents::bigint,
           updated_at = now()
     where user_id = $userId::int
       and balance_cents + $delta::bigint between 0 and $maxBalanceCents::bigint
       and exists (select from requester)
    returning *
  ), transfer as (
    insert into ledger_transfers (kind, from_account, to_account, amount_cents, deal_id, milestone_id)
    select $kind::text, $fromAccount::text, $toAccount::text, $amountCents::bigint, $dealId::int, $milestoneId::int
      from moved
    returning id
  ), history as (
    insert into wallet_transactions (user_id, transfer_id, type, amount_cents, balance_after_cents, description, deal_id)
    select $userId::int, transfer.id, $historyType::text, $delta::bigint, moved.balance_cents, $description::text, $dealId::int
      from moved, transfer
    returning id, created_at, transfer_id
  )
  select moved.balance_cents as "balanceCents", moved.total_deposited_cents as "totalDepositedCents",
         moved.total_withdrawn_cents as "totalWithdrawnCents", moved.updated_at as "updatedAt",
         history.id as "transactionId", history.created_at as "createdAt", history.transfer_id as "transferId"
    from moved, history`,
  columns: movedColumns(),
});

/**
 * `depositMany`'s statement: `moveWallet` for several deposits into one wallet, in their order, each
 * with its own transfer and history row and the balance right after it. Nothing moves when there is no
 * such wallet or the total would pass the maximum.
 */
const depositMany = defineStatement({
  name: 'wallet_deposit_many',
  params: {
    userId: 'int4',
    amounts: 'int8[]',
    descriptions: 'text[]',
    maxBalanceCents: 'int8',
    kind: 'text',
    fromAccount: 'text',
    toAccount: 'text',
    historyType: 'text',
    actorId: 'text',
    actorUsername: 'text',
    address: 'text',
  },
  text: `
  with requester as (
    select set_config('dealmaker.actor_id', $actorId::text, true) as actor_id,
           set_config('dealmaker.actor_username', $actorUsername::text, true) as actor_username,
           set_config('dealmaker.address', $address::text, true) as address
  ), items as (
    select item.amount, item.description, item.ord, nextval('ledger_transfers_id_seq') as transfer_id
      from unnest($amounts::bigint[], $descriptions::text[]) with ordinality as item(amount, description, ord)
  ), moved as (
    update wallets
       set balance_cents = balance_cents + total.cents,
           total_deposited_cents = total_deposited_cents + total.cents,
           updated_at = now()
      from (select sum(amount)::bigint as cents from items) total
     where user_id = $userId::int
       and balance_cents + total.cents <= $maxBalanceCents::bigint
       and exists (select from requester)
    returning total.cents as total_cents, wallets.balance_cents, wallets.total_deposited_cents,
              wallets.total_withdrawn_cents, wallets.updated_at
  ), numbered as (
    -- What each deposit left behind it: the totals less the deposits that come after it.
    select items.*, moved.*, (sum(items.amount) over (order by items.ord))::bigint - moved.total_cents as after_delta
      from items, moved
  ), transfer as (
    insert into ledger_transfers (id, kind, from_account, to_account, amount_cents, deal_id)
    select transfer_id, $kind::text, $fromAccount::text, $toAccount::text, amount, null from numbered
  ), history as (
    insert into wallet_transactions (user_id, transfer_id, type, amount_cents, balance_after_cents, description, deal_id)
    select $userId::int, transfer_id, $historyType::text, amount, balance_cents + after_delta, description, null from numbered
    returning id, created_at, transfer_id
  )
  select numbered.balance_cents + numbered.after_delta as "balanceCents",
         numbered.total_deposited_cents + numbered.after_delta as "totalDepositedCents",
         numbered.total_withdrawn_cents as "totalWithdrawnCents", numbered.updated_at as "updatedAt",
         history.id as "transactionId", history.created_at as "createdAt", history.transfer_id as "transferId"
    from history join numbered using (transfer_id)
   order by numbered.ord`,
  columns: movedColumns(),
});

/** What a wallet statement answers per movement (`moveWallet`, `depositMany`): the wallet after it and its history row. */
function movedColumns() {
  return {
    balanceCents: 'int8',
    totalDepositedCents: 'int8',
    totalWithdrawnCents: 'int8',
    updatedAt: 'timestamptz',
    transactionId: 'int8',
    createdAt: 'timestamptz',
    transferId: 'int8',
  } as const;
}

/** The wallet and history row as a wallet statement answers them. */
function movedRow(
  userId: number,
  row: RowOf<ReturnType<typeof movedColumns>>,
  history: { type: string; amountCents: number; description: string; dealId: number | null },
): { wallet: WalletRow; transaction: WalletTransactionRow } {
  const wallet: WalletRow = {
    userId,
    balanceCents: row.balanceCents,
    totalDepositedCents: row.totalDepositedCents,
    totalWithdrawnCents: row.totalWithdrawnCents,
    updatedAt: row.updatedAt,
  };
  return {
    wallet,
    transaction: {
      id: row.transactionId,
      userId,
      transferId: row.transferId,
      type: history.type,
      amountCents: history.amountCents,
      balanceAfterCents: wallet.balanceCents,
      description: history.description,
      dealId: history.dealId,
      createdAt: row.createdAt,
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
        milestoneId: number | null;
      };
      history: { type: string; description: string };
    },
  ): Promise<{ wallet: WalletRow; transaction: WalletTransactionRow } | undefined> {
    const { userId, delta, transfer, history } = move;
    const requester = requesterSettings();
    const [row] = await executeNamed(db, moveWallet, {
      userId,
      delta,
      depositedCents: move.depositedCents,
      withdrawnCents: move.withdrawnCents,
      maxBalanceCents: move.maxBalanceCents,
      kind: transfer.kind,
      fromAccount: transfer.fromAccount,
      toAccount: transfer.toAccount,
      amountCents: transfer.amountCents,
      dealId: transfer.dealId,
      milestoneId: transfer.milestoneId,
      historyType: history.type,
      description: history.description,
      actorId: requester.actorId,
      actorUsername: requester.actorUsername,
      address: requester.address,
    });
    if (!row) return undefined;
    return movedRow(userId, row, {
      type: history.type,
      amountCents: delta,
      description: history.description,
      dealId: transfer.dealId,
    });
  },

  /**
   * Several deposits into one wallet in one statement (`depositMany`), answered in their order;
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
    const rows = await executeNamed(db, depositMany, {
      userId,
      amounts: deposits.map((deposit) => deposit.amountCents),
      descriptions: deposits.map((deposit) => deposit.description),
      maxBalanceCents: move.maxBalanceCents,
      kind: transfer.kind,
      fromAccount: transfer.fromAccount,
      toAccount: transfer.toAccount,
      historyType: move.historyType,
      actorId: requester.actorId,
      actorUsername: requester.actorUsername,
      address: requester.address,
    });
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
