/**
 * Money travels as a JSON number of dollars with at most two decimals — or the
 * same as a plain decimal string ("2000", "2000.5", "2000.50"), as clients of
 * the original system send it — and is handled everywhere else as integer
 * cents. The conversion goes through the decimal text, so no float arithmetic
 * ever touches money.
 */
const plainDecimal = /^(\d+)(?:\.(\d{1,2}))?$/;

/** Dollars → cents, or null when the value is not a plain non-negative amount with ≤ 2 decimals. */
export function dollarsToCents(value: number | string): number | null {
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  const match = plainDecimal.exec(String(value));
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

/**
 * A dollar amount held as a number (an API answer, either sign) as cents: exactly, through its decimal
 * text, when it has at most two decimals; rounded to the nearest cent when it does not (a sum computed in
 * floating point, 0.1 + 0.2). NaN stays NaN. The web's one way from dollars to cents.
 */
export function amountToCents(dollars: number): number {
  const size = Math.abs(dollars);
  const cents = dollarsToCents(size) ?? Math.round(size * 100);
  return dollars < 0 ? -cents : cents;
}

/** An amount as a person types it: "20", "20.5", ".50", "20.", "$1,000.01" (commas only between thousands). */
const typedAmount = /^\$?(\d{1,3}(?:,\d{3})+|\d*)(?:\.(\d{0,2}))?$/;

/** What a person typed in an amount field as cents, or null when it is not an amount with ≤ 2 decimals. */
export function typedAmountToCents(text: string): number | null {
  const match = typedAmount.exec(text.trim());
  if (!match) return null;
  const whole = (match[1] ?? '').replaceAll(',', '');
  const fraction = match[2] ?? '';
  if (!whole && !fraction) return null;
  return dollarsToCents(`${whole || '0'}${fraction ? `.${fraction}` : ''}`);
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

/** The minus sign of negative amounts (U+2212, as typeset money shows it, not the hyphen). */
export const minusSign = '\u2212';

/**
 * Cents → '$25,000.00' (en-US: thousands grouped, always 2 decimals); negatives '−$50.00'. The one
 * money format of the product: the web app shows every amount this way, and the server's messages
 * that name an amount write it this way too. Integer arithmetic only, so it is exact for every amount.
 */
export function formatUsdCents(cents: number): string {
  const abs = Math.abs(Math.trunc(cents));
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const sign = cents <= -1 ? minusSign : '';
  return `${sign}$${whole}.${String(abs % 100).padStart(2, '0')}`;
}
