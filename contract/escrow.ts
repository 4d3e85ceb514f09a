import { z } from 'zod';
import { dealSchema } from './deals';
import { walletSchema } from './wallet';

/**
 * The escrow of a deal and its completion (spec §7 "Wallet and escrow",
 * DESIGN.md §5 Escrow / Completion): each dealer pays their half, both halves
 * lock it, and completing the deal releases it to the dealmaker.
 */

/**
 * Each dealer's share of an escrow amount, in cents: the creator pays
 * ceil(amount / 2), the counterpart the rest (DESIGN.md §5 Escrow).
 */
export function splitEscrow(amountCents: number) {
  const counterpartShareCents = Math.floor(amountCents / 2);
  return { creatorShareCents: amountCents - counterpartShareCents, counterpartShareCents };
}

/**
 * The two dealers' refunds when a locked escrow is settled with `toDealmakerCents` to the
 * dealmaker: the rest goes back in proportion to what each paid, the creator's part rounded up
 * like the halves, so that the three always add up to the escrow exactly.
 */
export function splitSettlement(
  escrow: { amountCents: number; creatorShareCents: number },
  toDealmakerCents: number,
) {
  const rest = BigInt(escrow.amountCents - toDealmakerCents);
  const amount = BigInt(escrow.amountCents);
  // ceil(rest × creatorShare ÷ amount), in integers: the product can exceed 2^53.
  const creator = amount === 0n ? 0n : (rest * BigInt(escrow.creatorShareCents) + amount - 1n) / amount;
  return {
    toDealmakerCents,
    refundToCreatorCents: Number(creator),
    refundToCounterpartCents: Number(rest - creator),
  };
}

/**
 * pending (0 or 1 half paid) → locked (both paid) → completed (released to the dealmaker),
 * or settled (split between the dealmaker and the dealers by a dispute's settlement).
 */
export const escrowStatuses = ['pending', 'locked', 'completed', 'settled'] as const;
export type EscrowStatusValue = (typeof escrowStatuses)[number];

/** spec §3 Escrow, with each dealer's share: the creator pays ceil(amount/2) cents, the counterpart the rest. */
export const escrowSchema = z.object({
  amount: z.number(),
  status: z.enum(escrowStatuses),
  creatorPaid: z.boolean(),
  counterpartPaid: z.boolean(),
  creatorAmount: z.number(),
  counterpartAmount: z.number(),
  /** While one half waits alone for the other: when it is refunded automatically. */
  expiresAt: z.string().nullable(),
});
export type Escrow = z.infer<typeof escrowSchema>;

/** GET /wallet/escrow/{dealId}: the escrow exists once the deal has a dealmaker. */
export const escrowStatusResponseSchema = z.object({
  escrowExists: z.boolean(),
  escrow: escrowSchema.nullable(),
  deal: dealSchema,
  /** The escrow's `expiresAt`, also here: when a lone half is refunded unless the other is paid. */
  expiresAt: z.string().nullable(),
});
export type EscrowStatusResponse = z.infer<typeof escrowStatusResponseSchema>;

/** POST /wallet/escrow/{dealId}/lock and /refund. */
export const escrowActionResponseSchema = z.object({
  message: z.string(),
  escrow: escrowSchema,
  wallet: walletSchema,
});
export type EscrowActionResponse = z.infer<typeof escrowActionResponseSchema>;

/** PUT /progress/deal/{dealId}/complete. */
export const completionResponseSchema = z.object({
  message: z.string(),
  deal: dealSchema,
  isCompleted: z.boolean(),
});
export type CompletionResponse = z.infer<typeof completionResponseSchema>;

/** The spec's exact texts (spec §4 Escrow). */
export const escrowMessages = {
  locked: 'Both parties have paid! Money is now locked in escrow until deal completion.',
  released: 'Escrow payment has been released to the dealmaker!',
} as const;
