import type { FastifyBaseLogger } from 'fastify';
import { errorCodes } from '../../../contract/errors';
import { formatCents } from '../../../contract/money';
import {
  type EscrowActionResponse,
  type EscrowStatusResponse,
  escrowMessages,
} from '../../../contract/wallet';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { conflict, forbidden } from '../../lib/errors';
import type { EventPublisher } from '../../realtime/publisher';
import { participantIds } from '../deals/deal-roles';
import type { DealRow } from '../deals/deals.repository';
import type { DealsService } from '../deals/deals.service';
import { type EscrowRow, escrowRepository } from './escrow.repository';
import { type IdempotencyRequest, idempotent, type Outcome } from './idempotency';
import { accounts, transfer } from './ledger';
import { publishAfterCommit, runTransaction } from './run-transaction';
import { presentEscrow, presentWallet } from './wallet.presenter';
import type { WalletService } from './wallet.service';

export type DealerSide = 'creator' | 'counterpart';

/** Which half of the escrow the user pays, or null when they are not a dealer of the deal. */
export function dealerSideOf(deal: DealRow, userId: number): DealerSide | null {
  if (deal.creatorId === userId) return 'creator';
  if (deal.counterpartId === userId) return 'counterpart';
  return null;
}

/** The creator's share is ceil(amount / 2) cents, the counterpart's the rest (DESIGN.md §5 Escrow). */
export function splitEscrow(amountCents: number) {
  const counterpartShareCents = Math.floor(amountCents / 2);
  return { creatorShareCents: amountCents - counterpartShareCents, counterpartShareCents };
}

const shareOf = (escrow: EscrowRow, side: DealerSide) =>
  side === 'creator' ? escrow.creatorShareCents : escrow.counterpartShareCents;
const paidBy = (escrow: EscrowRow, side: DealerSide) =>
  side === 'creator' ? escrow.creatorPaid : escrow.counterpartPaid;
const paidColumn = (side: DealerSide) => (side === 'creator' ? 'creatorPaid' : 'counterpartPaid');

const notPaid = () => conflict('You have not paid your half, so there is nothing to refund.');

/**
 * The escrow of each deal that has a dealmaker (DESIGN.md §5 Escrow): each
 * dealer pays their half from their wallet, may take it back while the
 * escrow is not locked, and the whole amount goes to the dealmaker when the
 * deal completes (see CompletionService).
 *
 * Every movement runs in one transaction that locks, in this order, the
 * idempotency key, the deal, the escrow and the wallet; events go out after
 * the commit.
 */
export class EscrowService {
  constructor(
    private readonly db: Db,
    private readonly wallets: WalletService,
    private readonly events: EventPublisher,
    private readonly log: FastifyBaseLogger,
    /** The deals feature, which itself needs this service: resolved when first used. */
    private readonly dealsService: () => DealsService,
  ) {}

  private get deals() {
    return this.dealsService();
  }

  /** Whether any half of the deal's escrow is paid: the deal is then protected from delete, leave and changes. */
  async anyHalfPaid(tx: DbOrTx, dealId: number): Promise<boolean> {
    const escrow = await escrowRepository.findByDealId(tx, dealId);
    return !!escrow && (escrow.creatorPaid || escrow.counterpartPaid);
  }

  /** GET /wallet/escrow/{dealId}: participants only; the escrow is created on first sight once a dealmaker exists. */
  async status(dealId: number, viewerId: number): Promise<EscrowStatusResponse> {
    const deal = await this.deals.requireParticipant(this.db, dealId, viewerId);
    let escrow = await escrowRepository.findByDealId(this.db, dealId);
    if (!escrow && deal.dealmakerId !== null) {
      // Created under the deal lock, the same order as every payment, so a first read never deadlocks with one.
      escrow = await runTransaction(this.db, async (tx) => this.open(tx, await this.deals.lock(tx, dealId)));
    }
    return {
      escrowExists: !!escrow,
      escrow: escrow ? presentEscrow(escrow) : null,
      deal: await this.deals.present(this.db, dealId, viewerId),
    };
  }

