import { z } from 'zod';

/**
 * Money travels as a JSON number of dollars with at most two decimals and is
 * handled everywhere else as integer cents. The conversion goes through the
 * number's shortest decimal text, so no float arithmetic ever touches money.
 */
const plainDecimal = /^(\d+)(?:\.(\d{1,2}))?$/;

/** Dollars → cents, or null when the value is not a plain non-negative amount with ≤ 2 decimals. */
export function dollarsToCents(value: number): number | null {
  if (!Number.isFinite(value)) return null;
  const match = plainDecimal.exec(String(value));
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

/** Cents → dollars as a JSON number (exact for every value up to 10^15 cents, far beyond any allowed amount). */
export function centsToDollars(cents: number): number {
  return Number(formatCents(cents));
}

/** Cents → '1234.50' (no currency sign, no grouping). */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A dollar amount on the wire, parsed to integer cents within [minCents, maxCents]. */
export function moneySchema(minCents: number, maxCents: number) {
  return z.number({ error: 'Amount must be a number' }).transform((value, ctx) => {
    const cents = dollarsToCents(value);
    if (cents === null) {
      ctx.addIssue({ code: 'custom', message: 'Amount must be a positive number with at most 2 decimals' });
      return z.NEVER;
    }
    if (cents < minCents || cents > maxCents) {
      ctx.addIssue({
        code: 'custom',
        message: `Amount must be between ${formatCents(minCents)} and ${formatCents(maxCents)}`,
      });
      return z.NEVER;
    }
    return cents;
  });
}
