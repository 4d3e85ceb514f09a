/** `%keyword%` for ILIKE with LIKE's own wildcards escaped, so a search for "50%" means what it says. */
export function containsPattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