  /** POST /wallet/escrow/{dealId}/lock: the caller pays their own half from their wallet. */
  async pay(
    dealId: number,
    userId: number,
    idempotency?: IdempotencyRequest,
  ): Promise<Outcome<EscrowActionResponse>> {
    const outcome = await runTransaction(this.db, (tx) =>
      idempotent(tx, userId, idempotency, async () => {
        const deal = await this.deals.lock(tx, dealId);
        const side = dealerSideOf(deal, userId);
        if (!side) throw forbidden('Only the dealers of this deal can pay into its escrow.');
        if (deal.isCompleted) throw conflict('This deal is already completed.');
        if (deal.dealmakerId === null) {
          throw conflict('The escrow opens once the deal has a dealmaker.');
        }
        if (deal.counterpartId === null) {
          throw conflict('Both dealers must be on the deal before the escrow can be paid.');
        }
        const escrow = (await this.open(tx, deal))!;
        if (paidBy(escrow, side)) throw conflict('You have already paid your half');
        const share = shareOf(escrow, side);
        const wallet = await this.wallets.lockWallet(tx, userId);
        if (wallet.balanceCents < share) {
          throw conflict(
            `Insufficient balance: you need $${formatCents(share)}, your balance is $${formatCents(wallet.balanceCents)}. Please deposit first.`,
            errorCodes.insufficientFunds,
          );
        }
        // A one-cent budget leaves the counterpart a zero share: their half is paid without a transfer.
        const after =
          share === 0
            ? wallet
            : (
                await transfer(tx, {
                  kind: 'escrow_lock',
                  from: accounts.wallet(userId),
                  to: accounts.escrow(dealId),
                  amountCents: share,
                  dealId,
                  description: `Escrow payment for "${deal.title}"`,
                })
              ).wallets[0];
        const otherSide: DealerSide = side === 'creator' ? 'counterpart' : 'creator';
        const locked = paidBy(escrow, otherSide);
        const updated = await escrowRepository.update(tx, dealId, {
          [paidColumn(side)]: true,
          status: locked ? 'locked' : 'pending',
        });
        return {
          statusCode: 200,
          body: {
            message: locked
              ? escrowMessages.locked
              : `Your half ($${formatCents(share)}) has been paid successfully. Waiting for the other party.`,
            escrow: presentEscrow(updated),
            wallet: presentWallet(after),
          },
          afterCommit: () => {
            this.publish(deal, updated);
            this.announceProtection(deal);
            this.events.notify([otherDealerOf(deal, side)], {
              kind: 'escrow-paid',
              dealId,
              message: `The other dealer paid their half ($${formatCents(share)}) into the escrow of "${deal.title}".`,
            });
            if (locked) {
              this.events.notify(participantIds(deal), {
                kind: 'escrow-locked',
                dealId,
                message: `Both halves are paid: $${formatCents(updated.amountCents)} is locked in escrow for "${deal.title}" until the deal is completed.`,
              });
            }
          },
        };
      }),
    );
    publishAfterCommit(this.log, outcome.afterCommit);
    return outcome;
  }

