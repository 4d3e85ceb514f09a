const dollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const plain = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A dollar amount from the API (a number with at most 2 decimals) as '$1,234.50'. */
export function formatMoney(amount: number): string {
  return dollars.format(normalize(amount));
}

/** The same amount without the currency sign: '1,234.50'. */
export function formatAmount(amount: number): string {
  return plain.format(normalize(amount));
}

/** '+$10.00' or '-$10.00', for movements whose direction matters (e.g. wallet transactions). */
export function formatSignedMoney(amount: number, direction: 'in' | 'out'): string {
  return `${direction === 'in' ? '+' : '-'}${formatMoney(Math.abs(amount))}`;
}

/** Never '-$0.00'; NaN or a string that slipped through shows as $0.00 rather than 'NaN'. */
function normalize(amount: number): number {
  const value = Number(amount);
  if (!Number.isFinite(value)) return 0;
  return Math.round(value * 100) === 0 ? 0 : value;
}
