import { z } from 'zod';
import { limits } from './limits';
import { dollarsToCents, formatUsdCents } from './money';

/** Ids are PostgreSQL integers: a larger number is refused here rather than failing in the database. */
export const maxId = 2_147_483_647;

/** A deal id in a request body. */
export const bodyDealId = z.number({ error: 'dealId is required' }).int().positive().max(maxId);

/**
 * A deal id in a socket event: a number or a string of digits (clients send either); `true` or `[5]`
 * would otherwise coerce to a deal id.
 */
export const eventDealId = z
  .union([z.number(), z.string().trim().regex(/^\d+$/).transform(Number)])
  .pipe(z.number().int().positive().max(maxId));

/** PostgreSQL text cannot hold NUL: such input is refused here rather than failing in the database. */
export const withoutNul = (value: string) => !value.includes('\u0000');
export const invalidCharacter = (name: string) => `${name} contains an invalid character`;

/** A required, trimmed text field of at most `max` characters, with messages naming the field. */
export const requiredText = (name: string, max: number) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .min(1, `${name} is required`)
    .max(max, `${name} must be at most ${max} characters`);

/**
 * An id in a path or a query: plain decimal digits only (DESIGN.md §4: `0x61`,
 * `97e0` or `+97` are not 97), positive, at most `max`.
 */
export const decimalId = (max = maxId) =>
  z
    .string()
    .regex(/^\d{1,16}$/, 'Must be a whole number written in digits')
    .transform(Number)
    .pipe(z.number().int().positive().max(max));

export const idParamSchema = z.object({ id: decimalId() });
export const dealIdParamSchema = z.object({ dealId: decimalId() });

/** `?limit=&before=` of every long list (DESIGN.md §4): newest first, `before` is the last id seen. */
export const pageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(limits.page.maxLimit).default(limits.page.defaultLimit),
  before: decimalId().optional(),
});

/** The answer of a call that only says what it did. */
export const messageResponseSchema = z.object({ message: z.string() });

/** A dollar amount on the wire (a number or a plain decimal string), parsed to integer cents within [minCents, maxCents]. */
export function moneySchema(minCents: number, maxCents: number) {
  return z.union([z.number(), z.string()], { error: 'Amount must be a number' }).transform((value, ctx) => {
    const cents = dollarsToCents(value);
    if (cents === null) {
      ctx.addIssue({ code: 'custom', message: 'Amount must be a positive number with at most 2 decimals' });
      return z.NEVER;
    }
    if (cents < minCents || cents > maxCents) {
      ctx.addIssue({
        code: 'custom',
        message: `Amount must be between ${formatUsdCents(minCents)} and ${formatUsdCents(maxCents)}`,
      });
      return z.NEVER;
    }
    return cents;
  });
}