  /** POST /wallet/escrow/{dealId}/refund: the caller takes their half back while the escrow is not locked. */
  async refund(
    dealId: number,
    userId: number,
    idempotency?: IdempotencyRequest,
  ): Promise<Outcome<EscrowActionResponse>> {
    const outcome = await runTransaction(this.db, (tx) =>
      idempotent(tx, userId, idempotency, async () => {
        const deal = await this.deals.lock(tx, dealId);
        const side = dealerSideOf(deal, userId);
        if (!side) throw forbidden('Only the dealers of this deal can take back an escrow payment.');
        const escrow = await escrowRepository.lockByDealId(tx, dealId);
        if (!escrow) throw notPaid();
        if (escrow.status === 'completed') {
          throw conflict('This deal is completed and its escrow was released to the dealmaker.');
        }
        if (escrow.status === 'locked') {
          throw conflict('Both halves are paid and the escrow is locked: it can no longer be refunded.');
        }
        if (!paidBy(escrow, side)) throw notPaid();
        const share = shareOf(escrow, side);
        const wallet = await this.wallets.lockWallet(tx, userId);
        const after =
          share === 0
            ? wallet
            : (
                await transfer(tx, {
                  kind: 'escrow_refund',
                  from: accounts.escrow(dealId),
                  to: accounts.wallet(userId),
                  amountCents: share,
                  dealId,
                  description: `Escrow refund for "${deal.title}"`,
                })
              ).wallets[0];
        const updated = await escrowRepository.update(tx, dealId, { [paidColumn(side)]: false });
        return {
          statusCode: 200,
          body: {
            message: `Your half ($${formatCents(share)}) has been refunded to your wallet.`,
            escrow: presentEscrow(updated),
            wallet: presentWallet(after),
          },
          afterCommit: () => {
            this.publish(deal, updated);
            this.announceProtection(deal);
            this.events.notify([otherDealerOf(deal, side)], {
              kind: 'escrow-refunded',
              dealId,
              message: `The other dealer took their half ($${formatCents(share)}) back from the escrow of "${deal.title}".`,
            });
          },
        };
      }),
    );
    publishAfterCommit(this.log, outcome.afterCommit);
    return outcome;
  }

  /** The deal's escrow, locked for the rest of the transaction (the deal must be locked already). */
  async lock(tx: Tx, dealId: number) {
    return escrowRepository.lockByDealId(tx, dealId);
  }

  /**
   * Releases a locked escrow to the deal's dealmaker: one transfer
   * escrow → dealmaker's wallet (payment_received), escrow `completed`.
   * The caller holds the deal and escrow locks and has checked the rules.
   */
  async release(tx: Tx, deal: DealRow, escrow: EscrowRow) {
    if (escrow.status !== 'locked' || deal.dealmakerId === null) {
      throw new Error(`escrow of deal ${deal.id} is not ready for release`);
    }
    await this.wallets.lockWallet(tx, deal.dealmakerId);
    await transfer(tx, {
      kind: 'escrow_release',
      from: accounts.escrow(deal.id),
      to: accounts.wallet(deal.dealmakerId),
      amountCents: escrow.amountCents,
      dealId: deal.id,
      description: `Payment received for "${deal.title}"`,
    });
    return escrowRepository.update(tx, deal.id, { status: 'completed', releasedAt: new Date() });
  }

  /** 'escrow-updated' to the deal's participants (their user rooms). */
  publish(deal: DealRow, escrow: EscrowRow) {
    this.events.publish({ users: participantIds(deal) }, 'escrow-updated', {
      dealId: deal.id,
      data: presentEscrow(escrow),
      updateType: 'updated',
    });
  }

  /** Whether a half is paid shows on every deal card (protected or not): the public list hears of a pay or refund. */
  private announceProtection(deal: DealRow) {
    this.deals
      .get(deal.id, 0)
      .then((fresh) => this.deals.announce(fresh, 'updated'))
      .catch((error) =>
        this.log.error({ err: error, dealId: deal.id }, 'announcing the escrow change failed'),
      );
  }

  /**
   * The deal's escrow, created if the deal has a dealmaker and none exists
   * yet, and locked. Its amount is the budget at that moment: the budget only
   * changes when a dealmaker is assigned, so it is final by now.
   */
  private async open(tx: Tx, deal: DealRow): Promise<EscrowRow | undefined> {
    const existing = await escrowRepository.lockByDealId(tx, deal.id);
    if (existing || deal.dealmakerId === null) return existing;
    await escrowRepository.ensure(tx, {
      dealId: deal.id,
      amountCents: deal.budgetCents,
      ...splitEscrow(deal.budgetCents),
    });
    return escrowRepository.lockByDealId(tx, deal.id);
  }
}

function otherDealerOf(deal: DealRow, side: DealerSide) {
  return side === 'creator' ? deal.counterpartId : deal.creatorId;
}
