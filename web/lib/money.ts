import {
  amountToCents,
  centsToDollars,
  formatUsdCents,
  minusSign,
  typedAmountToCents,
} from '../../contract/money';

/** A dollar amount from the API (a number with at most 2 decimals) as '$1,234.50'; negatives '−$50.00'. */
export function formatMoney(amount: number): string {
  return formatUsdCents(toCents(amount));
}

/** '+$10.00' or '−$10.00', for movements whose direction matters (e.g. wallet transactions). */
export function formatSignedMoney(amount: number, direction: 'in' | 'out'): string {
  return `${direction === 'in' ? '+' : minusSign}${formatMoney(Math.abs(amount))}`;
}

/** Never '−$0.00'; NaN or a string that slipped through shows as $0.00 rather than 'NaN'. */
function toCents(amount: number): number {
  const value = Number(amount);
  if (!Number.isFinite(value)) return 0;
  const cents = amountToCents(value);
  return cents === 0 ? 0 : cents;
}

/**
 * An amount as a person typed it ("1,000.50", "$20", ".5"), for the contract's money schema of the
 * request: its dollars when typedAmountToCents reads it, else the text itself, which the schema then
 * refuses in its own words.
 */
export function typedAmount(text: string): number | string {
  const cents = typedAmountToCents(text);
  return cents === null ? text : centsToDollars(cents);
}
